// The live tail: pick a dataset (or a starred query), optionally a filter, and watch its events
// arrive. The URL holds the dataset and the filter, so a link opens the same tail.
import { Clock, Eraser, Pause, Play, WrapText } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LiveEvent } from '../../api/live';
import { useSearchParams } from 'react-router';
import { AplEditor } from '../../editor/AplEditor';
import { ConnectionStatus } from './ConnectionStatus';
import { EventList } from './EventList';
import { EventPanel } from './EventPanel';
import { SourcePicker } from './SourcePicker';
import { MAX_EVENTS } from './tail-buffer';
import { useLiveTail } from './useLiveTail';
import './stream.css';

export function StreamPage() {
  const [params, setParams] = useSearchParams();
  const dataset = params.get('dataset') || undefined;
  const filter = params.get('filter') ?? '';
  const [draftFilter, setDraftFilter] = useState(filter);
  const [generation, setGeneration] = useState(0);
  const [paused, setPaused] = useState(false);
  const [wrap, setWrap] = useState(false);
  const [utc, setUtc] = useState(false);
  const [opened, setOpened] = useState<{ key: number; event: LiveEvent } | undefined>(undefined);
  const [refusal, setRefusal] = useState<string | undefined>(undefined);
  const tail = useLiveTail(dataset, filter, paused, generation);
  const completionDatasets = useMemo(() => (dataset ? [dataset] : undefined), [dataset]);

  // The URL may change under the page (a starred query, back and forward): follow it.
  useEffect(() => setDraftFilter(filter), [filter]);
  useEffect(() => setOpened(undefined), [dataset, filter, generation]);

  const follow = (nextDataset: string | undefined, nextFilter: string) => {
    const next = new URLSearchParams(params);
    if (nextDataset) next.set('dataset', nextDataset);
    else next.delete('dataset');
    if (nextFilter.trim()) next.set('filter', nextFilter.trim());
    else next.delete('filter');
    setParams(next);
    setGeneration((value) => value + 1);
  };

  const toggleOpened = useCallback((key: number, event: LiveEvent) => setOpened((current) => (current?.key === key ? undefined : { key, event })), []);
  const eventCount = tail.shownEvents;
  const emptyText = !dataset
    ? 'Choose a dataset to follow its events as they arrive.'
    : tail.state.kind === 'live'
      ? `Waiting for events${filter ? ' that match the filter' : ''}…`
      : 'No events yet.';

  return (
    <section className="stream-page" aria-labelledby="stream-title">
      <h1 id="stream-title" className="visually-hidden">
        Stream
      </h1>
      <div className="toolbar stream-source">
        <SourcePicker
          dataset={dataset}
          onDataset={(name) => follow(name, filter)}
          onStarred={(name, predicate) => follow(name, predicate)}
          onRefused={setRefusal}
        />
        <div className="stream-filter">
          <span className="stream-caption" aria-hidden="true">
            Filter
          </span>
          <AplEditor
            mode="predicate"
            label="Filter"
            value={draftFilter}
            onChange={setDraftFilter}
            onRun={() => follow(dataset, draftFilter)}
            placeholder={'e.g. status >= 500'}
            {...(completionDatasets ? { datasets: completionDatasets } : {})}
          />
        </div>
        <button type="button" className="button primary stream-apply" onClick={() => follow(dataset, draftFilter)} disabled={!dataset}>
          Apply
        </button>
      </div>
      {refusal && (
        <div className="error-box" role="alert">
          {refusal}
        </div>
      )}
      <div className="toolbar stream-controls">
        <ConnectionStatus state={tail.state} onRetry={() => setGeneration((value) => value + 1)} />
        <button type="button" className="button small" aria-pressed={paused} onClick={() => setPaused((value) => !value)} disabled={!dataset}>
          {paused ? <Play size={14} aria-hidden="true" /> : <Pause size={14} aria-hidden="true" />}
          {paused ? 'Resume' : 'Pause'}
        </button>
        {paused && (
          <span className="stream-pending" role="status">
            {tail.pendingEvents === 1 ? '1 new event' : `${tail.pendingEvents.toLocaleString()} new events`}
          </span>
        )}
        <button type="button" className="button small" aria-pressed={wrap} onClick={() => setWrap((value) => !value)}>
          <WrapText size={14} aria-hidden="true" /> Wrap lines
        </button>
        <button type="button" className="button small" aria-pressed={utc} onClick={() => setUtc((value) => !value)}>
          <Clock size={14} aria-hidden="true" /> UTC
        </button>
        <button type="button" className="button small ghost" onClick={tail.clear} disabled={tail.lines.length === 0}>
          <Eraser size={14} aria-hidden="true" /> Clear
        </button>
        <span className="muted stream-count">
          {eventCount.toLocaleString()} {eventCount === 1 ? 'event' : 'events'}
          {eventCount >= MAX_EVENTS ? ` (the newest ${MAX_EVENTS.toLocaleString()} are kept)` : ''}
        </span>
      </div>
      <FastStreamAnnouncer fast={tail.fast} received={tail.receivedEvents} />
      <div className={`stream-body${opened ? ' with-panel' : ''}`}>
        <EventList
          lines={tail.lines}
          wrap={wrap}
          utc={utc}
          announce={!tail.fast && !paused}
          openedKey={opened?.key}
          onOpen={toggleOpened}
          emptyText={emptyText}
        />
        {opened && <EventPanel event={opened.event} utc={utc} onClose={() => setOpened(undefined)} />}
      </div>
    </section>
  );
}

/** While lines are not announced one by one, says every ten seconds how many arrived. */
function FastStreamAnnouncer({ fast, received }: { fast: boolean; received: number }) {
  const latest = useRef(received);
  latest.current = received;
  const [message, setMessage] = useState('');
  useEffect(() => {
    setMessage('');
    if (!fast) return undefined;
    let mark = latest.current;
    const timer = setInterval(() => {
      setMessage(`${(latest.current - mark).toLocaleString()} new events in the last 10 seconds`);
      mark = latest.current;
    }, 10_000);
    return () => clearInterval(timer);
  }, [fast]);
  return (
    <div className="visually-hidden" role="status">
      {message}
    </div>
  );
}
