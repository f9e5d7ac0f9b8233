// Holds the signed-in session for the whole console: loads it once, keeps the API client's CSRF
// token in step with it, and sends people back to the sign-in page when it goes away.
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ApiError, configureApi, onUnauthenticated } from '../api/client';
import { fetchSession, type Session, signOut as endSession } from '../api/session';

interface SessionState {
  /** undefined while loading, null when nobody is signed in. */
  session: Session | null | undefined;
  /** Replaces the session after a sign-in, a password change or an accepted link. */
  establish(session: Session): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null | undefined>(undefined);

  const establish = useCallback((next: Session) => {
    configureApi({ csrfToken: next.csrfToken });
    setSession(next);
  }, []);

  useEffect(() => {
    let live = true;
    fetchSession().then(
      (loaded) => live && establish(loaded),
      (error: unknown) => {
        if (!live) return;
        if (!(error instanceof ApiError) || error.status !== 401) console.warn('could not load the session', error);
        setSession(null);
      },
    );
    const stop = onUnauthenticated(() => setSession(null));
    return () => {
      live = false;
      stop();
    };
  }, [establish]);

  const signOut = useCallback(async () => {
    try {
      await endSession();
    } finally {
      configureApi({ csrfToken: undefined, orgId: undefined });
      setSession(null);
    }
  }, []);

  const value = useMemo(() => ({ session, establish, signOut }), [session, establish, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}

/** The session of a page that is only shown to signed-in people. */
export function useSignedIn(): Session {
  const { session } = useSession();
  if (!session) throw new Error('useSignedIn on a page shown without a session');
  return session;
}
