// Route guards: pages need a session (else the sign-in page, coming back afterwards), and the
// organization in the URL must be one of the user's (its id goes on every API request).
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { configureApi } from '../api/client';
import { NotFoundPage } from '../pages/NotFoundPage';
import { Shell } from './Shell';
import { useSession, useSignedIn } from './session-context';

export function RequireSession() {
  const { session } = useSession();
  const location = useLocation();
  if (session === undefined) return <div className="page-loading" role="status">Loading…</div>;
  if (session === null) {
    const next = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={`/login?next=${encodeURIComponent(next)}`} replace />;
  }
  return <Outlet />;
}

const LAST_ORG_KEY = 'eventdeck.lastOrg';

/** `/app/` goes to the organization used last, or the first one. */
export function HomeRedirect() {
  const session = useSignedIn();
  const remembered = localStorage.getItem(LAST_ORG_KEY);
  const org = session.organizations.find((candidate) => candidate.id === remembered) ?? session.organizations[0];
  if (!org) return <NoOrganization />;
  return <Navigate to={`/${encodeURIComponent(org.id)}/query`} replace />;
}

function NoOrganization() {
  return (
    <main className="centered-page">
      <h1>No organization</h1>
      <p>Your account does not belong to any organization yet. Ask an administrator to invite you.</p>
    </main>
  );
}

export function OrgLayout() {
  const session = useSignedIn();
  const { org } = useParams();
  const known = session.organizations.some((candidate) => candidate.id === org);
  // Set before children render, so their first requests already name the organization.
  if (known) configureApi({ orgId: org });
  useEffect(() => {
    if (known && org) localStorage.setItem(LAST_ORG_KEY, org);
  }, [known, org]);
  if (!known) return <NotFoundPage message={`You are not a member of organization "${org}".`} />;
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}
