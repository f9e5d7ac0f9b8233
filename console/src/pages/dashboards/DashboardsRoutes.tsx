// The dashboards area: the list, "Add to dashboard" from the Query page, and one dashboard
// (viewed, or edited with `?edit=1`).
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';
import { AddToDashboardPage } from './AddToDashboardPage';
import { DashboardListPage } from './DashboardListPage';
import { DashboardPage } from './DashboardPage';

export function DashboardsRoutes() {
  return (
    <Routes>
      <Route index element={<DashboardListPage />} />
      <Route path="add" element={<AddToDashboardPage />} />
      <Route path=":uid" element={<DashboardPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
