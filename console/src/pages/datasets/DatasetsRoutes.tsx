// The datasets area: datasets, their fields, virtual and map fields, views, upload and "Send data".
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';

export function DatasetsRoutes() {
  return (
    <Routes>
      <Route
        index
        element={
          <section className="page">
            <h1>Datasets</h1>
          </section>
        }
      />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
