// The toolbar's "Star" (name the current query and save it for the organization), and the
// "Starred" and "Recent" lists to load a query back.
import { History, Star } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { listStarredQueries, starQuery, type StarredQuery } from '../../api/starred';
import type { RecentQuery } from './recent';

export interface LoadedQuery {
  apl: string;
  start?: string;
  end?: string;
}

export function StarButton({ apl, start, end, onStarred }: { apl: string; start: string; end: string; onStarred(message: string): void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const id = useId();

  const openForm = () => {
    setName(apl.trim().split('\n')[0]!.slice(0, 80));
    setError(undefined);
    setOpen(true);
  };

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      await starQuery(name.trim(), { apl, startTime: start, endTime: end });
      setOpen(false);
      onStarred(`Starred "${name.trim()}"`);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="popover-anchor">
      <button type="button" className="button" aria-expanded={open} disabled={!apl.trim()} onClick={() => (open ? setOpen(false) : openForm())}>
        <Star size={16} aria-hidden="true" />
        Star
      </button>
      {open ? (
        <form className="popover star-form" aria-label="Star query" onSubmit={save} onKeyDown={(event) => event.key === 'Escape' && setOpen(false)}>
          <label htmlFor={`${id}-name`}>Name</label>
          <input id={`${id}-name`} value={name} onChange={(event) => setName(event.target.value)} autoFocus required maxLength={255} />
          {error ? <div className="error-box">{error}</div> : null}
          <div className="toolbar">
            <button type="submit" className="button primary" disabled={saving || !name.trim()}>
              Save star
            </button>
            <button type="button" className="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}

export function StarredMenu({ onLoad, refreshKey }: { onLoad(query: LoadedQuery): void; refreshKey: number }) {
  const [open, setOpen] = useState(false);
  const [starred, setStarred] = useState<StarredQuery[] | undefined>();
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    listStarredQueries(controller.signal).then(
      (list) => {
        setStarred(list);
        setError(undefined);
      },
      (failure: unknown) => !controller.signal.aborted && setError(failure instanceof Error ? failure.message : String(failure)),
    );
    return () => controller.abort();
  }, [open, refreshKey]);

  return (
    <details className="menu" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="button">
        <Star size={16} aria-hidden="true" />
        Starred
      </summary>
      <div className="popover menu-list">
        {error ? <div className="error-box">{error}</div> : null}
        {starred === undefined && !error ? <p className="muted">Loading…</p> : null}
        {starred?.length === 0 ? <p className="muted">No starred queries yet.</p> : null}
        {starred?.length ? (
          <QueryList
            label="Starred queries"
            entries={starred.map((entry) => ({
              key: entry.id,
              title: entry.name,
              apl: entry.query.apl,
              query: { apl: entry.query.apl, ...(entry.query.startTime ? { start: entry.query.startTime } : {}), ...(entry.query.endTime ? { end: entry.query.endTime } : {}) },
            }))}
            onLoad={(query) => {
              setOpen(false);
              onLoad(query);
            }}
          />
        ) : null}
      </div>
    </details>
  );
}

export function RecentMenu({ recent, onLoad }: { recent: RecentQuery[]; onLoad(query: LoadedQuery): void }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="menu" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="button">
        <History size={16} aria-hidden="true" />
        Recent
      </summary>
      <div className="popover menu-list">
        {recent.length === 0 ? <p className="muted">Queries you run appear here.</p> : null}
        {recent.length ? (
          <QueryList
            label="Recent queries"
            entries={recent.map((entry) => ({ key: `${entry.at}-${entry.apl}`, title: new Date(entry.at).toLocaleString(), apl: entry.apl, query: { apl: entry.apl, start: entry.start, end: entry.end } }))}
            onLoad={(query) => {
              setOpen(false);
              onLoad(query);
            }}
          />
        ) : null}
      </div>
    </details>
  );
}

interface QueryListEntry {
  key: string;
  /** The starred query's name, or when a recent one ran. */
  title: string;
  apl: string;
  query: LoadedQuery;
}

/** A list of queries to load back, each a button showing its title and text. */
function QueryList({ label, entries, onLoad }: { label: string; entries: QueryListEntry[]; onLoad(query: LoadedQuery): void }) {
  return (
    <ul aria-label={label}>
      {entries.map((entry) => (
        <li key={entry.key}>
          <button type="button" className="menu-item" onClick={() => onLoad(entry.query)}>
            <span className="menu-item-name">{entry.title}</span>
            <span className="mono muted menu-item-apl">{entry.apl}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
