// A trace id shown as a link to its trace's page, wherever a page shows event fields (the
// Query page's grid and event panel, the Stream page's panel). The lookup is bounded by the
// range of the page it was seen on (its `start`/`end` in the URL), else by an hour either side
// of the event. Clicks and keys stay with the link, not the row around it.
import { Link, useParams, useSearchParams } from 'react-router';
import { rangeAround, tracePath } from './trace-link';
import './trace-link.css';

export interface TraceLinkProps {
  traceId: string;
  dataset: string | undefined;
  /** The event's `_time`, for pages without a range of their own. */
  eventTime?: unknown;
  className?: string;
}

export function TraceLink({ traceId, dataset, eventTime, className }: TraceLinkProps) {
  const { org = '' } = useParams();
  const [search] = useSearchParams();
  const pageStart = search.get('start');
  const pageEnd = search.get('end');
  const range = pageStart && pageEnd ? { start: pageStart, end: pageEnd } : rangeAround(eventTime);
  return (
    <Link
      to={tracePath(org, { traceId, dataset, ...range })}
      className={`trace-link mono ${className ?? ''}`}
      title="Open this trace's waterfall"
      onClick={(event) => event.stopPropagation()}
      onKeyDown={(event) => event.stopPropagation()}
    >
      {traceId}
    </Link>
  );
}
