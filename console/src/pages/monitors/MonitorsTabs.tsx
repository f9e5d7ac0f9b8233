// The two halves of alerting, side by side: monitors (what to watch) and notifiers (where to say it).
import { NavLink, useParams } from 'react-router';

export function MonitorsTabs() {
  const { org = '' } = useParams();
  const base = `/${encodeURIComponent(org)}/monitors`;
  return (
    <nav className="monitors-tabs" aria-label="Alerting">
      <NavLink to={base} end>
        Monitors
      </NavLink>
      <NavLink to={`${base}/notifiers`}>Notifiers</NavLink>
    </nav>
  );
}
