// Groups: their members hold the capabilities of the group's roles on top of their base role.
// Create, edit (name, description, roles, members) and delete groups.
import { type FormEvent, useState } from 'react';
import { createGroup, deleteGroup, type Group, type GroupInput, listGroups, listMembers, listRoles, type Member, updateGroup } from '../../api/settings';
import { ConfirmButton } from './ConfirmButton';
import { ErrorMessage } from './ErrorMessage';
import { MemberPicker } from './MemberPicker';
import { messageOf } from './messages';
import { type RoleOption, roleOptions } from './role-options';
import { useLoad } from './useLoad';

function GroupEditor({ group, members, roles, onSave, onCancel }: { group?: Group; members: Member[]; roles: RoleOption[]; onSave(input: GroupInput): Promise<unknown>; onCancel(): void }) {
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [chosenRoles, setChosenRoles] = useState<string[]>(group?.roles ?? []);
  const [chosenMembers, setChosenMembers] = useState<string[]>(group?.members ?? []);
  const [error, setError] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      await onSave({ name, description, roles: chosenRoles, members: chosenMembers });
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  return (
    <form className="form-stack settings-form editor-card" onSubmit={submit} aria-label={group ? `Edit group ${group.name}` : 'New group'}>
      <h2>{group ? `Edit group ${group.name}` : 'New group'}</h2>
      <label>
        Group name
        <input required value={name} onChange={(event) => setName(event.target.value)} />
      </label>
      <label>
        Description
        <input value={description} onChange={(event) => setDescription(event.target.value)} />
      </label>
      <fieldset className="picker">
        <legend>Roles</legend>
        {roles
          .filter((role) => role.id !== 'owner')
          .map((role) => (
            <label key={role.id} className="picker-option">
              <input
                type="checkbox"
                checked={chosenRoles.includes(role.id)}
                onChange={(event) => setChosenRoles(event.target.checked ? [...chosenRoles, role.id] : chosenRoles.filter((id) => id !== role.id))}
              />
              {role.name}
            </label>
          ))}
      </fieldset>
      <MemberPicker legend="Members" members={members} chosen={chosenMembers} onChange={setChosenMembers} />
      <ErrorMessage message={error} />
      <div className="toolbar">
        <button type="submit" className="button primary">
          Save
        </button>
        <button type="button" className="button ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function GroupsPage() {
  const groups = useLoad(listGroups);
  const members = useLoad(listMembers);
  const customRoles = useLoad(listRoles);
  const [editing, setEditing] = useState<Group | 'new'>();
  const [error, setError] = useState<string>();
  const roles = roleOptions(customRoles.data);
  const roleName = (id: string) => roles.find((role) => role.id === id)?.name ?? id;
  const memberName = (id: string) => members.data?.find((member) => member.id === id)?.email ?? id;

  const save = async (input: GroupInput) => {
    if (editing === 'new') await createGroup(input);
    else if (editing) await updateGroup(editing.id, input);
    setEditing(undefined);
    groups.reload();
  };

  const remove = async (id: string) => {
    setError(undefined);
    try {
      await deleteGroup(id);
    } catch (failure) {
      setError(messageOf(failure));
    }
    groups.reload();
  };

  return (
    <section className="settings-page">
      <div className="page-header">
        <h1>Groups</h1>
        <div className="toolbar">
          <button type="button" className="button primary" onClick={() => setEditing('new')}>
            New group
          </button>
        </div>
      </div>
      {editing ? (
        <GroupEditor
          key={editing === 'new' ? 'new' : editing.id}
          group={editing === 'new' ? undefined : editing}
          members={members.data ?? []}
          roles={roles}
          onSave={save}
          onCancel={() => setEditing(undefined)}
        />
      ) : null}
      <ErrorMessage message={error ?? groups.error} />
      {groups.data && groups.data.length === 0 ? <p className="muted">No groups yet.</p> : null}
      {groups.data && groups.data.length > 0 ? (
        <table className="settings-table">
          <caption className="visually-hidden">Groups of the organization</caption>
          <thead>
            <tr>
              <th scope="col">Group</th>
              <th scope="col">Description</th>
              <th scope="col">Roles</th>
              <th scope="col">Members</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {groups.data.map((group) => (
              <tr key={group.id}>
                <td>{group.name}</td>
                <td>{group.description}</td>
                <td>{group.roles.map(roleName).join(', ')}</td>
                <td>{group.members.map(memberName).join(', ')}</td>
                <td>
                  <span className="toolbar">
                    <button type="button" className="button small" aria-label={`Edit ${group.name}`} onClick={() => setEditing(group)}>
                      Edit
                    </button>
                    <ConfirmButton label="Delete" confirmLabel="Delete now" subject={group.name} onConfirm={() => void remove(group.id)} />
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
