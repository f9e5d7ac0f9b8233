// The frame around every page of an organization: the main navigation, the organization
// switcher (same page, other organization) and the signed-in user with "Sign out".
import { Activity, BellRing, BookOpen, CircleDollarSign, Database, LayoutDashboard, LogOut, Search, Settings } from 'lucide-react';
import type { ReactNode } from 'react';
import { NavLink, useLocation, useNavigate, useParams } from 'react-router';
import { useSession, useSignedIn } from './session-context';

const PAGES = [
  { path: 'query', label: 'Query', icon: Search },
  { path: 'stream', label: 'Stream', icon: Activity },
  { path: 'dashboards', label: 'Dashboards', icon: LayoutDashboard },
  { path: 'monitors', label: 'Monitors', icon: BellRing },
  { path: 'datasets', label: 'Datasets', icon: Database },
  { path: 'llm-costs', label: 'LLM costs', icon: CircleDollarSign },
  { path: 'models', label: 'Models', icon: BookOpen },
  { path: 'settings', label: 'Settings', icon: Settings },
];

export function Shell({ children }: { children: ReactNode }) {
  const session = useSignedIn();
  const { signOut } = useSession();
  const { org } = useParams();
  const location = useLocation();
  const navigate = useNavigate();

  const switchOrganization = (next: string) => {
    // Keep the page, drop its state: queries name datasets of the organization they came from.
    const page = location.pathname.split('/')[2] ?? 'query';
    navigate(`/${encodeURIComponent(next)}/${page}`);
  };

  return (
    <div className="shell">
      <header className="shell-header">
        <span className="brand" aria-label="eventdeck">
          event<strong>deck</strong>
        </span>
        <nav aria-label="Main" className="main-nav">
          {PAGES.map(({ path, label, icon: Icon }) => (
            <NavLink key={path} to={`/${encodeURIComponent(org!)}/${path}`} className={({ isActive }) => (isActive ? 'active' : '')}>
              <Icon size={16} aria-hidden="true" />
              {label}
            </NavLink>
          ))}
        </nav>
        <div className="shell-account">
          {session.organizations.length > 1 ? (
            <label className="org-switcher">
              <span className="visually-hidden">Organization</span>
              <select aria-label="Organization" value={org} onChange={(event) => switchOrganization(event.target.value)}>
                {session.organizations.map((candidate) => (
                  <option key={candidate.id} value={candidate.id}>
                    {candidate.name}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <span className="org-name">{session.organizations[0]?.name}</span>
          )}
          <span className="user-email" title={session.user.email}>
            {session.user.name || session.user.email}
          </span>
          <button
            type="button"
            className="button ghost"
            onClick={() => {
              void signOut().then(() => navigate('/login'));
            }}
          >
            <LogOut size={16} aria-hidden="true" />
            Sign out
          </button>
        </div>
      </header>
      <main className="shell-main">{children}</main>
    </div>
  );
}
