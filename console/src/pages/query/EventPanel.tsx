// One event of the results in full: formatted JSON, Copy, previous/next (buttons and the
// ArrowUp/ArrowDown keys) and the events around it in its dataset.
import { ChevronDown, ChevronUp, Copy, ListTree, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { rowAt, type ResultTable } from '../../api/query';
import { compactText, formatTime } from './cells';
import { TraceIdLine } from '../traces/TraceIdLine';
import { surroundingEvents, type SurroundingEvent } from './surrounding';
import type { TimeZoneChoice } from './url-state';

export interface EventPanelProps {
  table: ResultTable;
  row: number;
  rowCount: number;
  /** The dataset the events come from, when the answer has one source. */
  dataset: string | undefined;
  timeZone: TimeZoneChoice;
  onMove(row: number): void;
  onClose(): void;
  onCopy(text: string, what: string): void;
}

type Around = { phase: 'idle' } | { phase: 'loading' } | { phase: 'done'; events: SurroundingEvent[] } | { phase: 'error'; message: string };

export function EventPanel({ table, row, rowCount, dataset, timeZone, onMove, onClose, onCopy }: EventPanelProps) {
  const event = rowAt(table, row);
  const json = JSON.stringify(event, null, 2);
  const [around, setAround] = useState<Around>({ phase: 'idle' });
  const abort = useRef<AbortController | undefined>(undefined);
  const chosen = useRef<HTMLLIElement>(null);

  // Another event: what was around the previous one no longer applies.
  useEffect(() => {
    abort.current?.abort();
    setAround({ phase: 'idle' });
  }, [table, row]);
  useEffect(() => () => abort.current?.abort(), []);
  useEffect(() => {
    if (around.phase === 'done') chosen.current?.scrollIntoView({ block: 'nearest' });
  }, [around]);

  const showSurrounding = () => {
    if (!dataset) return;
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setAround({ phase: 'loading' });
    surroundingEvents(dataset, event, controller.signal).then(
      (events) => !controller.signal.aborted && setAround({ phase: 'done', events }),
      (error: unknown) => !controller.signal.aborted && setAround({ phase: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
  };

  const onKeyDown = (keyEvent: React.KeyboardEvent) => {
    if (keyEvent.target instanceof HTMLInputElement || keyEvent.target instanceof HTMLTextAreaElement) return;
    if (keyEvent.key === 'ArrowDown' && row < rowCount - 1) {
      keyEvent.preventDefault();
      onMove(row + 1);
    } else if (keyEvent.key === 'ArrowUp' && row > 0) {
      keyEvent.preventDefault();
      onMove(row - 1);
    } else if (keyEvent.key === 'Escape') {
      keyEvent.preventDefault();
      onClose();
    }
  };

  return (
    <aside className="event-panel" aria-label="Event" tabIndex={-1} onKeyDown={onKeyDown} data-event-panel>
      <div className="toolbar event-panel-bar">
        <h2 className="event-title">
          Event {(row + 1).toLocaleString('en-US')} of {rowCount.toLocaleString('en-US')}
        </h2>
        <button type="button" className="button small" aria-label="Previous event" disabled={row === 0} onClick={() => onMove(row - 1)}>
          <ChevronUp size={16} aria-hidden="true" />
        </button>
        <button type="button" className="button small" aria-label="Next event" disabled={row >= rowCount - 1} onClick={() => onMove(row + 1)}>
          <ChevronDown size={16} aria-hidden="true" />
        </button>
        <button type="button" className="button small" onClick={() => onCopy(json, 'Event')}>
          <Copy size={14} aria-hidden="true" />
          Copy
        </button>
        <button type="button" className="button small" disabled={!dataset || event._time === undefined} onClick={showSurrounding}>
          <ListTree size={14} aria-hidden="true" />
          Show surrounding events
        </button>
        <button type="button" className="button small ghost close" aria-label="Close event" onClick={onClose}>
          <X size={16} aria-hidden="true" />
        </button>
      </div>
      <TraceIdLine event={event} dataset={dataset} />
      <pre className="event-json" aria-label="Event JSON" tabIndex={0}>
        {json}
      </pre>
      {around.phase === 'loading' ? <p className="muted">Loading surrounding events…</p> : null}
      {around.phase === 'error' ? <div className="error-box">{around.message}</div> : null}
      {around.phase === 'done' ? (
        <section aria-label="Surrounding events" className="surrounding">
          <h3>Surrounding events in {dataset}</h3>
          <ol className="surrounding-list">
            {around.events.map((entry, index) => (
              <li key={index} ref={entry.isChosen ? chosen : undefined} aria-current={entry.isChosen ? 'true' : undefined} className={entry.isChosen ? 'chosen' : undefined}>
                <span className="mono surrounding-time">{formatTime(entry.row._time, timeZone)}</span>
                {entry.isChosen ? <span className="chosen-mark">this event</span> : null}
                <span className="mono surrounding-text">{compactText(Object.entries(entry.row), 300)}</span>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </aside>
  );
}

