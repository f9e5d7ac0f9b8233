// Deleting a dataset removes its events for good, so the name must be typed to confirm.
import { type FormEvent, useState } from 'react';
import { deleteDataset } from '../../../api/datasets';
import { ErrorBox } from '../ErrorBox';
import { Dialog } from '../Dialog';
import { errorMessage } from '../useLoaded';

export function DeleteDatasetDialog({ name, onDeleted, onClose }: { name: string; onDeleted(): void; onClose(): void }) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (typed !== name) return;
    setBusy(true);
    try {
      await deleteDataset(name);
      onDeleted();
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <Dialog title={`Delete dataset ${name}`} onClose={onClose}>
      <form onSubmit={submit} className="form-stack">
        <p className="danger">This deletes the dataset, all its events, fields, map fields and virtual fields. It cannot be undone.</p>
        <label>
          Type the dataset's name to confirm
          <input value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" autoFocus />
        </label>
        <ErrorBox message={error} />
        <div className="toolbar">
          <button type="submit" className="button primary danger-button" disabled={typed !== name || busy}>
            Delete dataset
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
