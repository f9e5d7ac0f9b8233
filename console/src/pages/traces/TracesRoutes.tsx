// The traces area: a trace id lookup, and one trace's waterfall at /traces/<trace id>.
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';
import { TraceLookupPage } from './TraceLookupPage';
import { TracePage } from './TracePage';

export function TracesRoutes() {
  return (
    <Routes>
      <Route index element={<TraceLookupPage />} />
      <Route path=":traceId" element={<TracePage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
