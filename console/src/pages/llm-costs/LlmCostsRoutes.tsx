// The LLM costs area: what GenAI traffic costs, priced from the model catalog.
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';
import { LlmCostsPage } from './LlmCostsPage';

export function LlmCostsRoutes() {
  return (
    <Routes>
      <Route index element={<LlmCostsPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
