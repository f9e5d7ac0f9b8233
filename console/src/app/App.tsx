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
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </SessionProvider>
    </BrowserRouter>
  );
}
