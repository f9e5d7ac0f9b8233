// The settings area: the user's profile, tokens and sessions, and the organization's users, roles, groups and API tokens.
import { Navigate, NavLink, Route, Routes, useParams } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';
import { ApiTokensPage } from './ApiTokensPage';
import { GroupsPage } from './GroupsPage';
import { OrganizationsPage } from './OrganizationsPage';
import { PersonalTokensPage } from './PersonalTokensPage';
import { ProfilePage } from './ProfilePage';
import { RolesPage } from './RolesPage';
import { SessionsPage } from './SessionsPage';
import './settings.css';
import { UsersPage } from './UsersPage';

const YOURS = [
  { path: 'profile', label: 'Profile' },
  { path: 'tokens', label: 'Tokens' },
  { path: 'sessions', label: 'Sessions' },
];
const ORGANIZATION = [
  { path: 'users', label: 'Users' },
  { path: 'roles', label: 'Roles' },
  { path: 'groups', label: 'Groups' },
  { path: 'api-tokens', label: 'API tokens' },
  { path: 'organizations', label: 'Organizations' },
];

/** Links spelled from the organization, as relative links inside a splat route would nest. */
function Links({ items }: { items: { path: string; label: string }[] }) {
  const { org } = useParams();
  return (
    <ul>
      {items.map((item) => (
        <li key={item.path}>
          <NavLink to={`/${encodeURIComponent(org!)}/settings/${item.path}`} className={({ isActive }) => (isActive ? 'active' : '')}>
            {item.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

export function SettingsRoutes() {
  const { org } = useParams();
  return (
    <div className="settings-layout">
      <nav aria-label="Settings" className="settings-nav">
        <p className="settings-nav-heading">You</p>
        <Links items={YOURS} />
        <p className="settings-nav-heading">Organization</p>
        <Links items={ORGANIZATION} />
      </nav>
      <div className="settings-content page">
        <Routes>
          <Route index element={<Navigate to={`/${encodeURIComponent(org!)}/settings/profile`} replace />} />
          <Route path="profile" element={<ProfilePage />} />
          <Route path="tokens" element={<PersonalTokensPage />} />
          <Route path="sessions" element={<SessionsPage />} />
          <Route path="users" element={<UsersPage />} />
          <Route path="roles" element={<RolesPage />} />
          <Route path="groups" element={<GroupsPage />} />
          <Route path="api-tokens" element={<ApiTokensPage />} />
          <Route path="organizations" element={<OrganizationsPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </div>
    </div>
  );
}
