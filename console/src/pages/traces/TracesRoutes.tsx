// The traces area: one trace's waterfall, opened from a trace id.
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';

export function TracesRoutes() {
  return (
    <Routes>
      <Route
        index
        element={
          <section className="page">
            <h1>Trace</h1>
          </section>
        }
      />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
