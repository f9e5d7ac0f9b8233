// Where the Query page's "Add to dashboard" leads (`add?apl=…&start=…&end=…`): pick an existing
// dashboard or name a new one, give the chart a title and type, and the query is added as a chart
// (a new dashboard takes the query's time range); the dashboard then opens in edit mode.
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { createDashboard, type DashboardResource, getDashboard, listDashboards, saveDashboard } from '../../api/dashboards';
import { handedQuery } from '../query/hand-off';
import { CHART_KINDS, EVERYONE, freshChartId, newDocument, withChart } from './document';
import { storedBound } from './time-window';
import './dashboards.css';

const NEW = '';
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Summaries over time bins draw as time series; anything else starts as a table. */
function suggestedType(apl: string): string {
  if (/\bhistogram\s*\(/.test(apl) && /\bbin(_auto)?\s*\(\s*_time/.test(apl)) return 'Heatmap';
  if (/\bbin(_auto)?\s*\(\s*_time/.test(apl)) return 'TimeSeries';
  if (/\|\s*(summarize|count)\b/.test(apl)) return 'Table';
  return 'LogStream';
}

export function AddToDashboardPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const query = handedQuery(search);
  const [dashboards, setDashboards] = useState<DashboardResource[] | undefined>();
  const [target, setTarget] = useState(NEW);
  const [newName, setNewName] = useState('');
  const [title, setTitle] = useState('');
  const [type, setType] = useState(() => (query ? suggestedType(query.apl) : 'TimeSeries'));
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    listDashboards().then(
      (list) => {
        setDashboards(list);
        if (list.length > 0) setTarget(list[list.length - 1]!.uid);
      },
      (error: unknown) => setProblem(messageOf(error)),
    );
  }, []);

  if (!query) {
    return (
      <section className="page">
        <h1>Add to dashboard</h1>
        <p className="muted">No query was handed over. Use “Add to dashboard” on the Query page.</p>
      </section>
    );
  }

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      let uid: string;
      if (target === NEW) {
        const document = newDocument(newName.trim(), EVERYONE, { start: storedBound(query.start), end: storedBound(query.end) });
        const chart = { id: freshChartId(document), type, ...(title.trim() ? { name: title.trim() } : {}), query: { apl: query.apl } };
        uid = (await createDashboard(withChart(document, chart))).uid;
      } else {
        // The stored version, so the chart lands on what is there now.
        const current = await getDashboard(target);
        const chart = { id: freshChartId(current.dashboard), type, ...(title.trim() ? { name: title.trim() } : {}), query: { apl: query.apl } };
        uid = (await saveDashboard(target, withChart(current.dashboard, chart), current.version)).uid;
      }
      navigate(`../${encodeURIComponent(uid)}?edit=1`);
    } catch (error) {
      setProblem(messageOf(error));
      setBusy(false);
    }
  };

  return (
    <section className="page">
      <h1>Add to dashboard</h1>
      <pre className="dashboard-handed-query mono" aria-label="Query to add">
        {query.apl}
      </pre>
      <p className="muted">
        Time range {query.start} → {query.end}
      </p>
      <form className="form-stack dashboard-add-form" onSubmit={submit}>
        <label>
          Dashboard
          <select value={target} onChange={(event) => setTarget(event.target.value)} disabled={!dashboards}>
            <option value={NEW}>A new dashboard…</option>
            {(dashboards ?? []).map((dashboard) => (
              <option key={dashboard.uid} value={dashboard.uid}>
                {dashboard.dashboard.name}
              </option>
            ))}
          </select>
        </label>
        {target === NEW ? (
          <label>
            New dashboard name
            <input value={newName} onChange={(event) => setNewName(event.target.value)} maxLength={100} required />
          </label>
        ) : null}
        <label>
          Chart title
          <input value={title} onChange={(event) => setTitle(event.target.value)} maxLength={500} />
        </label>
        <label>
          Chart type
          <select value={type} onChange={(event) => setType(event.target.value)}>
            {CHART_KINDS.filter((kind) => kind.query).map((kind) => (
              <option key={kind.type} value={kind.type}>
                {kind.label}
              </option>
            ))}
          </select>
        </label>
        {problem ? (
          <p className="error-box" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="toolbar">
          <button type="submit" className="button primary" disabled={busy}>
            Add chart
          </button>
        </div>
      </form>
    </section>
  );
}
