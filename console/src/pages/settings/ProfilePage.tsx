// Profile: the user's name and time zone (stored with the user, GET/PUT /v2/user), and changing
// the password, which keeps this browser signed in and ends every other session.
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { fetchSession } from '../../api/session';
import { changePassword, fetchCurrentUser, updateCurrentUser } from '../../api/settings';
import { useSession } from '../../app/session-context';
import { ErrorMessage } from './ErrorMessage';
import { messageOf } from './messages';
import { useLoad } from './useLoad';

function timeZones(): string[] {
  const supported = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return supported.includes('UTC') ? supported : ['UTC', ...supported];
}

function ProfileForm() {
  const { establish } = useSession();
  const user = useLoad(fetchCurrentUser);
  const zones = useMemo(timeZones, []);
  const [name, setName] = useState('');
  const [zone, setZone] = useState('');
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (!user.data) return;
    setName(user.data.name);
    setZone(user.data.timeZone ?? '');
  }, [user.data]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setSaved(false);
    try {
      await updateCurrentUser({ name, timeZone: zone || null });
      // The shell shows the user's name from the session.
      establish(await fetchSession());
      setSaved(true);
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  if (user.error) return <ErrorMessage message={user.error} />;
  if (!user.data) return <p className="muted">Loading…</p>;
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <form className="form-stack settings-form" onSubmit={save} aria-label="Profile">
      <p className="muted">
        {user.data.email} · {user.data.role.name} in this organization
      </p>
      <label>
        Name
        <input name="name" autoComplete="name" required value={name} onChange={(event) => setName(event.target.value)} />
      </label>
      <label>
        Time zone
        <select value={zone} onChange={(event) => setZone(event.target.value)}>
          <option value="">This browser's ({browserZone})</option>
          {zone && !zones.includes(zone) ? <option value={zone}>{zone}</option> : null}
          {zones.map((candidate) => (
            <option key={candidate} value={candidate}>
              {candidate}
            </option>
          ))}
        </select>
      </label>
      <ErrorMessage message={error} />
      <div className="toolbar">
        <button type="submit" className="button primary">
          Save
        </button>
        {saved ? (
          <span role="status" className="muted">
            Saved.
          </span>
        ) : null}
      </div>
    </form>
  );
}

function PasswordForm() {
  const { establish } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string>();
  const [changed, setChanged] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setChanged(false);
    if (next !== repeat) return setError('The new passwords differ.');
    try {
      establish(await changePassword(current, next));
      setCurrent('');
      setNext('');
      setRepeat('');
      setChanged(true);
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  return (
    <form className="form-stack settings-form" onSubmit={submit} aria-label="Change password">
      <h2>Password</h2>
      <p className="muted">Changing it keeps you signed in here and signs you out everywhere else.</p>
      <label>
        Current password
        <input type="password" autoComplete="current-password" required value={current} onChange={(event) => setCurrent(event.target.value)} />
      </label>
      <label>
        New password
        <input type="password" autoComplete="new-password" required value={next} onChange={(event) => setNext(event.target.value)} />
      </label>
      <label>
        Repeat the new password
        <input type="password" autoComplete="new-password" required value={repeat} onChange={(event) => setRepeat(event.target.value)} />
      </label>
      <ErrorMessage message={error} />
      <div className="toolbar">
        <button type="submit" className="button">
          Change password
        </button>
        {changed ? (
          <span role="status" className="muted">
            Password changed; other sessions ended.
          </span>
        ) : null}
      </div>
    </form>
  );
}

export function ProfilePage() {
  return (
    <section className="settings-page">
      <h1>Profile</h1>
      <ProfileForm />
      <PasswordForm />
    </section>
  );
}
