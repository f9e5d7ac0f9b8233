// A monitor's status page: what it watches, its state now (open alerts per group, last and next
// run, last error), its recent runs and the alert transitions of a chosen period grouped by
// alert; and editing, disabling (or enabling) and deleting it.
import { Pencil, Power, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { deleteMonitor, getMonitor, getMonitorHistory, getMonitorStatus, type HistoryEntry, inputOf, listNotifiers, type Monitor, updateMonitor } from '../../api/monitors';
import { everyText, relativeTime, TYPE_LABELS, wallTime } from './format';
import { OPERATOR_WORDS } from './monitor-form';
import { RunStrip } from './RunStrip';
import { messageOf, useLoad } from './use-load';

const PERIODS = [
  { label: 'Last hour', ms: 3_600_000 },
  { label: 'Last 24 hours', ms: 86_400_000 },
  { label: 'Last 7 days', ms: 7 * 86_400_000 },
  { label: 'Last 30 days', ms: 30 * 86_400_000 },
];

export function MonitorStatusPage() {
  const { org = '', id = '' } = useParams();
  const base = `/${encodeURIComponent(org)}/monitors`;
  const navigate = useNavigate();
  const [periodMs, setPeriodMs] = useState(PERIODS[1]!.ms);
  const [round, setRound] = useState(0);
  const [problem, setProblem] = useState<string | undefined>();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [busy, setBusy] = useState(false);
  const monitor = useLoad((signal) => getMonitor(id, signal), [id, round]);
  const status = useLoad((signal) => getMonitorStatus(id, signal), [id, round]);
  const history = useLoad((signal) => {
    const now = Date.now();
    // Up to an hour ahead: the server's clock may run ahead of this browser's.
    return getMonitorHistory(id, new Date(now - periodMs), new Date(now + 3_600_000), signal);
  }, [id, periodMs, round]);
  const notifiers = useLoad((signal) => listNotifiers(signal), []);

  if (monitor.error && !monitor.data) {
    return (
      <section className="page">
        <h1>Monitor</h1>
        <p className="error-box" role="alert">{monitor.error}</p>
        <Link to={base}>Back to monitors</Link>
      </section>
    );
  }
  if (!monitor.data) return <div className="page-loading" role="status">Loading…</div>;
  const m = monitor.data;
  const disabled = m.disabled;

  const toggle = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      await updateMonitor(m.id, { ...inputOf(m), disabled: !disabled });
      setRound((n) => n + 1);
    } catch (caught) {
      setProblem(messageOf(caught));
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    try {
      await deleteMonitor(m.id);
      navigate(base);
    } catch (caught) {
      setProblem(messageOf(caught));
      setBusy(false);
    }
  };

  const notifierNames = m.notifierIds.map((notifierId) => notifiers.data?.find((notifier) => notifier.id === notifierId)?.name ?? notifierId);

  return (
    <section className="page monitor-status-page">
      <header className="page-header">
        <h1>{m.name}</h1>
        <span className={`monitor-state state-${disabled ? 'muted' : status.data?.state === 'open' ? 'alerting' : 'ok'}`}>
          {disabled ? 'Disabled' : status.data?.state === 'open' ? 'Alerting' : 'OK'}
        </span>
        <div className="toolbar">
          <Link className="button" to={`${base}/${encodeURIComponent(m.id)}/edit`}>
            <Pencil size={16} aria-hidden="true" />
            Edit
          </Link>
          <button type="button" className="button" onClick={toggle} disabled={busy}>
            <Power size={16} aria-hidden="true" />
            {disabled ? 'Enable' : 'Disable'}
          </button>
          {confirmDelete ? (
            <button type="button" className="button danger" onClick={remove} disabled={busy}>
              <Trash2 size={16} aria-hidden="true" />
              Confirm delete
            </button>
          ) : (
            <button type="button" className="button" onClick={() => setConfirmDelete(true)}>
              <Trash2 size={16} aria-hidden="true" />
              Delete
            </button>
          )}
        </div>
      </header>
      <p>
        <Link to={base}>All monitors</Link>
      </p>
      {problem ? <p className="error-box" role="alert">{problem}</p> : null}

      <div className="status-grid">
        <section aria-labelledby="definition-title" className="panel">
          <h2 id="definition-title">Definition</h2>
          {m.description ? <p>{m.description}</p> : null}
          <dl className="facts">
            <dt>Kind</dt>
            <dd>{TYPE_LABELS[m.type] ?? m.type}</dd>
            <dt>Fires when</dt>
            <dd>{conditionText(m)}</dd>
            <dt>Schedule</dt>
            <dd>
              {everyText(m.intervalMinutes)}, over the last {m.rangeMinutes} min{m.secondDelay ? `, ${m.secondDelay} s late` : ''}
              {m.disabledUntil ? `, paused until ${wallTime(m.disabledUntil)}` : ''}
            </dd>
            <dt>Notifiers</dt>
            <dd>{notifierNames.length > 0 ? notifierNames.join(', ') : 'none'}</dd>
          </dl>
          <pre className="monitor-apl">{m.aplQuery}</pre>
        </section>
        <section aria-labelledby="state-title" className="panel">
          <h2 id="state-title">Status</h2>
          {status.error ? <p className="error-box">{status.error}</p> : null}
          {status.data ? (
            <dl className="facts">
              <dt>Last run</dt>
              <dd>
                {wallTime(status.data.lastRunAt)} <span className="muted">({relativeTime(status.data.lastRunAt)})</span>
              </dd>
              <dt>Took</dt>
              <dd>{status.data.lastDurationMs !== null ? `${status.data.lastDurationMs} ms` : '—'}</dd>
              <dt>Next run</dt>
              <dd>{disabled ? '—' : wallTime(status.data.nextRunAt)}</dd>
              <dt>Last error</dt>
              <dd className={status.data.lastError ? 'monitor-error' : undefined}>{status.data.lastError ?? 'none'}</dd>
            </dl>
          ) : null}
        </section>
      </div>

      <section aria-labelledby="open-title">
        <h2 id="open-title">Open alerts</h2>
        {status.data && status.data.openAlerts.length === 0 ? <p className="muted">No alert is open.</p> : null}
        {status.data && status.data.openAlerts.length > 0 ? (
          <table className="alerts-table" aria-labelledby="open-title">
            <thead>
              <tr>
                <th scope="col">Alert</th>
                <th scope="col">Group</th>
                <th scope="col">Open since</th>
              </tr>
            </thead>
            <tbody>
              {status.data.openAlerts.map((alert) => (
                <tr key={alert.name}>
                  <td>{alert.name}</td>
                  <td className="mono">{alert.groupKeys ? alert.groupKeys.map((key, i) => `${key}=${JSON.stringify(alert.groupValues?.[i] ?? null)}`).join(', ') : '—'}</td>
                  <td>{wallTime(alert.since)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>

      <section aria-labelledby="history-title">
        <div className="toolbar">
          <h2 id="history-title">Run history</h2>
          <label className="inline-label">
            Period
            <select value={periodMs} onChange={(event) => setPeriodMs(Number(event.target.value))}>
              {PERIODS.map((period) => (
                <option key={period.ms} value={period.ms}>
                  {period.label}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="button small" onClick={() => setRound((n) => n + 1)}>
            Refresh
          </button>
        </div>
        {status.data ? (
          <RunStrip
            count={60}
            input={{ intervalMinutes: m.intervalMinutes, createdAt: m.createdAt, lastRunAt: status.data.lastRunAt, lastError: status.data.lastError, history: history.data ?? [] }}
          />
        ) : null}
        {history.error ? <p className="error-box">{history.error}</p> : null}
        {history.data ? <AlertsByGroup history={history.data} /> : null}
        {history.data && history.data.length === 0 ? <p className="muted">No alert opened or closed in this period.</p> : null}
        {history.data && history.data.length > 0 ? (
          <table className="history-table" aria-label="Alert transitions">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Alert</th>
                <th scope="col">Change</th>
                <th scope="col">Run</th>
              </tr>
            </thead>
            <tbody>
              {[...history.data].reverse().map((entry, index) => (
                <tr key={`${entry.checkId}-${entry.name}-${index}`} data-state={entry.state}>
                  <td>{wallTime(entry.timestamp)}</td>
                  <td>{entry.name}</td>
                  <td>
                    <span className={`transition transition-${entry.state}`}>{entry.state === 'open' ? 'opened' : 'closed'}</span>
                  </td>
                  <td className="mono muted">{entry.checkId}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
    </section>
  );
}

function conditionText(m: Monitor): string {
  if (m.type === 'MatchEvent') return `an event matches${m.resolvable ? ' (each its own incident)' : ''}`;
  const column = m.columnName ? `${m.columnName}` : 'a value';
  const trigger = m.triggerFromNRuns > 1 || m.triggerAfterNPositiveResults > 1 ? `, in ${m.triggerAfterNPositiveResults} of ${m.triggerFromNRuns} runs` : '';
  const group = m.notifyByGroup ? ', per group' : '';
  if (m.type === 'Threshold') return `${column} is ${OPERATOR_WORDS[m.operator ?? 'Above']} ${m.threshold ?? 0}${trigger}${group}`;
  const compare = m.compareDays ? `${m.compareDays} day${m.compareDays === 1 ? '' : 's'} earlier` : 'the window before';
  return `${column} is ${OPERATOR_WORDS[m.operator ?? 'AboveOrBelow']} ${m.tolerance ?? 10}% of ${compare}${trigger}${group}`;
}

/** Per alert (the monitor, or one of its groups): how often it opened in the period and where it stands. */
function AlertsByGroup({ history }: { history: HistoryEntry[] }) {
  const byName = new Map<string, { opened: number; last: HistoryEntry }>();
  for (const entry of history) {
    const current = byName.get(entry.name) ?? { opened: 0, last: entry };
    byName.set(entry.name, { opened: current.opened + (entry.state === 'open' ? 1 : 0), last: entry });
  }
  if (byName.size === 0) return null;
  return (
    <table className="groups-table" aria-label="Alerts per group">
      <thead>
        <tr>
          <th scope="col">Alert</th>
          <th scope="col">Opened</th>
          <th scope="col">Now</th>
          <th scope="col">Last change</th>
        </tr>
      </thead>
      <tbody>
        {[...byName].map(([name, summary]) => (
          <tr key={name}>
            <td>{name}</td>
            <td>{summary.opened}×</td>
            <td>{summary.last.state}</td>
            <td>{wallTime(summary.last.timestamp)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
