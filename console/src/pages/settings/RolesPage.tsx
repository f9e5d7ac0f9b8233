// Roles: the base roles every organization has, and its custom roles (named capability sets on
// datasets, the organization and views); create, edit and delete custom roles.
import { useState } from 'react';
import { createRole, type CustomRole, deleteRole, listDatasetNames, listMembers, listRoles, updateRole } from '../../api/settings';
import { BASE_ROLES } from './capability-catalog';
import { capabilitySummary } from './CapabilityGrid';
import { ConfirmButton } from './ConfirmButton';
import { ErrorMessage } from './ErrorMessage';
import { messageOf } from './messages';
import { RoleEditor } from './RoleEditor';
import { useLoad } from './useLoad';

const noDatasets = async () => listDatasetNames().catch(() => [] as string[]);

export function RolesPage() {
  const roles = useLoad(listRoles);
  const members = useLoad(listMembers);
  const datasets = useLoad(noDatasets);
  const [editing, setEditing] = useState<CustomRole | 'new'>();
  const [error, setError] = useState<string>();

  const remove = async (id: string) => {
    setError(undefined);
    try {
      await deleteRole(id);
    } catch (failure) {
      setError(messageOf(failure));
    }
    roles.reload();
  };

  const save = async (input: Parameters<typeof createRole>[0]) => {
    if (editing === 'new') await createRole(input);
    else if (editing) await updateRole(editing.id, input);
    setEditing(undefined);
    roles.reload();
    members.reload();
  };

  return (
    <section className="settings-page">
      <div className="page-header">
        <h1>Roles</h1>
        <div className="toolbar">
          <button type="button" className="button primary" onClick={() => setEditing('new')}>
            New role
          </button>
        </div>
      </div>
      {editing ? (
        <RoleEditor
          key={editing === 'new' ? 'new' : editing.id}
          role={editing === 'new' ? undefined : editing}
          members={members.data ?? []}
          datasets={datasets.data ?? []}
          onSave={save}
          onCancel={() => setEditing(undefined)}
        />
      ) : null}
      <ErrorMessage message={error ?? roles.error} />
      <table className="settings-table">
        <caption className="visually-hidden">Roles of the organization</caption>
        <thead>
          <tr>
            <th scope="col">Role</th>
            <th scope="col">Description</th>
            <th scope="col">Capabilities</th>
            <th scope="col">Members</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {BASE_ROLES.map((role) => (
            <tr key={role.id}>
              <td>{role.name}</td>
              <td className="muted">Base role</td>
              <td className="muted">built in</td>
              <td>{members.data?.filter((member) => member.role.id === role.id).length ?? ''}</td>
              <td />
            </tr>
          ))}
          {(roles.data ?? []).map((role) => (
            <tr key={role.id}>
              <td>{role.name}</td>
              <td>{role.description}</td>
              <td>{capabilitySummary(role)}</td>
              <td>{role.members.length}</td>
              <td>
                <span className="toolbar">
                  <button type="button" className="button small" aria-label={`Edit ${role.name}`} onClick={() => setEditing(role)}>
                    Edit
                  </button>
                  <ConfirmButton label="Delete" confirmLabel="Delete now" subject={role.name} onConfirm={() => void remove(role.id)} />
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
