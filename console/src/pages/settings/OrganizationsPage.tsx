// Organizations: those the user belongs to, with their role in each; create one (the user owns
// it) or rename one (owners and admins). Switching between them is the shell's selector.
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { fetchSession } from '../../api/session';
import { createOrganization, listOrganizations, type Organization, renameOrganization } from '../../api/settings';
import { useSession } from '../../app/session-context';
import { ErrorMessage } from './ErrorMessage';
import { formatTime, messageOf } from './messages';
import { useLoad } from './useLoad';

function RenameForm({ org, onDone }: { org: Organization; onDone(): void }) {
  const [name, setName] = useState(org.name);
  const [error, setError] = useState<string>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      await renameOrganization(org.id, name);
      onDone();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return (
    <form className="settings-inline-form" onSubmit={submit} aria-label={`Rename ${org.name}`}>
      <label>
        <span className="visually-hidden">New name of {org.name}</span>
        <input required value={name} onChange={(event) => setName(event.target.value)} />
      </label>
      <button type="submit" className="button small">
        Rename
      </button>
      <ErrorMessage message={error} />
    </form>
  );
}

export function OrganizationsPage() {
  const { establish } = useSession();
  const orgs = useLoad(listOrganizations);
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();

  const changed = () => {
    orgs.reload();
    // The shell's selector lists the session's organizations.
    fetchSession().then(establish, () => undefined);
  };

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      await createOrganization(name);
      setName('');
      changed();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  return (
    <section className="settings-page">
      <h1>Organizations</h1>
      <form className="settings-inline-form" onSubmit={create} aria-label="New organization">
        <label>
          Organization name
          <input required value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        <button type="submit" className="button primary">
          New organization
        </button>
      </form>
      <ErrorMessage message={error ?? orgs.error} />
      {orgs.data ? (
        <table className="settings-table">
          <caption className="visually-hidden">Your organizations</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Your role</th>
              <th scope="col">Plan</th>
              <th scope="col">Created</th>
              <th scope="col">Id</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {orgs.data.map((org) => (
              <tr key={org.id}>
                <td>
                  <Link to={`/${encodeURIComponent(org.id)}/settings/organizations`}>{org.name}</Link>
                  {org.expiresAt ? <span className="badge">deleted {formatTime(org.expiresAt)} unless claimed</span> : null}
                </td>
                <td>{org.role ?? ''}</td>
                <td>{org.plan}</td>
                <td>{formatTime(org.metaCreated)}</td>
                <td className="mono">{org.id}</td>
                <td>{org.role === 'owner' || org.role === 'admin' ? <RenameForm key={org.name} org={org} onDone={changed} /> : null}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
