// Users: the members of the organization with their base role; invite someone by a one-time link
// (they become a member with the chosen role when they use it), change a member's role, remove one.
import { type FormEvent, useState } from 'react';
import { changeMemberRole, type Invitation, inviteMember, listMembers, listRoles, removeMember } from '../../api/settings';
import { useSignedIn } from '../../app/session-context';
import { ConfirmButton } from './ConfirmButton';
import { ErrorMessage } from './ErrorMessage';
import { formatTime, messageOf } from './messages';
import { roleOptions } from './role-options';
import { SecretOnce } from './SecretOnce';
import { useLoad } from './useLoad';

/** The link to open, on the address this console is served from. */
function linkOf(invitation: Invitation): string {
  return `${window.location.origin}/app/accept#${invitation.token}`;
}

function InviteForm({ roles, onInvited }: { roles: { id: string; name: string }[]; onInvited(): void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('user');
  const [error, setError] = useState<string>();
  const [invitation, setInvitation] = useState<Invitation>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      setInvitation(await inviteMember(email, role));
      setEmail('');
      onInvited();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  return (
    <>
      <form className="settings-inline-form" onSubmit={submit} aria-label="Invite user">
        <label>
          Email
          <input type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </label>
        <label>
          Role
          <select value={role} onChange={(event) => setRole(event.target.value)}>
            {roles.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button primary">
          Invite user
        </button>
      </form>
      <ErrorMessage message={error} />
      {invitation ? (
        <SecretOnce
          label="Invitation link"
          value={linkOf(invitation)}
          note={`Send this link to ${invitation.email}${invitation.mailed ? ' (it was also mailed)' : ''}: it works once, until ${formatTime(invitation.expiresAt)}, and makes them ${invitation.role.name}.`}
          onDone={() => setInvitation(undefined)}
        />
      ) : null}
    </>
  );
}

export function UsersPage() {
  const session = useSignedIn();
  const members = useLoad(listMembers);
  const customRoles = useLoad(listRoles);
  const [error, setError] = useState<string>();
  const roles = roleOptions(customRoles.data);

  const act = async (work: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await work();
    } catch (failure) {
      setError(messageOf(failure));
    }
    members.reload();
  };

  return (
    <section className="settings-page">
      <h1>Users</h1>
      <InviteForm roles={roles} onInvited={members.reload} />
      <ErrorMessage message={error ?? members.error} />
      {members.data ? (
        <table className="settings-table">
          <caption className="visually-hidden">Members of the organization</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.data.map((member) => (
              <tr key={member.id}>
                <td>
                  {member.name}
                  {member.id === session.user.id ? <span className="badge">You</span> : null}
                </td>
                <td>{member.email}</td>
                <td>
                  <select aria-label={`Role of ${member.email}`} value={member.role.id} onChange={(event) => void act(() => changeMemberRole(member.id, event.target.value))}>
                    {roles.some((option) => option.id === member.role.id) ? null : <option value={member.role.id}>{member.role.name}</option>}
                    {roles.map((option) => (
                      <option key={option.id} value={option.id}>
                        {option.name}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <ConfirmButton label="Remove" confirmLabel="Remove now" subject={member.email} onConfirm={() => void act(() => removeMember(member.id))} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
