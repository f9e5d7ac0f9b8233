// An invitation or password-reset link (/app/accept#<token>): choose a password, and be signed in.
import { type FormEvent, useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { ApiError } from '../api/client';
import { acceptLink, describeLink, type LoginLink } from '../api/session';
import { useSession } from '../app/session-context';

export function AcceptLinkPage() {
  const { establish, session } = useSession();
  const token = window.location.hash.slice(1);
  const [link, setLink] = useState<LoginLink>();
  const [error, setError] = useState<string>();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!token) return setError('This link is incomplete.');
    describeLink(token).then(setLink, (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'Could not reach the server.'));
  }, [token]);

  if (done && session) return <Navigate to="/" replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      establish(await acceptLink(token, password, link?.kind === 'invite' && name ? name : undefined));
      setDone(true);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Could not reach the server.');
    }
  };

  return (
    <main className="centered-page sign-in">
      <h1>{link?.kind === 'reset' ? 'Choose a new password' : 'Join eventdeck'}</h1>
      {link ? (
        <form onSubmit={submit} className="form-stack" aria-label="Set password">
          <p>
            {link.email}
            {link.organization ? ` · ${link.organization.name}` : ''}
          </p>
          {link.kind === 'invite' ? (
            <label>
              Name
              <input name="name" autoComplete="name" value={name} onChange={(event) => setName(event.target.value)} />
            </label>
          ) : null}
          <label>
            Password
            <input type="password" name="password" autoComplete="new-password" minLength={8} required value={password} onChange={(event) => setPassword(event.target.value)} />
          </label>
          <button type="submit" className="button primary">
            {link.kind === 'reset' ? 'Set password' : 'Join'}
          </button>
        </form>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </main>
  );
}
