// The dataset's virtual fields (APL expressions evaluated at query time), in definition order:
// create, edit and delete, with every field the API keeps.
import { Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { createVirtualField, deleteVirtualField, listVirtualFields, updateVirtualField, type VirtualField, type VirtualFieldInput } from '../../../api/datasets';
import { ErrorBox } from '../ErrorBox';
import { errorMessage, useLoaded } from '../useLoaded';

export function VirtualFieldsTab({ dataset }: { dataset: string }) {
  const [fields, reload] = useLoaded((signal) => listVirtualFields(dataset, signal), [dataset]);
  const [editing, setEditing] = useState<VirtualField | 'new'>();
  const [error, setError] = useState<string>();

  const remove = async (field: VirtualField) => {
    setError(undefined);
    try {
      await deleteVirtualField(field.id);
      if (editing !== 'new' && editing?.id === field.id) setEditing(undefined);
      reload();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <section aria-labelledby="virtual-fields-title">
      <div className="toolbar">
        <h2 id="virtual-fields-title">Virtual fields</h2>
        <button type="button" className="button primary" onClick={() => setEditing('new')}>
          <Plus size={16} aria-hidden="true" />
          New virtual field
        </button>
      </div>
      <p className="muted">An APL expression computed when queries run, usable by name as if the events held it. Each may use the ones defined before it.</p>
      {editing && (
        <VirtualFieldForm
          key={editing === 'new' ? 'new' : editing.id}
          dataset={dataset}
          existing={editing === 'new' ? undefined : editing}
          onDone={() => {
            setEditing(undefined);
            reload();
          }}
          onCancel={() => setEditing(undefined)}
        />
      )}
      <ErrorBox message={error} />
      {fields.phase === 'error' && <ErrorBox message={fields.message} />}
      {fields.phase === 'done' && fields.value.length === 0 && <p className="muted">No virtual fields.</p>}
      {fields.phase === 'done' && fields.value.length > 0 && (
        <table className="datasets-table" aria-label="Virtual fields">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Expression</th>
              <th scope="col">Type</th>
              <th scope="col">Unit</th>
              <th scope="col">Description</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {fields.value.map((field) => (
              <tr key={field.id}>
                <td className="mono">{field.name}</td>
                <td className="mono">{field.expression}</td>
                <td>{field.type}</td>
                <td>{field.unit}</td>
                <td>{field.description}</td>
                <td className="actions">
                  <button type="button" className="button small" onClick={() => setEditing(field)} aria-label={`Edit ${field.name}`}>
                    Edit
                  </button>{' '}
                  <button type="button" className="button small danger-button" onClick={() => void remove(field)} aria-label={`Delete ${field.name}`}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function VirtualFieldForm({ dataset, existing, onDone, onCancel }: { dataset: string; existing: VirtualField | undefined; onDone(): void; onCancel(): void }) {
  const [input, setInput] = useState<VirtualFieldInput>(
    existing ? { dataset, name: existing.name, expression: existing.expression, description: existing.description, type: existing.type, unit: existing.unit } : { dataset, name: '', expression: '', description: '', type: '', unit: '' },
  );
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const set = (key: keyof VirtualFieldInput) => (event: { target: { value: string } }) => setInput((current) => ({ ...current, [key]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      if (existing) await updateVirtualField(existing.id, input);
      else await createVirtualField(input);
      onDone();
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <form className="datasets-card" aria-label={existing ? `Edit virtual field ${existing.name}` : 'New virtual field'} onSubmit={submit}>
      <div className="form-stack">
        <label>
          Name
          <input value={input.name} onChange={set('name')} required placeholder="kb" />
        </label>
        <label>
          Expression (APL)
          <textarea className="mono" rows={3} value={input.expression} onChange={set('expression')} required placeholder="resp_bytes / 1024.0" />
        </label>
        <div className="form-row">
          <label>
            Unit
            <input value={input.unit} onChange={set('unit')} maxLength={64} />
          </label>
          <label>
            Type
            <input value={input.type} onChange={set('type')} maxLength={64} placeholder="(from the expression)" />
          </label>
        </div>
        <label>
          Description
          <input value={input.description} onChange={set('description')} maxLength={1024} />
        </label>
      </div>
      <ErrorBox message={error} />
      <div className="toolbar">
        <button type="submit" className="button primary" disabled={busy}>
          {existing ? 'Save' : 'Create virtual field'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
