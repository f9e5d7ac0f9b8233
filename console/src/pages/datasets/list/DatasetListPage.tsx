// /datasets: the organization's datasets with their kind, description, events and retention;
// "New dataset", trim and delete (the name typed to confirm).
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { listDatasets, METRICS_KIND } from '../../../api/datasets';
import { ErrorBox } from '../ErrorBox';
import { useLoaded } from '../useLoaded';
import { DeleteDatasetDialog } from './DeleteDatasetDialog';
import { EventCount } from './EventCount';
import { NewDatasetForm } from './NewDatasetForm';
import { TrimDialog } from './TrimDialog';
import '../datasets.css';

type Pending = { action: 'delete' | 'trim'; name: string } | undefined;

export function DatasetListPage() {
  const { org } = useParams();
  const navigate = useNavigate();
  const [datasets, reload] = useLoaded((signal) => listDatasets(signal), []);
  const [creating, setCreating] = useState(false);
  const [pending, setPending] = useState<Pending>();
  const [notice, setNotice] = useState('');
  const base = `/${encodeURIComponent(org!)}/datasets`;

  return (
    <section className="page" aria-labelledby="datasets-title">
      <header className="page-header">
        <h1 id="datasets-title">Datasets</h1>
        <div className="toolbar">
          <button type="button" className="button primary" onClick={() => setCreating(true)} disabled={creating}>
            <Plus size={16} aria-hidden="true" />
            New dataset
          </button>
        </div>
      </header>
      {creating && (
        <NewDatasetForm
          onCancel={() => setCreating(false)}
          onCreated={(dataset) => navigate(`${base}/${encodeURIComponent(dataset.name)}`)}
        />
      )}
      {notice && (
        <p role="status" className="muted">
          {notice}
        </p>
      )}
      {datasets.phase === 'loading' && <p className="muted">Loading…</p>}
      {datasets.phase === 'error' && <ErrorBox message={datasets.message} />}
      {datasets.phase === 'done' && datasets.value.length === 0 && (
        <p className="muted">No datasets yet. Create one with "New dataset", then upload a file or point a shipper at it.</p>
      )}
      {datasets.phase === 'done' && datasets.value.length > 0 && (
        <table className="datasets-table" aria-label="Datasets">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Description</th>
              <th scope="col">Events</th>
              <th scope="col">Retention</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {datasets.value.map((dataset) => (
              <tr key={dataset.name}>
                <td>
                  <Link to={`${base}/${encodeURIComponent(dataset.name)}`}>{dataset.name}</Link>
                </td>
                <td className="mono">{dataset.kind}</td>
                <td>{dataset.description || <span className="muted">—</span>}</td>
                <td>{dataset.kind === METRICS_KIND ? <span className="muted">metrics</span> : <EventCount dataset={dataset.name} />}</td>
                <td>{dataset.useRetentionPeriod ? `${dataset.retentionDays} days` : <span className="muted">until trimmed</span>}</td>
                <td title={dataset.who}>{new Date(dataset.created).toLocaleString()}</td>
                <td className="actions">
                  <button type="button" className="button small" onClick={() => setPending({ action: 'trim', name: dataset.name })} aria-label={`Trim ${dataset.name}`}>
                    Trim
                  </button>{' '}
                  <button
                    type="button"
                    className="button small danger-button"
                    onClick={() => setPending({ action: 'delete', name: dataset.name })}
                    aria-label={`Delete ${dataset.name}`}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pending?.action === 'delete' && (
        <DeleteDatasetDialog
          name={pending.name}
          onClose={() => setPending(undefined)}
          onDeleted={() => {
            setNotice(`Dataset ${pending.name} deleted.`);
            setPending(undefined);
            reload();
          }}
        />
      )}
      {pending?.action === 'trim' && <TrimDialog name={pending.name} onClose={() => setPending(undefined)} />}
    </section>
  );
}
