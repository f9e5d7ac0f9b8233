// The console's routes. Every page but sign-in lives under an organization named in the URL
// (/app/<org>/query), so a link shows a colleague the same thing in the same organization.
import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { AcceptLinkPage } from '../pages/AcceptLinkPage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { SignInPage } from '../pages/SignInPage';
import { OrgLayout, RequireSession, HomeRedirect } from './guards';
import { SessionProvider } from './session-context';

// Each page is its own chunk: a link to the Stream page does not wait for the query editor and
// charts, and the sign-in page waits for neither. Each area of part two owns its own routes below
// its path (see its *Routes component).
const PAGE_CHUNKS = {
  query: () => import('../pages/query/QueryPage').then((module) => ({ default: module.QueryPage })),
  stream: () => import('../pages/stream/StreamPage').then((module) => ({ default: module.StreamPage })),
  dashboards: () => import('../pages/dashboards/DashboardsRoutes').then((module) => ({ default: module.DashboardsRoutes })),
  monitors: () => import('../pages/monitors/MonitorsRoutes').then((module) => ({ default: module.MonitorsRoutes })),
  datasets: () => import('../pages/datasets/DatasetsRoutes').then((module) => ({ default: module.DatasetsRoutes })),
  settings: () => import('../pages/settings/SettingsRoutes').then((module) => ({ default: module.SettingsRoutes })),
  traces: () => import('../pages/traces/TracesRoutes').then((module) => ({ default: module.TracesRoutes })),
  'llm-costs': () => import('../pages/llm-costs/LlmCostsRoutes').then((module) => ({ default: module.LlmCostsRoutes })),
  models: () => import('../pages/models/ModelsRoutes').then((module) => ({ default: module.ModelsRoutes })),
};

// The page the address names starts loading now, beside the session request, rather than once
// the session is known (a cold link to a trace or a dashboard waits for one of them, not both).
const addressedPage = window.location.pathname.split('/')[3] as keyof typeof PAGE_CHUNKS | undefined;
if (addressedPage && Object.hasOwn(PAGE_CHUNKS, addressedPage)) void PAGE_CHUNKS[addressedPage]().catch(() => undefined);

const QueryPage = lazy(PAGE_CHUNKS.query);
const StreamPage = lazy(PAGE_CHUNKS.stream);
const DashboardsRoutes = lazy(PAGE_CHUNKS.dashboards);
const MonitorsRoutes = lazy(PAGE_CHUNKS.monitors);
const DatasetsRoutes = lazy(PAGE_CHUNKS.datasets);
const SettingsRoutes = lazy(PAGE_CHUNKS.settings);
const TracesRoutes = lazy(PAGE_CHUNKS.traces);
const LlmCostsRoutes = lazy(PAGE_CHUNKS['llm-costs']);
const ModelsRoutes = lazy(PAGE_CHUNKS.models);

const loading = (
  <div className="page-loading" role="status">
    Loading…
  </div>
);

export function App() {
  return (
    <BrowserRouter basename="/app">
      <SessionProvider>
        <Routes>
          <Route path="/login" element={<SignInPage />} />
          <Route path="/accept" element={<AcceptLinkPage />} />
          <Route element={<RequireSession />}>
            <Route index element={<HomeRedirect />} />
            <Route path=":org" element={<OrgLayout />}>
              <Route index element={<Navigate to="query" replace />} />
              <Route path="query" element={<Suspense fallback={loading}><QueryPage /></Suspense>} />
              <Route path="stream" element={<Suspense fallback={loading}><StreamPage /></Suspense>} />
              <Route path="dashboards/*" element={<Suspense fallback={loading}><DashboardsRoutes /></Suspense>} />
              <Route path="monitors/*" element={<Suspense fallback={loading}><MonitorsRoutes /></Suspense>} />
              <Route path="datasets/*" element={<Suspense fallback={loading}><DatasetsRoutes /></Suspense>} />
              <Route path="settings/*" element={<Suspense fallback={loading}><SettingsRoutes /></Suspense>} />
              <Route path="traces/*" element={<Suspense fallback={loading}><TracesRoutes /></Suspense>} />
              <Route path="llm-costs/*" element={<Suspense fallback={loading}><LlmCostsRoutes /></Suspense>} />
              <Route path="models/*" element={<Suspense fallback={loading}><ModelsRoutes /></Suspense>} />
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </SessionProvider>
    </BrowserRouter>
  );
}
