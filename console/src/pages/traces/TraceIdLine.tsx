// "Trace: <id>" above an event's JSON in the event panels, when the event carries a trace id,
// linking to the trace's waterfall. Without a dataset given, the one the page's URL names
// (the Stream page's `dataset`) is used.
import { useSearchParams } from 'react-router';
import { TRACE_ID_FIELDS } from '../../api/traces';
import { isTraceId } from './trace-link';
import { TraceLink } from './TraceLink';

export interface TraceIdLineProps {
  event: Record<string, unknown>;
  dataset?: string | undefined;
}

export function TraceIdLine({ event, dataset }: TraceIdLineProps) {
  const [search] = useSearchParams();
  const field = TRACE_ID_FIELDS.find((name) => isTraceId(event[name]));
  if (!field) return null;
  return (
    <p className="trace-id-line">
      <span className="muted">{field}: </span>
      <TraceLink traceId={event[field] as string} dataset={dataset ?? search.get('dataset') ?? undefined} eventTime={event._time} />
    </p>
  );
}
