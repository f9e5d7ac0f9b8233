// Trim: deletes the dataset's events older than a duration, and says how many went.
import { type FormEvent, useState } from 'react';
import { trimDataset } from '../../../api/datasets';
import { ErrorBox } from '../ErrorBox';
import { Dialog } from '../Dialog';
import { errorMessage } from '../useLoaded';

export function TrimDialog({ name, onClose }: { name: string; onClose(): void }) {
  const [duration, setDuration] = useState('720h');
  const [error, setError] = useState<string>();
  const [result, setResult] = useState<number>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      setResult((await trimDataset(name, duration.trim())).numDeleted);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={`Trim dataset ${name}`} onClose={onClose}>
      <form onSubmit={submit} className="form-stack">
        <label>
          Delete events older than
          <input value={duration} onChange={(event) => setDuration(event.target.value)} placeholder="720h, 30d, 1h30m" required />
        </label>
        <span className="muted">A duration such as 30d, 720h or 1h30m, counted back from now.</span>
        <ErrorBox message={error} />
        {result !== undefined && (
          <p role="status">
            {result.toLocaleString('en-US')} {result === 1 ? 'event' : 'events'} deleted.
          </p>
        )}
        <div className="toolbar">
          <button type="submit" className="button primary danger-button" disabled={busy}>
            Trim
          </button>
          <button type="button" className="button" onClick={onClose}>
            {result === undefined ? 'Cancel' : 'Close'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
