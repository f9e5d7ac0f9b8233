// Sessions: where the user is signed in (created, last seen, address, browser), this one marked;
// end one, or every other one. Ending this one signs out here.
import { useNavigate } from 'react-router';
import { useState } from 'react';
import { endOtherSessions, endSession, listSessions } from '../../api/settings';
import { useSession } from '../../app/session-context';
import { ConfirmButton } from './ConfirmButton';
import { ErrorMessage } from './ErrorMessage';
import { formatTime, messageOf } from './messages';
import { useLoad } from './useLoad';

export function SessionsPage() {
  const sessions = useLoad(listSessions);
  const { signOut } = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();

  const end = async (id: string, current: boolean) => {
    setError(undefined);
    try {
      await endSession(id);
      if (current) {
        await signOut().catch(() => undefined);
        navigate('/login');
        return;
      }
      sessions.reload();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  const endOthers = async () => {
    setError(undefined);
    try {
      const { ended } = await endOtherSessions();
      setNotice(`${ended} other session${ended === 1 ? '' : 's'} ended.`);
      sessions.reload();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  const others = sessions.data?.filter((session) => !session.current).length ?? 0;
  return (
    <section className="settings-page">
      <div className="page-header">
        <h1>Sessions</h1>
        <div className="toolbar">
          <ConfirmButton label="Sign out other sessions" confirmLabel="Sign out all others" subject="" disabled={others === 0} onConfirm={() => void endOthers()} />
        </div>
      </div>
      {notice ? (
        <p role="status" className="muted">
          {notice}
        </p>
      ) : null}
      <ErrorMessage message={error ?? sessions.error} />
      {sessions.data ? (
        <table className="settings-table">
          <caption className="visually-hidden">Your sessions</caption>
          <thead>
            <tr>
              <th scope="col">Browser</th>
              <th scope="col">Address</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last seen</th>
              <th scope="col">Ends if unused</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.data.map((session) => (
              <tr key={session.id} data-session={session.id}>
                <td className="session-agent">
                  {session.userAgent ?? 'unknown'}
                  {session.current ? <span className="badge">This session</span> : null}
                </td>
                <td className="mono">{session.ip ?? ''}</td>
                <td>{formatTime(session.createdAt)}</td>
                <td>{formatTime(session.lastSeenAt)}</td>
                <td>{formatTime(session.expiresAt)}</td>
                <td>
                  <ConfirmButton
                    label={session.current ? 'Sign out' : 'Revoke'}
                    confirmLabel={session.current ? 'Sign out now' : 'Revoke now'}
                    subject={`session ${session.current ? '(this one)' : `from ${session.ip ?? 'unknown address'} last seen ${formatTime(session.lastSeenAt)}`}`}
                    onConfirm={() => void end(session.id, session.current)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
