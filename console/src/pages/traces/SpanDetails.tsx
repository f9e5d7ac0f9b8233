// One span in full, beside the waterfall: what it is (service, kind, status, start and length,
// ids), its span events (offset from the span's start), and, read from its whole event once it
// is opened, its attributes, resource and other fields and its links (to another trace's page,
// or to the span when it is in this trace).
import { X } from 'lucide-react';
import type { TraceRange } from '../../api/traces';
import { formatTime, formatValue } from '../query/cells';
import { formatNanos } from './format';
import { spanFieldGroups } from './span-fields';
import { spanLinks } from './span-model';
import type { TraceTree } from './span-tree';
import { nanosBetween } from './time-ns';
import { TraceLink } from './TraceLink';
import { useSpanEvent } from './useSpanEvent';

export interface SpanDetailsProps {
  tree: TraceTree;
  node: number;
  traceId: string;
  /** The range the trace was read in, which bounds the read of the span's whole event. */
  range: TraceRange;
  onSelectSpan(spanId: string): void;
  onClose(): void;
}

function FieldTable({ caption, entries }: { caption: string; entries: [string, unknown][] }) {
  if (entries.length === 0) return null;
  return (
    <table className="span-fields">
      <caption>{caption}</caption>
      <tbody>
        {entries.map(([name, value]) => (
          <tr key={name}>
            <th scope="row" className="mono">
              {name}
            </th>
            <td className="mono">{formatValue(value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function SpanDetails({ tree, node, traceId, range, onSelectSpan, onClose }: SpanDetailsProps) {
  const span = tree.spans[node]!;
  const whole = useSpanEvent(span.dataset, traceId, span.spanId, range);
  const event = whole.phase === 'done' ? whole.event : undefined;
  const groups = event ? spanFieldGroups(event) : undefined;
  const links = event ? spanLinks(event.links) : [];
  const time = span.table.columns[span.table.fields.findIndex((field) => field.name === '_time')]?.[span.row];
  const parent = tree.parent[node]!;
  return (
    <section className="span-details" aria-labelledby="span-details-title">
      <div className="span-details-header">
        <h2 id="span-details-title">{span.name || '(no name)'}</h2>
        <button type="button" className="button small ghost" aria-label="Close span details" onClick={onClose}>
          <X size={16} aria-hidden="true" />
        </button>
      </div>
      <dl className="span-summary">
        <dt>Service</dt>
        <dd>{span.service || '—'}</dd>
        <dt>Kind</dt>
        <dd>{span.kind || '—'}</dd>
        <dt>Status</dt>
        <dd className={span.error ? 'status-error' : undefined}>
          {span.statusCode ?? 'unset'}
          {span.statusMessage ? `: ${span.statusMessage}` : ''}
        </dd>
        <dt>Starts</dt>
        <dd>
          +{formatNanos(tree.startOffset[node]!)} <span className="muted mono">{formatTime(time, 'local')}</span>
        </dd>
        <dt>Duration</dt>
        <dd>{span.ended ? formatNanos(span.durationNanos) : 'not ended'}</dd>
        <dt>Span ID</dt>
        <dd className="mono">{span.spanId}</dd>
        <dt>Parent</dt>
        <dd className="mono">
          {!span.parentSpanId ? 'none (root)' : parent >= 0 ? (
            <button type="button" className="link-button mono" onClick={() => onSelectSpan(span.parentSpanId)}>
              {span.parentSpanId}
            </button>
          ) : (
            <>
              {span.parentSpanId} <span className="orphan-note">missing from this trace</span>
            </>
          )}
        </dd>
        <dt>Dataset</dt>
        <dd>{span.dataset}</dd>
      </dl>
      {whole.phase === 'loading' ? (
        <p className="muted">Loading the span's attributes…</p>
      ) : null}
      {whole.phase === 'error' ? (
        <div className="error-box" role="alert">
          {whole.message}
        </div>
      ) : null}
      {whole.phase === 'done' && !event ? <p className="muted">This span is no longer stored: its attributes cannot be read.</p> : null}
      {groups ? (
        <>
          <FieldTable caption="Attributes" entries={groups.attributes} />
          <FieldTable caption="Resource and scope" entries={groups.resource} />
          <FieldTable caption="Other fields" entries={groups.other} />
        </>
      ) : null}
      <h3>Events ({span.events.length})</h3>
      {span.events.length === 0 ? (
        <p className="muted">No span events.</p>
      ) : (
        <ol className="span-events" aria-label="Span events">
          {span.events.map((event, index) => (
            <li key={index}>
              <span className="mono muted">{event.at ? `+${formatNanos(nanosBetween(span.start, event.at))}` : '—'}</span> <strong>{event.name}</strong>
              {event.attributes ? <span className="mono span-event-attributes"> {formatValue(event.attributes)}</span> : null}
            </li>
          ))}
        </ol>
      )}
      <h3>Links{whole.phase === 'done' ? ` (${links.length})` : ''}</h3>
      {whole.phase !== 'done' ? null : links.length === 0 ? (
        <p className="muted">No links.</p>
      ) : (
        <ul className="span-links" aria-label="Span links">
          {links.map((link, index) => (
            <li key={index}>
              {link.traceId === traceId ? (
                <button type="button" className="link-button mono" onClick={() => onSelectSpan(link.spanId)}>
                  span {link.spanId} of this trace
                </button>
              ) : (
                <>
                  trace <TraceLink traceId={link.traceId} dataset={span.dataset} /> span <span className="mono">{link.spanId}</span>
                </>
              )}
              {link.traceState ? <span className="mono span-event-attributes"> trace state {link.traceState}</span> : null}
              {link.attributes ? <span className="mono span-event-attributes"> {formatValue(link.attributes)}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
