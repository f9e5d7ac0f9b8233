// The console's routes. Every page but sign-in lives under an organization named in the URL
// (/app/<org>/query), so a link shows a colleague the same thing in the same organization.
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { AcceptLinkPage } from '../pages/AcceptLinkPage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { QueryPage } from '../pages/query/QueryPage';
import { SignInPage } from '../pages/SignInPage';
import { StreamPage } from '../pages/stream/StreamPage';
import { OrgLayout, RequireSession, HomeRedirect } from './guards';
import { SessionProvider } from './session-context';

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
              <Route path="query" element={<QueryPage />} />
              <Route path="stream" element={<StreamPage />} />
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </SessionProvider>
    </BrowserRouter>
  );
}
