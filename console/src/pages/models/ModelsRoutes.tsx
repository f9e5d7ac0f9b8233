// The models area: the catalog browser, comparisons and price history.
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';

export function ModelsRoutes() {
  return (
    <Routes>
      <Route
        index
        element={
          <section className="page">
            <h1>Models</h1>
          </section>
        }
      />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
