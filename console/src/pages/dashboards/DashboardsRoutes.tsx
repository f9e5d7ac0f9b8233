// The dashboards area: the list, one dashboard, its editor.
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';

export function DashboardsRoutes() {
  return (
    <Routes>
      <Route
        index
        element={
          <section className="page">
            <h1>Dashboards</h1>
          </section>
        }
      />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
