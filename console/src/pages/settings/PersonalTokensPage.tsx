// Personal tokens: the user's own tokens for scripts and clients (they act for the user in every
// organization, with their role there). Create one (its secret shown once), list, revoke.
import { type FormEvent, useState } from 'react';
import { createPersonalToken, listPersonalTokens, revokePersonalToken } from '../../api/settings';
import { ConfirmButton } from './ConfirmButton';
import { ErrorMessage } from './ErrorMessage';
import { formatTime, instantOfLocalInput, messageOf } from './messages';
import { SecretOnce } from './SecretOnce';
import { useLoad } from './useLoad';

export function PersonalTokensPage() {
  const tokens = useLoad(listPersonalTokens);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [expires, setExpires] = useState('');
  const [error, setError] = useState<string>();
  const [secret, setSecret] = useState<string>();

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      const created = await createPersonalToken({ name, description, expiresAt: instantOfLocalInput(expires) });
      setSecret(created.token);
      setName('');
      setDescription('');
      setExpires('');
      tokens.reload();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  const revoke = async (id: string) => {
    setError(undefined);
    try {
      await revokePersonalToken(id);
      tokens.reload();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  return (
    <section className="settings-page">
      <h1>Personal tokens</h1>
      <p className="muted">A personal token acts for you in every organization you belong to, with your role there; send the organization in X-Axiom-Org-Id.</p>
      <form className="form-stack settings-form" onSubmit={create} aria-label="New personal token">
        <label>
          Token name
          <input required value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        <label>
          Description
          <input value={description} onChange={(event) => setDescription(event.target.value)} />
        </label>
        <label>
          Expires (empty: never)
          <input type="datetime-local" value={expires} onChange={(event) => setExpires(event.target.value)} />
        </label>
        <div className="toolbar">
          <button type="submit" className="button primary">
            Create token
          </button>
        </div>
      </form>
      {secret ? <SecretOnce label="New personal token" value={secret} note="Copy this token now: it is not shown again." onDone={() => setSecret(undefined)} /> : null}
      <ErrorMessage message={error ?? tokens.error} />
      {tokens.data && tokens.data.length === 0 ? <p className="muted">No personal tokens yet.</p> : null}
      {tokens.data && tokens.data.length > 0 ? (
        <table className="settings-table">
          <caption className="visually-hidden">Your personal tokens</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.data.map((token) => (
              <tr key={token.id}>
                <td>{token.name}</td>
                <td>{token.description}</td>
                <td>{formatTime(token.createdAt)}</td>
                <td>{formatTime(token.expiresAt)}</td>
                <td>
                  <ConfirmButton label="Revoke" confirmLabel="Revoke now" subject={token.name} onConfirm={() => void revoke(token.id)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
