// The monitors area: monitors with their state, their editor and status pages, and notifiers.
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';
import { MonitorEditorPage } from './MonitorEditorPage';
import { MonitorsListPage } from './MonitorsListPage';
import { MonitorStatusPage } from './MonitorStatusPage';
import { NotifiersPage } from './NotifiersPage';
import './monitors.css';

export function MonitorsRoutes() {
  return (
    <Routes>
      <Route index element={<MonitorsListPage />} />
      <Route path="new" element={<MonitorEditorPage />} />
      <Route path="notifiers" element={<NotifiersPage />} />
      <Route path=":id" element={<MonitorStatusPage />} />
      <Route path=":id/edit" element={<MonitorEditorPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
