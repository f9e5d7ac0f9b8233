// The datasets area: the list (/datasets) and one dataset with its tabs (/datasets/:name/*):
// fields, virtual and map fields, views, upload and "Send data".
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';
import { DatasetPage } from './DatasetPage';
import { DatasetListPage } from './list/DatasetListPage';

export function DatasetsRoutes() {
  return (
    <Routes>
      <Route index element={<DatasetListPage />} />
      <Route path=":name/*" element={<DatasetPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
