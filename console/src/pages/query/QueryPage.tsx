// The Query page: write APL, pick a time range, run it (button or Ctrl/Cmd+Enter), cancel it,
// and read the answer as a chart, a virtualized grid and one event at a time. Everything that
// decides what is shown lives in the URL, so a copied link opens the same view elsewhere.
import { BellPlus, Braces, FileSpreadsheet, LayoutDashboard, Link2, Play, Square } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useSearchWriter } from '../../app/useSearchWriter';
import { rowCount, type TabularAnswer } from '../../api/query';
import { AplEditor } from '../../editor/AplEditor';
import { withFilter } from './apl-text';
import { EventPanel } from './EventPanel';
import { resultsAsCsv, resultsAsJson } from './export';
import { FieldToggles } from './FieldToggles';
import { CountStrip } from './charts/CountStrip';
import { isChartable, ResultChart } from './charts/ResultChart';
import { FieldFacets } from './facets/FieldFacets';
import './query.css';
import { loadRecent, rememberQuery, type RecentQuery } from './recent';
import { ResultsGrid } from './ResultsGrid';
import { type LoadedQuery, RecentMenu, StarButton, StarredMenu } from './SavedQueries';
import { handOffSearch } from './hand-off';
import { TimeRangeControl } from './TimeRangeControl';
import { type QueryState, type ResultsView, searchFromState, stateFromSearch, type TimeZoneChoice } from './url-state';
import { type RunRequest, useAplRun } from './useAplRun';

export function QueryPage() {
  const { org = '' } = useParams();
  const [search, writeSearch] = useSearchWriter();
  const urlState = useMemo(() => stateFromSearch(search), [search]);
  const [apl, setApl] = useState(urlState.apl);
  const { state: run, elapsedMs, run: start, cancel } = useAplRun();
  const [recent, setRecent] = useState<RecentQuery[]>(() => loadRecent(org));
  const [hiddenFields, setHiddenFields] = useState<Set<string>>(new Set());
  const [openRow, setOpenRow] = useState<number | undefined>();
  const [notice, setNotice] = useState('');
  const [starredVersion, setStarredVersion] = useState(0);
  const navigate = useNavigate();

  const writeUrl = useCallback(
    (next: Partial<QueryState>, replace = true) => writeSearch((current) => searchFromState({ ...stateFromSearch(current), ...next }), { replace }),
    [writeSearch],
  );

  // The URL the page last ran a query for, so writing it after a run does not run it again.
  const lastRunUrl = useRef<string | undefined>(undefined);
  const runQuery = useCallback(
    (request: RunRequest) => {
      if (!request.apl.trim()) return;
      lastRunUrl.current = runKey(request);
      setOpenRow(undefined);
      writeUrl({ apl: request.apl, start: request.start, end: request.end }, request.apl === urlState.apl);
      setRecent(rememberQuery(org, { ...request, at: Date.now() }));
      void start(request);
    },
    [org, start, writeUrl, urlState.apl],
  );

  const runCurrent = () => runQuery({ apl, start: urlState.start, end: urlState.end });

  // A link with a query runs it on load; so does a new URL (back/forward, another link).
  useEffect(() => {
    const key = runKey(urlState);
    if (!urlState.apl || lastRunUrl.current === key) return;
    lastRunUrl.current = key;
    setApl(urlState.apl);
    setOpenRow(undefined);
    setRecent(rememberQuery(org, { apl: urlState.apl, start: urlState.start, end: urlState.end, at: Date.now() }));
    void start({ apl: urlState.apl, start: urlState.start, end: urlState.end });
  }, [urlState.apl, urlState.start, urlState.end, org, start]);

  useEffect(() => setRecent(loadRecent(org)), [org]);

  const answer: TabularAnswer | undefined = run.phase === 'done' ? run.answer : undefined;
  /** What the shown answer was asked with (the editor and range may have moved on since). */
  const ran: RunRequest | undefined = run.phase === 'done' ? run.ran : undefined;
  const table = answer?.tables[0];
  const count = table ? rowCount(table) : 0;
  const dataset = answer?.datasetNames.length === 1 ? answer.datasetNames[0] : table?.sources.length === 1 ? table.sources[0]?.name : undefined;
  const chartable = answer ? isChartable(answer) : false;

  const announce = (message: string) => {
    setNotice(message);
    window.setTimeout(() => setNotice((current) => (current === message ? '' : current)), 4000);
  };

  const copy = (text: string, what: string) => {
    navigator.clipboard.writeText(text).then(
      () => announce(`${what} copied`),
      () => announce(`Could not copy ${what.toLowerCase()}: the browser refused the clipboard`),
    );
  };

  const copyLink = () => {
    const state = { ...urlState, apl };
    const url = new URL(window.location.href);
    url.search = searchFromState(state).toString();
    copy(url.toString(), 'Link');
  };

  const setRange = (range: { start: string; end: string }, rerun: boolean) => {
    writeUrl(range);
    if (rerun && apl.trim()) runQuery({ apl, ...range });
  };

  const zoom = ({ start: from, end: to }: { start: Date; end: Date }) => setRange({ start: from.toISOString(), end: to.toISOString() }, true);

  const load = (query: LoadedQuery) => {
    const next = { apl: query.apl, start: query.start ?? urlState.start, end: query.end ?? urlState.end };
    setApl(next.apl);
    runQuery(next);
  };

  const filter = (field: string, value: unknown, op: '==' | '!=') => {
    if (run.phase !== 'done') return;
    const next = withFilter(run.ran.apl, field, value, op);
    setApl(next);
    runQuery({ ...run.ran, apl: next });
  };

  const running = run.phase === 'running';
  const statusText =
    run.phase === 'running'
      ? `Running… ${Math.floor(elapsedMs / 1000)} s`
      : run.phase === 'done'
        ? `${count.toLocaleString('en-US')} ${count === 1 ? 'row' : 'rows'} in ${formatDuration(run.elapsedMs)}${run.answer.status.isPartial ? ' (partial)' : ''}`
        : run.phase === 'cancelled'
          ? 'Query cancelled'
          : '';

  return (
    <section className="query-page" aria-label="Query page">
      <h1 className="visually-hidden">Query</h1>
      <div className="toolbar query-toolbar">
        <TimeRangeControl
          start={urlState.start}
          end={urlState.end}
          timeZone={urlState.tz}
          onChange={(range) => setRange(range, run.phase === 'done')}
          onTimeZoneChange={(tz: TimeZoneChoice) => writeUrl({ tz })}
        />
        <button type="button" className="button primary" onClick={runCurrent} disabled={!apl.trim()} title="Run (Ctrl+Enter)">
          <Play size={16} aria-hidden="true" />
          Run
        </button>
        {running ? (
          <button type="button" className="button" onClick={cancel}>
            <Square size={14} aria-hidden="true" />
            Cancel
          </button>
        ) : null}
        <span className="toolbar-gap" />
        <StarButton
          apl={apl}
          start={urlState.start}
          end={urlState.end}
          onStarred={(message) => {
            announce(message);
            setStarredVersion((version) => version + 1);
          }}
        />
        <StarredMenu onLoad={load} refreshKey={starredVersion} />
        <RecentMenu recent={recent} onLoad={load} />
        <button type="button" className="button" onClick={copyLink}>
          <Link2 size={16} aria-hidden="true" />
          Copy link
        </button>
        <button type="button" className="button" disabled={!table} onClick={() => table && copy(resultsAsJson(table), 'Results as JSON')}>
          <Braces size={16} aria-hidden="true" />
          Copy JSON
        </button>
        <button type="button" className="button" disabled={!table} onClick={() => table && copy(resultsAsCsv(table), 'Results as CSV')}>
          <FileSpreadsheet size={16} aria-hidden="true" />
          Copy CSV
        </button>
        <button type="button" className="button" disabled={!apl.trim()} onClick={() => navigate(`/${encodeURIComponent(org)}/dashboards/add?${handOffSearch({ apl, start: urlState.start, end: urlState.end })}`)}>
          <LayoutDashboard size={16} aria-hidden="true" />
          Add to dashboard
        </button>
        <button type="button" className="button" disabled={!apl.trim()} onClick={() => navigate(`/${encodeURIComponent(org)}/monitors/new?${handOffSearch({ apl, start: urlState.start, end: urlState.end })}`)}>
          <BellPlus size={16} aria-hidden="true" />
          Create monitor
        </button>
      </div>

      <div className="query-editor">
        <AplEditor value={apl} onChange={setApl} onRun={runCurrent} label="Query" placeholder="['dataset'] | where status >= 500" />
      </div>

      <div className="query-status-line">
        <p role="status" className={`query-status ${running ? 'running' : ''}`}>
          {running ? <span className="spinner" aria-hidden="true" /> : null}
          {statusText}
        </p>
        <p className="muted query-notice" aria-live="polite">
          {notice}
        </p>
        {table ? (
          <div className="toolbar view-switch" role="group" aria-label="View">
            <button type="button" className="button small" aria-pressed={urlState.view === 'table'} onClick={() => writeUrl({ view: 'table' as ResultsView })}>
              Columns
            </button>
            <button type="button" className="button small" aria-pressed={urlState.view === 'events'} onClick={() => writeUrl({ view: 'events' as ResultsView })}>
              Events
            </button>
            {urlState.view === 'table' ? <FieldToggles fields={table.fields} hidden={hiddenFields} onChange={setHiddenFields} /> : null}
          </div>
        ) : null}
      </div>

      {run.phase === 'error' ? (
        <div className="error-box" role="alert">
          {run.message}
        </div>
      ) : null}

      {answer && table && ran ? (
        <div className={`query-results ${openRow !== undefined ? 'with-panel' : ''}`}>
          {!chartable ? (
            <div className="facets-column">
              <FieldFacets apl={ran.apl} start={ran.start} end={ran.end} fields={table.fields} onFilter={filter} />
            </div>
          ) : null}
          <div className="results-column">
            {chartable ? <ResultChart answer={answer} timeZone={urlState.tz} onZoom={zoom} /> : null}
            {!chartable ? <CountStrip apl={ran.apl} start={ran.start} end={ran.end} timeZone={urlState.tz} onZoom={zoom} /> : null}
            {count === 0 ? <p className="muted grid-empty">No rows in this time range.</p> : null}
            <ResultsGrid table={table} view={urlState.view} timeZone={urlState.tz} hiddenFields={hiddenFields} selectedRow={openRow} onOpen={setOpenRow} />
          </div>
          {openRow !== undefined && openRow < count ? (
            <EventPanel
              table={table}
              row={openRow}
              rowCount={count}
              dataset={dataset}
              timeZone={urlState.tz}
              onMove={(row) => setOpenRow(Math.max(0, Math.min(count - 1, row)))}
              onClose={() => setOpenRow(undefined)}
              onCopy={copy}
            />
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function runKey(request: RunRequest): string {
  return `${request.apl}\u0000${request.start}\u0000${request.end}`;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
