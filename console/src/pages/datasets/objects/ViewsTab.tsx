// Views that read this dataset: named APL queries usable as a source like a dataset. Create
// (starting from a query over this dataset), edit and delete.
import { Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { createView, deleteView, listViews, updateView, type View, type ViewInput } from '../../../api/datasets';
import { datasetRef } from '../../query/apl-text';
import { ErrorBox } from '../ErrorBox';
import { errorMessage, useLoaded } from '../useLoaded';

export function ViewsTab({ dataset }: { dataset: string }) {
  const [views, reload] = useLoaded((signal) => listViews(signal), []);
  const [editing, setEditing] = useState<View | 'new'>();
  const [error, setError] = useState<string>();
  const reading = views.phase === 'done' ? views.value.filter((view) => view.datasets.includes(dataset)) : [];

  const remove = async (view: View) => {
    setError(undefined);
    try {
      await deleteView(view.id);
      reload();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <section aria-labelledby="views-title">
      <div className="toolbar">
        <h2 id="views-title">Views</h2>
        <button type="button" className="button primary" onClick={() => setEditing('new')}>
          <Plus size={16} aria-hidden="true" />
          New view
        </button>
      </div>
      <p className="muted">A view is a named APL query, queried by its name wherever a dataset can be. Below, the views whose query reads {dataset}.</p>
      {editing && (
        <ViewForm
          key={editing === 'new' ? 'new' : editing.id}
          existing={editing === 'new' ? undefined : editing}
          initialQuery={`${datasetRef(dataset)}\n| where `}
          onDone={() => {
            setEditing(undefined);
            reload();
          }}
          onCancel={() => setEditing(undefined)}
        />
      )}
      <ErrorBox message={error} />
      {views.phase === 'error' && <ErrorBox message={views.message} />}
      {views.phase === 'done' && reading.length === 0 && <p className="muted">No views read this dataset.</p>}
      {reading.length > 0 && (
        <table className="datasets-table" aria-label="Views">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Query</th>
              <th scope="col">Description</th>
              <th scope="col">Reads</th>
              <th scope="col">Updated</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {reading.map((view) => (
              <tr key={view.id}>
                <td className="mono">{view.name}</td>
                <td className="mono">{view.aplQuery}</td>
                <td>{view.description}</td>
                <td>{view.datasets.join(', ')}</td>
                <td title={`by ${view.who}`}>{new Date(view.updatedAt).toLocaleString()}</td>
                <td className="actions">
                  <button type="button" className="button small" onClick={() => setEditing(view)} aria-label={`Edit ${view.name}`}>
                    Edit
                  </button>{' '}
                  <button type="button" className="button small danger-button" onClick={() => void remove(view)} aria-label={`Delete ${view.name}`}>
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

function ViewForm({ existing, initialQuery, onDone, onCancel }: { existing: View | undefined; initialQuery: string; onDone(): void; onCancel(): void }) {
  const [input, setInput] = useState<ViewInput>(existing ? { name: existing.name, description: existing.description, aplQuery: existing.aplQuery } : { name: '', description: '', aplQuery: initialQuery });
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const set = (key: keyof ViewInput) => (event: { target: { value: string } }) => setInput((current) => ({ ...current, [key]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      if (existing) await updateView(existing.id, input);
      else await createView(input);
      onDone();
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <form className="datasets-card" aria-label={existing ? `Edit view ${existing.name}` : 'New view'} onSubmit={submit}>
      <div className="form-stack">
        <label>
          Name
          <input value={input.name} onChange={set('name')} required placeholder="errors" />
        </label>
        <label>
          Query (APL)
          <textarea className="mono" rows={4} value={input.aplQuery} onChange={set('aplQuery')} required />
        </label>
        <label>
          Description
          <input value={input.description} onChange={set('description')} maxLength={1024} />
        </label>
      </div>
      <ErrorBox message={error} />
      <div className="toolbar">
        <button type="submit" className="button primary" disabled={busy}>
          {existing ? 'Save' : 'Create view'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
