// "New dataset": every field the create API takes (name, description, kind, retention).
import { type FormEvent, useState } from 'react';
import { createDataset, DATASET_KINDS, type Dataset } from '../../../api/datasets';
import { ErrorBox } from '../ErrorBox';
import { errorMessage } from '../useLoaded';

export function NewDatasetForm({ onCreated, onCancel }: { onCreated(dataset: Dataset): void; onCancel(): void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [kind, setKind] = useState<string>(DATASET_KINDS[0]);
  const [retentionDays, setRetentionDays] = useState('0');
  const [useRetentionPeriod, setUseRetentionPeriod] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onCreated(await createDataset({ name: name.trim(), description, kind, retentionDays: Number(retentionDays) || 0, useRetentionPeriod }));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="datasets-card" aria-label="New dataset" onSubmit={submit}>
      <div className="form-stack">
        <label>
          Name
          <input value={name} onChange={(event) => setName(event.target.value)} required placeholder="web-logs" autoFocus />
        </label>
        <span className="muted">1 to 128 ASCII letters, digits and "-".</span>
        <label>
          Description
          <input value={description} onChange={(event) => setDescription(event.target.value)} maxLength={1024} />
        </label>
        <label>
          Kind
          <select value={kind} onChange={(event) => setKind(event.target.value)}>
            {DATASET_KINDS.map((candidate) => (
              <option key={candidate} value={candidate}>
                {candidate}
              </option>
            ))}
          </select>
        </label>
        <div className="form-row">
          <label>
            Retention (days)
            <input type="number" min={0} value={retentionDays} onChange={(event) => setRetentionDays(event.target.value)} />
          </label>
          <label className="checkbox">
            <input type="checkbox" checked={useRetentionPeriod} onChange={(event) => setUseRetentionPeriod(event.target.checked)} />
            Delete events older than the retention
          </label>
        </div>
      </div>
      <ErrorBox message={error} />
      <div className="toolbar">
        <button type="submit" className="button primary" disabled={busy}>
          Create dataset
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
