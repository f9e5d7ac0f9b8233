// What the waterfall's marks mean, shown above it: bars, the critical path (and how it is
// chosen), errors, span events and spans whose parent is missing.
import { AlertTriangle, Unlink } from 'lucide-react';

export function TraceLegend() {
  return (
    <ul className="trace-legend" aria-label="Legend">
      <li>
        <span className="legend-bar" aria-hidden="true" /> Bar: when the span starts on the trace's time axis and how long it lasts, coloured by service
      </li>
      <li>
        <span className="legend-bar critical" aria-hidden="true" /> Critical path: from the root, at each level the child span that ends last
      </li>
      <li>
        <AlertTriangle className="span-error-mark" size={14} aria-hidden="true" /> Error: the span's status code is ERROR
      </li>
      <li>
        <span className="legend-event" aria-hidden="true" /> Span event
      </li>
      <li>
        <Unlink className="span-orphan-mark" size={13} aria-hidden="true" /> Parent span missing: shown at the top level
      </li>
    </ul>
  );
}
