// The form of a custom role, new or existing: name, description, its capabilities as grids, and
// the members whose base role it is (sent only when changed, since that needs users:update).
import { type FormEvent, useState } from 'react';
import type { CapabilitySet, CustomRole, Member, RoleInput } from '../../api/settings';
import { CapabilityGrid, withoutEmptyScopes } from './CapabilityGrid';
import { ErrorMessage } from './ErrorMessage';
import { MemberPicker } from './MemberPicker';
import { messageOf } from './messages';

const sameMembers = (a: string[], b: string[]) => a.length === b.length && a.every((id) => b.includes(id));

export function RoleEditor({ role, members, datasets, onSave, onCancel }: { role?: CustomRole; members: Member[]; datasets: string[]; onSave(input: RoleInput): Promise<unknown>; onCancel(): void }) {
  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [capabilities, setCapabilities] = useState<CapabilitySet>({
    datasetCapabilities: role?.datasetCapabilities ?? {},
    orgCapabilities: role?.orgCapabilities ?? {},
    viewCapabilities: role?.viewCapabilities ?? {},
  });
  const [chosen, setChosen] = useState<string[]>(role?.members ?? []);
  const [error, setError] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    const membersChanged = !sameMembers(chosen, role?.members ?? []);
    try {
      await onSave({ name, description, ...withoutEmptyScopes(capabilities), ...(membersChanged ? { members: chosen } : {}) });
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  return (
    <form className="form-stack settings-form editor-card" onSubmit={submit} aria-label={role ? `Edit role ${role.name}` : 'New role'}>
      <h2>{role ? `Edit role ${role.name}` : 'New role'}</h2>
      <label>
        Role name
        <input required value={name} onChange={(event) => setName(event.target.value)} />
      </label>
      <label>
        Description
        <input value={description} onChange={(event) => setDescription(event.target.value)} />
      </label>
      <CapabilityGrid value={capabilities} onChange={setCapabilities} datasets={datasets} />
      <MemberPicker legend="Members (this becomes their base role)" members={members} chosen={chosen} onChange={setChosen} />
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
