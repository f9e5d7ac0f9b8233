// The LLM costs area: what GenAI traffic costs, priced from the model catalog.
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage';

export function LlmCostsRoutes() {
  return (
    <Routes>
      <Route
        index
        element={
          <section className="page">
            <h1>LLM costs</h1>
          </section>
        }
      />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
