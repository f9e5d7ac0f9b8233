// The dataset's map fields: objects ingested under these names afterwards are kept whole (one
// field of type map) instead of one field per key. Declare, rename (replace the list), remove.
import { Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { createMapField, deleteMapField, listMapFields, replaceMapFields } from '../../../api/datasets';
import { ErrorBox } from '../ErrorBox';
import { errorMessage, useLoaded } from '../useLoaded';

export function MapFieldsTab({ dataset }: { dataset: string }) {
  const [names, reload] = useLoaded((signal) => listMapFields(dataset, signal), [dataset]);
  const [newName, setNewName] = useState('');
  const [renaming, setRenaming] = useState<{ from: string; to: string }>();
  const [error, setError] = useState<string>();

  const act = async (action: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await action();
      reload();
      return true;
    } catch (failure) {
      setError(errorMessage(failure));
      return false;
    }
  };

  const declare = async (event: FormEvent) => {
    event.preventDefault();
    if (await act(() => createMapField(dataset, newName.trim()))) setNewName('');
  };

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    if (!renaming || names.phase !== 'done') return;
    const next = names.value.map((name) => (name === renaming.from ? renaming.to.trim() : name));
    if (await act(() => replaceMapFields(dataset, next))) setRenaming(undefined);
  };

  return (
    <section aria-labelledby="map-fields-title">
      <h2 id="map-fields-title">Map fields</h2>
      <p className="muted">
        Objects ingested under a map field from now on are kept whole, so attributes of unpredictable shape do not use up the field limit. Events ingested before keep
        their flattened fields.
      </p>
      <form className="form-row datasets-section" onSubmit={declare} aria-label="New map field">
        <label>
          Map field name
          <input value={newName} onChange={(event) => setNewName(event.target.value)} required placeholder="attributes.custom" />
        </label>
        <button type="submit" className="button primary">
          <Plus size={16} aria-hidden="true" />
          Add map field
        </button>
      </form>
      <ErrorBox message={error} />
      {names.phase === 'error' && <ErrorBox message={names.message} />}
      {names.phase === 'done' && names.value.length === 0 && <p className="muted">No map fields.</p>}
      {names.phase === 'done' && names.value.length > 0 && (
        <table className="datasets-table" aria-label="Map fields">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {names.value.map((name) => (
              <tr key={name}>
                <td className="mono">
                  {renaming?.from === name ? (
                    <form className="form-row" onSubmit={rename} aria-label={`Rename map field ${name}`}>
                      <label>
                        <span className="visually-hidden">New name of {name}</span>
                        <input aria-label={`New name of ${name}`} value={renaming.to} onChange={(event) => setRenaming({ from: name, to: event.target.value })} required />
                      </label>
                      <button type="submit" className="button small primary">
                        Save
                      </button>
                      <button type="button" className="button small" onClick={() => setRenaming(undefined)}>
                        Cancel
                      </button>
                    </form>
                  ) : (
                    name
                  )}
                </td>
                <td className="actions">
                  <button type="button" className="button small" onClick={() => setRenaming({ from: name, to: name })} aria-label={`Rename ${name}`}>
                    Rename
                  </button>{' '}
                  <button type="button" className="button small danger-button" onClick={() => void act(() => deleteMapField(dataset, name))} aria-label={`Remove ${name}`}>
                    Remove
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
