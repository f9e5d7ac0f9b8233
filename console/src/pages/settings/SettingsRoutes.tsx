// The settings area: the user's profile, tokens and sessions, and the organization's users, roles, groups and API tokens.
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';

export function SettingsRoutes() {
  return (
    <Routes>
      <Route
        index
        element={
          <section className="page">
            <h1>Settings</h1>
          </section>
        }
      />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
