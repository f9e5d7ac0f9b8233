// Sign in with email and password, or with the organization's single sign-on when configured;
// afterwards back to the page that asked for it.
import { type FormEvent, useEffect, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import { fetchSignInMethods, signIn, type SignInMethods } from '../api/session';
import { useSession } from '../app/session-context';

/** Only paths inside the console: a sign-in link must not send people elsewhere. */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function SignInPage() {
  const { session, establish } = useSession();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>(params.get('error') ?? undefined);
  const [busy, setBusy] = useState(false);
  const [methods, setMethods] = useState<SignInMethods>();
  const next = safeNext(params.get('next'));

  useEffect(() => {
    fetchSignInMethods().then(setMethods, () => setMethods({ password: true, oidc: null }));
  }, []);

  if (session) return <Navigate to={next} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      establish(await signIn(email, password));
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Could not reach the server.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="centered-page sign-in">
      <h1>
        Sign in to event<strong>deck</strong>
      </h1>
      <form onSubmit={submit} className="form-stack" aria-label="Sign in">
        <label>
          Email
          <input type="email" name="email" autoComplete="username" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </label>
        <label>
          Password
          <input type="password" name="password" autoComplete="current-password" required value={password} onChange={(event) => setPassword(event.target.value)} />
        </label>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button primary" disabled={busy}>
          Sign in
        </button>
      </form>
      {methods?.oidc ? (
        <a className="button" href={`${methods.oidc.loginUrl}?next=${encodeURIComponent(`/app${next === '/' ? '/' : next}`)}`}>
          {methods.oidc.name}
        </a>
      ) : null}
    </main>
  );
}
