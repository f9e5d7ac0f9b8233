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
// charts, and the sign-in page waits for neither.
const QueryPage = lazy(() => import('../pages/query/QueryPage').then((module) => ({ default: module.QueryPage })));
const StreamPage = lazy(() => import('../pages/stream/StreamPage').then((module) => ({ default: module.StreamPage })));
// Each area of part two owns its own routes below its path (see its *Routes component).
const DashboardsRoutes = lazy(() => import('../pages/dashboards/DashboardsRoutes').then((module) => ({ default: module.DashboardsRoutes })));
const MonitorsRoutes = lazy(() => import('../pages/monitors/MonitorsRoutes').then((module) => ({ default: module.MonitorsRoutes })));
const DatasetsRoutes = lazy(() => import('../pages/datasets/DatasetsRoutes').then((module) => ({ default: module.DatasetsRoutes })));
const SettingsRoutes = lazy(() => import('../pages/settings/SettingsRoutes').then((module) => ({ default: module.SettingsRoutes })));
const TracesRoutes = lazy(() => import('../pages/traces/TracesRoutes').then((module) => ({ default: module.TracesRoutes })));
const LlmCostsRoutes = lazy(() => import('../pages/llm-costs/LlmCostsRoutes').then((module) => ({ default: module.LlmCostsRoutes })));
const ModelsRoutes = lazy(() => import('../pages/models/ModelsRoutes').then((module) => ({ default: module.ModelsRoutes })));

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
