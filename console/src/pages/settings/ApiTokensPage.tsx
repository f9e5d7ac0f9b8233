// API tokens of the organization: create one with its capabilities, dataset scopes and expiry
// (the secret shown once), regenerate one (a new secret; the old one keeps working until the time
// chosen, and the new one keeps the old one's expiry unless another is chosen), delete one.
import { type FormEvent, useState } from 'react';
import { type ApiToken, type CapabilitySet, createApiToken, deleteApiToken, listApiTokens, listDatasetNames, regenerateApiToken } from '../../api/settings';
import { CapabilityGrid, capabilitySummary, withoutEmptyScopes } from './CapabilityGrid';
import { ConfirmButton } from './ConfirmButton';
import { ErrorMessage } from './ErrorMessage';
import { formatTime, instantOfLocalInput, messageOf } from './messages';
import { SecretOnce } from './SecretOnce';
import { useLoad } from './useLoad';

const noDatasets = async () => listDatasetNames().catch(() => [] as string[]);

function NewTokenForm({ datasets, onCreated, onCancel }: { datasets: string[]; onCreated(secret: string): void; onCancel(): void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [expires, setExpires] = useState('');
  const [capabilities, setCapabilities] = useState<CapabilitySet>({ datasetCapabilities: {}, orgCapabilities: {}, viewCapabilities: {} });
  const [error, setError] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      const created = await createApiToken({ name, description, expiresAt: instantOfLocalInput(expires), ...withoutEmptyScopes(capabilities) });
      onCreated(created.token);
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  return (
    <form className="form-stack settings-form editor-card" onSubmit={submit} aria-label="New API token">
      <h2>New API token</h2>
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
      <CapabilityGrid value={capabilities} onChange={setCapabilities} datasets={datasets} />
      <ErrorMessage message={error} />
      <div className="toolbar">
        <button type="submit" className="button primary">
          Create token
        </button>
        <button type="button" className="button ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A `datetime-local` value for an instant, in the browser's zone. */
function localInputOf(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function RegenerateForm({ token, onDone, onCancel }: { token: ApiToken; onDone(secret: string): void; onCancel(): void }) {
  const [oldEnds, setOldEnds] = useState('');
  const [newExpires, setNewExpires] = useState(token.expiresAt && Date.parse(token.expiresAt) > Date.now() ? localInputOf(token.expiresAt) : '');
  const [error, setError] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      const created = await regenerateApiToken(token.id, instantOfLocalInput(oldEnds) ?? new Date().toISOString(), instantOfLocalInput(newExpires));
      onDone(created.token);
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  return (
    <form className="form-stack settings-form editor-card" onSubmit={submit} aria-label={`Regenerate ${token.name}`}>
      <h2>Regenerate {token.name}</h2>
      <p className="muted">A new token with the same capabilities replaces this one.</p>
      <label>
        The old secret stops working at (empty: now)
        <input type="datetime-local" value={oldEnds} onChange={(event) => setOldEnds(event.target.value)} />
      </label>
      <label>
        The new token expires (empty: never)
        <input type="datetime-local" value={newExpires} onChange={(event) => setNewExpires(event.target.value)} />
      </label>
      <ErrorMessage message={error} />
      <div className="toolbar">
        <button type="submit" className="button primary">
          Regenerate
        </button>
        <button type="button" className="button ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function ApiTokensPage() {
  const tokens = useLoad(listApiTokens);
  const datasets = useLoad(noDatasets);
  const [form, setForm] = useState<'new' | ApiToken>();
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<string>();

  const done = (created: string) => {
    setForm(undefined);
    setSecret(created);
    tokens.reload();
  };

  const remove = async (id: string) => {
    setError(undefined);
    try {
      await deleteApiToken(id);
    } catch (failure) {
      setError(messageOf(failure));
    }
    tokens.reload();
  };

  return (
    <section className="settings-page">
      <div className="page-header">
        <h1>API tokens</h1>
        <div className="toolbar">
          <button type="button" className="button primary" onClick={() => setForm('new')}>
            New API token
          </button>
        </div>
      </div>
      <p className="muted">API tokens belong to the organization and hold only the capabilities given here, and never more than their creator holds.</p>
      {form === 'new' ? <NewTokenForm datasets={datasets.data ?? []} onCreated={done} onCancel={() => setForm(undefined)} /> : null}
      {form && form !== 'new' ? <RegenerateForm key={form.id} token={form} onDone={done} onCancel={() => setForm(undefined)} /> : null}
      {secret ? <SecretOnce label="New API token" value={secret} note="Copy this token now: it is not shown again." onDone={() => setSecret(undefined)} /> : null}
      <ErrorMessage message={error ?? tokens.error} />
      {tokens.data && tokens.data.length === 0 ? <p className="muted">No API tokens yet.</p> : null}
      {tokens.data && tokens.data.length > 0 ? (
        <table className="settings-table">
          <caption className="visually-hidden">API tokens of the organization</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
              <th scope="col">Capabilities</th>
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
                <td>{capabilitySummary(token)}</td>
                <td>{formatTime(token.createdAt)}</td>
                <td>{formatTime(token.expiresAt)}</td>
                <td>
                  <span className="toolbar">
                    <button type="button" className="button small" aria-label={`Regenerate ${token.name}`} onClick={() => setForm(token)}>
                      Regenerate
                    </button>
                    <ConfirmButton label="Delete" confirmLabel="Delete now" subject={token.name} onConfirm={() => void remove(token.id)} />
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
