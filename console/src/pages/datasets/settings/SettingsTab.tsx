// The dataset's own settings: description and retention (editable), what the server says about
// it (kind, creator, dates, write access), vacuum, trim and delete.
import { type FormEvent, useState } from 'react';
import { type Dataset, updateDataset, vacuumDataset } from '../../../api/datasets';
import { ErrorBox } from '../ErrorBox';
import { DeleteDatasetDialog } from '../list/DeleteDatasetDialog';
import { TrimDialog } from '../list/TrimDialog';
import { errorMessage } from '../useLoaded';

export function SettingsTab({ dataset, onChanged, onDeleted }: { dataset: Dataset; onChanged(dataset: Dataset): void; onDeleted(): void }) {
  const [description, setDescription] = useState(dataset.description);
  const [retentionDays, setRetentionDays] = useState(String(dataset.retentionDays));
  const [useRetentionPeriod, setUseRetentionPeriod] = useState(dataset.useRetentionPeriod);
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState('');
  const [dialog, setDialog] = useState<'trim' | 'delete'>();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setNotice('');
    try {
      onChanged(await updateDataset(dataset.name, { description, retentionDays: Number(retentionDays) || 0, useRetentionPeriod }));
      setNotice('Saved.');
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  const vacuum = async () => {
    setError(undefined);
    setNotice('');
    try {
      const { fieldsRemoved } = await vacuumDataset(dataset.name);
      setNotice(fieldsRemoved.length === 0 ? 'Vacuum done: every field is still in use.' : `Vacuum removed ${fieldsRemoved.join(', ')}.`);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <dl className="stats-list">
        <div>
          <dt>Kind</dt>
          <dd className="mono">{dataset.kind}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{new Date(dataset.created).toLocaleString()}</dd>
        </div>
        <div>
          <dt>Created by</dt>
          <dd>{dataset.who}</dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>{new Date(dataset.updatedAt).toLocaleString()}</dd>
        </div>
        <div>
          <dt>You may ingest</dt>
          <dd>{dataset.canWrite ? 'yes' : 'no'}</dd>
        </div>
      </dl>
      <form className="datasets-card" onSubmit={save} aria-label="Dataset settings">
        <div className="form-stack">
          <label>
            Description
            <input value={description} onChange={(event) => setDescription(event.target.value)} maxLength={1024} />
          </label>
          <div className="form-row">
            <label>
              Retention (days)
              <input type="number" min={0} value={retentionDays} onChange={(event) => setRetentionDays(event.target.value)} />
            </label>
            <label className="checkbox">
              <input type="checkbox" checked={useRetentionPeriod} onChange={(event) => setUseRetentionPeriod(event.target.checked)} />
              Delete events older than the retention (hourly)
            </label>
          </div>
        </div>
        <button type="submit" className="button primary">
          Save
        </button>
      </form>
      <ErrorBox message={error} />
      <p role="status" className="muted">
        {notice}
      </p>
      <div className="toolbar">
        <button type="button" className="button" onClick={() => void vacuum()}>
          Vacuum fields
        </button>
        <button type="button" className="button" onClick={() => setDialog('trim')}>
          Trim
        </button>
        <button type="button" className="button danger-button" onClick={() => setDialog('delete')}>
          Delete dataset
        </button>
      </div>
      {dialog === 'trim' && <TrimDialog name={dataset.name} onClose={() => setDialog(undefined)} />}
      {dialog === 'delete' && <DeleteDatasetDialog name={dataset.name} onClose={() => setDialog(undefined)} onDeleted={onDeleted} />}
    </section>
  );
}
