// Follows one dataset through one filter while the page shows it: opens the tail, gathers its
// batches into the TailBuffer and renders them once per animation frame, and closes the tail
// when the dataset, the filter or the page changes. Also tells whether events arrive faster than
// a screen reader can follow, so the list can stop announcing each one.
import { useCallback, useEffect, useRef, useState } from 'react';
import { type LiveState, openLiveTail } from '../../api/live';
import { TailBuffer, type TailView } from './tail-buffer';

export type TailState = LiveState | { kind: 'idle' };

/** Above this many events per second, lines are no longer announced one by one. */
const ANNOUNCE_LIMIT_PER_SECOND = 5;

export interface LiveTail extends TailView {
  state: TailState;
  /** True while events arrive too fast to be announced one by one. */
  fast: boolean;
  clear(): void;
}

export function useLiveTail(dataset: string | undefined, filter: string, paused: boolean, generation: number): LiveTail {
  const buffer = useRef(new TailBuffer());
  const frame = useRef<number | undefined>(undefined);
  const arrivals = useRef<number[]>([]);
  const [view, setView] = useState<TailView>(() => buffer.current.view());
  const [state, setState] = useState<TailState>({ kind: 'idle' });
  const [fast, setFast] = useState(false);

  const render = useCallback(() => {
    frame.current = undefined;
    buffer.current.flush();
    setView(buffer.current.view());
  }, []);

  const scheduleRender = useCallback(() => {
    if (frame.current === undefined) frame.current = requestAnimationFrame(render);
  }, [render]);

  useEffect(() => {
    buffer.current.reset();
    arrivals.current = [];
    setFast(false);
    setView(buffer.current.view());
    if (!dataset) {
      setState({ kind: 'idle' });
      return undefined;
    }
    const stop = openLiveTail(
      { dataset, ...(filter ? { filter } : {}) },
      {
        onBatch(batch) {
          buffer.current.add(batch);
          const now = performance.now();
          for (let i = 0; i < Math.min(batch.events.length, 100); i++) arrivals.current.push(now);
          if (batch.events.length > ANNOUNCE_LIMIT_PER_SECOND) setFast(true);
          scheduleRender();
        },
        onState: setState,
      },
    );
    return () => {
      stop();
      if (frame.current !== undefined) cancelAnimationFrame(frame.current);
      frame.current = undefined;
    };
  }, [dataset, filter, generation, scheduleRender]);

  useEffect(() => {
    buffer.current.setPaused(paused);
    setView(buffer.current.view());
  }, [paused]);

  // Once a second: is the stream too fast to announce line by line?
  useEffect(() => {
    const timer = setInterval(() => {
      const since = performance.now() - 1000;
      arrivals.current = arrivals.current.filter((time) => time >= since);
      setFast(arrivals.current.length > ANNOUNCE_LIMIT_PER_SECOND);
    }, 1000);
    return () => clearInterval(timer);
  }, []);

  const clear = useCallback(() => {
    buffer.current.clear();
    setView(buffer.current.view());
  }, []);

  return { ...view, state, fast, clear };
}
