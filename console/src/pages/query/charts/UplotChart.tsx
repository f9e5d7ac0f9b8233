// One uPlot instance inside React: created when the options change, fed new data in place,
// resized with its container, and turning a horizontal drag into a time range for the caller
// (the chart itself does not zoom: the page reruns the query over the dragged range).
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface UplotChartProps {
  /** Everything but the size, which follows the container. Build it with useMemo. */
  options: Omit<uPlot.Options, 'width' | 'height'>;
  data: uPlot.AlignedData;
  height: number;
  /** Called with the dragged range of the x scale (seconds). */
  onSelectRange?(startSeconds: number, endSeconds: number): void;
  /** After every redraw (positions of overlays depend on it). */
  onDraw?(plot: uPlot): void;
  className?: string;
}

/** Drags narrower than this many CSS pixels are clicks, not ranges. */
const MIN_DRAG_PIXELS = 4;

export function UplotChart({ options, data, height, onSelectRange, onDraw, className }: UplotChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const callbacks = useRef({ onSelectRange, onDraw });
  callbacks.current = { onSelectRange, onDraw };
  const dataRef = useRef(data);
  dataRef.current = data;

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const hooks: uPlot.Hooks.Arrays = { ...(options.hooks ?? {}) };
    hooks.setSelect = [
      ...(hooks.setSelect ?? []),
      (plot) => {
        const { left, width } = plot.select;
        if (width >= MIN_DRAG_PIXELS && callbacks.current.onSelectRange) {
          const start = plot.posToVal(left, 'x');
          const end = plot.posToVal(left + width, 'x');
          callbacks.current.onSelectRange(Math.min(start, end), Math.max(start, end));
        }
        plot.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
      },
    ];
    hooks.draw = [...(hooks.draw ?? []), (plot) => callbacks.current.onDraw?.(plot)];
    const plot = new uPlot(
      {
        ...options,
        width: Math.max(container.clientWidth, 100),
        height,
        cursor: { ...(options.cursor ?? {}), drag: { x: true, y: false, setScale: false, ...(options.cursor?.drag ?? {}) } },
        hooks,
      },
      dataRef.current,
      container,
    );
    plotRef.current = plot;
    const observer = new ResizeObserver(() => {
      const width = Math.max(container.clientWidth, 100);
      if (width !== plot.width) plot.setSize({ width, height });
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      plot.destroy();
      plotRef.current = null;
    };
  }, [options, height]);

  useEffect(() => {
    const plot = plotRef.current;
    if (plot && plot.data !== data) plot.setData(data);
  }, [data]);

  return <div ref={containerRef} className={className} />;
}
