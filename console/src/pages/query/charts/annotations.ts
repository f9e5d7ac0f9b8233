// Annotations on a chart's time axis: drawn on the canvas (a line, or a shaded range), and
// placed as positions for the focusable markers above the plot that carry their titles.
import type uPlot from 'uplot';
import type { Annotation } from '../../../api/query';
import { epochSeconds } from './time-column';

export interface AnnotationMark {
  id: string;
  title: string;
  description?: string;
  start: number;
  end?: number;
}

export interface MarkerPosition {
  id: string;
  title: string;
  description?: string;
  /** CSS pixels from the chart's left edge. */
  left: number;
  width: number;
  top: number;
}

/** The answer's annotations with parsed times (those without a readable time dropped). */
export function annotationMarks(annotations: Annotation[] | undefined): AnnotationMark[] {
  return (annotations ?? []).flatMap((annotation) => {
    const start = epochSeconds(annotation.time);
    if (start === undefined) return [];
    const end = epochSeconds(annotation.endTime);
    return [
      {
        id: annotation.id,
        title: annotation.title || annotation.type || 'Annotation',
        ...(annotation.description ? { description: annotation.description } : {}),
        start,
        ...(end !== undefined && end > start ? { end } : {}),
      },
    ];
  });
}

const LINE = '#9a6700';
const RANGE = 'rgba(154, 103, 0, 0.12)';

/** A uPlot draw hook painting the marks in the plot area. */
export function drawAnnotations(marks: AnnotationMark[]): (plot: uPlot) => void {
  return (plot) => {
    if (marks.length === 0) return;
    const { ctx, bbox } = plot;
    ctx.save();
    ctx.beginPath();
    ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
    ctx.clip();
    for (const mark of marks) {
      const x = plot.valToPos(mark.start, 'x', true);
      if (mark.end !== undefined) {
        const x2 = plot.valToPos(mark.end, 'x', true);
        ctx.fillStyle = RANGE;
        ctx.fillRect(x, bbox.top, Math.max(x2 - x, 1), bbox.height);
      }
      ctx.strokeStyle = LINE;
      ctx.lineWidth = Math.max(1, devicePixelRatio);
      ctx.setLineDash([4 * devicePixelRatio, 3 * devicePixelRatio]);
      ctx.beginPath();
      ctx.moveTo(Math.round(x) + 0.5, bbox.top);
      ctx.lineTo(Math.round(x) + 0.5, bbox.top + bbox.height);
      ctx.stroke();
    }
    ctx.restore();
  };
}

/** Where each visible mark's marker goes, in CSS pixels relative to the chart's root element. */
export function markerPositions(plot: uPlot, marks: AnnotationMark[]): MarkerPosition[] {
  const overLeft = plot.over.offsetLeft;
  const overTop = plot.over.offsetTop;
  const width = plot.over.clientWidth;
  return marks.flatMap((mark) => {
    const left = plot.valToPos(mark.start, 'x');
    const right = mark.end !== undefined ? plot.valToPos(mark.end, 'x') : left;
    if (right < 0 || left > width) return [];
    return [
      {
        id: mark.id,
        title: mark.title,
        ...(mark.description ? { description: mark.description } : {}),
        left: overLeft + Math.max(0, left),
        width: Math.max(0, Math.min(width, right) - Math.max(0, left)),
        top: overTop,
      },
    ];
  });
}
