// The list of monitors: each with its type, schedule, state (open alerts, last run, last error)
// and a strip of its recent runs; links to its status page, and "New monitor".
import { BellPlus } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { listMonitorOverviews, type MonitorOverview } from '../../api/monitors';
import { everyText, relativeTime, TYPE_LABELS, wallTime } from './format';
import { MonitorsTabs } from './MonitorsTabs';
import { RunStrip } from './RunStrip';
import { useLoad } from './use-load';

/** How far back the strips look: enough for 30 runs of an hourly monitor. */
const HISTORY_DAYS = 2;

export function MonitorsListPage() {
  const { org = '' } = useParams();
  const base = `/${encodeURIComponent(org)}/monitors`;
  const monitors = useLoad((signal) => {
    const now = new Date();
    // Up to an hour ahead: the server's clock may run ahead of this browser's.
    return listMonitorOverviews(new Date(now.getTime() - HISTORY_DAYS * 86_400_000), new Date(now.getTime() + 3_600_000), signal);
  }, []);

  return (
    <section className="page monitors-page">
      <header className="page-header">
        <h1>Monitors</h1>
        <div className="toolbar">
          <button type="button" className="button" onClick={monitors.reload}>
            Refresh
          </button>
          <Link className="button primary" to={`${base}/new`}>
            <BellPlus size={16} aria-hidden="true" />
            New monitor
          </Link>
        </div>
      </header>
      <MonitorsTabs />
      {monitors.error ? <p className="error-box" role="alert">{monitors.error}</p> : null}
      {monitors.data && monitors.data.length === 0 ? (
        <p className="muted">No monitors yet. Create one here, or from a query on the Query page ("Create monitor").</p>
      ) : null}
      {monitors.data && monitors.data.length > 0 ? (
        <table className="monitors-table">
          <caption className="visually-hidden">Monitors with their state and recent runs</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">State</th>
              <th scope="col">Last run</th>
              <th scope="col">Recent runs</th>
            </tr>
          </thead>
          <tbody>
            {monitors.data.map((monitor) => (
              <MonitorRow key={monitor.monitorId} monitor={monitor} base={base} />
            ))}
          </tbody>
        </table>
      ) : null}
      {monitors.loading && !monitors.data ? <p className="muted" role="status">Loading monitors…</p> : null}
    </section>
  );
}

function stateText(monitor: MonitorOverview): { text: string; tone: string } {
  if (monitor.disabled) return { text: 'Disabled', tone: 'muted' };
  if (monitor.disabledUntil && new Date(monitor.disabledUntil).getTime() > Date.now()) return { text: `Paused until ${wallTime(monitor.disabledUntil)}`, tone: 'muted' };
  const open = monitor.status.openAlerts.length;
  if (open > 0) return { text: `${open} open alert${open === 1 ? '' : 's'}`, tone: 'alerting' };
  return { text: 'OK', tone: 'ok' };
}

function MonitorRow({ monitor, base }: { monitor: MonitorOverview; base: string }) {
  const state = stateText(monitor);
  return (
    <tr data-monitor-id={monitor.monitorId}>
      <th scope="row">
        <Link to={`${base}/${encodeURIComponent(monitor.monitorId)}`}>{monitor.name}</Link>
        {monitor.description ? <div className="muted monitor-description">{monitor.description}</div> : null}
      </th>
      <td>
        {TYPE_LABELS[monitor.type] ?? monitor.type}
        <div className="muted">{everyText(monitor.intervalMinutes)}</div>
      </td>
      <td>
        <span className={`monitor-state state-${state.tone}`}>{state.text}</span>
        {monitor.status.openAlerts.length > 0 ? (
          <ul className="open-alerts-inline">
            {monitor.status.openAlerts.slice(0, 3).map((alert) => (
              <li key={alert.name}>{alert.name}</li>
            ))}
          </ul>
        ) : null}
        {monitor.status.lastError ? <div className="monitor-error">{monitor.status.lastError}</div> : null}
      </td>
      <td>
        <span title={wallTime(monitor.status.lastRunAt)}>{relativeTime(monitor.status.lastRunAt)}</span>
        {monitor.status.nextRunAt && !monitor.disabled ? <div className="muted">next {relativeTime(monitor.status.nextRunAt)}</div> : null}
      </td>
      <td>
        <RunStrip
          input={{
            intervalMinutes: monitor.intervalMinutes,
            createdAt: monitor.createdAt,
            lastRunAt: monitor.status.lastRunAt,
            lastError: monitor.status.lastError,
            history: monitor.history,
          }}
        />
      </td>
    </tr>
  );
}
