// A monitor list: the monitors the chart selects (by id), with their type and whether they run.
import { useEffect, useState } from 'react';
import { listMonitorSummaries, type MonitorSummary } from '../../../api/dashboards';
import type { PanelProps } from './panel-types';

export function MonitorListPanel({ chart }: PanelProps) {
  const selected = Array.isArray(chart.selectedMonitors) ? (chart.selectedMonitors as unknown[]).filter((id): id is string => typeof id === 'string') : [];
  const [monitors, setMonitors] = useState<MonitorSummary[] | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    listMonitorSummaries().then(
      (all) => live && setMonitors(all),
      (error: unknown) => live && setProblem(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      live = false;
    };
  }, []);
  if (problem) return <p className="error-box">{problem}</p>;
  if (!monitors) return <p className="muted">Loading monitors…</p>;
  const byId = new Map(monitors.map((monitor) => [monitor.id, monitor]));
  return (
    <ul className="dashboard-monitors" aria-label={chart.name ?? 'Monitors'}>
      {selected.map((id) => {
        const monitor = byId.get(id);
        return (
          <li key={id}>
            {monitor ? (
              <>
                <strong>{monitor.name}</strong> <span className="muted">{monitor.type}</span> <span>{monitor.disabled ? 'Disabled' : 'Running'}</span>
              </>
            ) : (
              <span className="muted">Monitor {id} (not found)</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
