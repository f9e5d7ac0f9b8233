// The form behind a chart's "Add annotation": the time picked on the chart (editable), a type,
// a title and a description, saved over the chart's datasets through the annotations API.
import { useId, useState } from 'react';
import { createAnnotation } from '../../../api/dashboards';
import type { TimeZone } from '../../query/charts/plot-options';
import { formatWallTime, parseBound } from '../../query/time-range';

export interface AnnotationFormProps {
  time: Date;
  datasets: string[];
  timeZone: TimeZone;
  onDone(added: boolean): void;
}

export function AnnotationForm({ time, datasets, timeZone, onDone }: AnnotationFormProps) {
  const id = useId();
  const [when, setWhen] = useState(() => formatWallTime(time, timeZone));
  const [type, setType] = useState('note');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const at = parseBound(when, timeZone);
    if (!at || at.startsWith('now')) {
      setProblem('Give the time as 2026-01-31 14:00:00');
      return;
    }
    setBusy(true);
    try {
      await createAnnotation({ type, datasets, time: at, ...(title ? { title } : {}), ...(description ? { description } : {}) });
      onDone(true);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
      setBusy(false);
    }
  };

  return (
    <form className="form-stack dashboard-inline-form" aria-labelledby={`${id}-title`} onSubmit={submit}>
      <h3 id={`${id}-title`}>New annotation on {datasets.join(', ') || 'no dataset'}</h3>
      <label>
        Time ({timeZone === 'UTC' ? 'UTC' : 'local time'})
        <input value={when} onChange={(event) => setWhen(event.target.value)} required />
      </label>
      <label>
        Type
        <input value={type} onChange={(event) => setType(event.target.value)} pattern="[a-z0-9\-]+" required />
      </label>
      <label>
        Title
        <input value={title} onChange={(event) => setTitle(event.target.value)} />
      </label>
      <label>
        Description
        <input value={description} onChange={(event) => setDescription(event.target.value)} />
      </label>
      {problem ? (
        <p className="error-box" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="toolbar">
        <button type="submit" className="button primary" disabled={busy || datasets.length === 0}>
          Save annotation
        </button>
        <button type="button" className="button" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
