// The monitors area: monitors with their state, their editor and status pages, and notifiers.
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';

export function MonitorsRoutes() {
  return (
    <Routes>
      <Route
        index
        element={
          <section className="page">
            <h1>Monitors</h1>
          </section>
        }
      />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
