// The models area: the catalog browser, comparisons and one page per model (ids keep their
// slashes, so a model's page is whatever path is left after /models/).
import { Route, Routes, useParams } from 'react-router';
import { ComparePage } from './ComparePage';
import { ModelPage } from './ModelPage';
import { ModelsListPage } from './ModelsListPage';
import './models.css';

function ModelPageOfPath() {
  const { '*': id = '' } = useParams();
  return <ModelPage key={id} id={id} />;
}

export function ModelsRoutes() {
  return (
    <Routes>
      <Route index element={<ModelsListPage />} />
      <Route path="compare" element={<ComparePage />} />
      <Route path="*" element={<ModelPageOfPath />} />
    </Routes>
  );
}
