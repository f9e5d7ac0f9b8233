// A field's metadata as the fields API keeps it: unit, description and hidden are editable; name
// and type follow the data and are shown only.
import { type FormEvent, useEffect, useState } from 'react';
import { type DatasetField, updateField } from '../../../api/datasets';
import { ErrorBox } from '../ErrorBox';
import { errorMessage } from '../useLoaded';

export function FieldEditor({ dataset, field, onSaved }: { dataset: string; field: DatasetField; onSaved(field: DatasetField): void }) {
  const [unit, setUnit] = useState(field.unit);
  const [description, setDescription] = useState(field.description);
  const [hidden, setHidden] = useState(field.hidden);
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  // Another field starts a fresh form.
  useEffect(() => {
    setError(undefined);
    setSaved(false);
  }, [field.name]);
  // The stored values, when they arrive (the reload after a save included), replace the form's
  // without taking "Saved." away.
  useEffect(() => {
    setUnit(field.unit);
    setDescription(field.description);
    setHidden(field.hidden);
  }, [field.name, field.unit, field.description, field.hidden]);
  // An edit after a save is not saved yet.
  const edited = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setSaved(false);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      onSaved(await updateField(dataset, field.name, { unit, description, hidden }));
      setSaved(true);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const editable = !field.virtual;
  return (
    <form className="datasets-card" aria-label={`Field ${field.name}`} onSubmit={submit}>
      <h2>{field.name}</h2>
      <p className="muted">
        Type <code>{field.type || 'unknown'}</code>
        {field.mapField ? ' · map field (objects kept whole)' : ''}
        {field.virtual ? ' · virtual field (edit it under Virtual fields)' : ''}
      </p>
      <div className="form-stack">
        <label>
          Description
          <input value={description} onChange={(event) => edited(setDescription)(event.target.value)} maxLength={1024} disabled={!editable} />
        </label>
        <label>
          Unit
          <input value={unit} onChange={(event) => edited(setUnit)(event.target.value)} maxLength={64} placeholder="ms, bytes, %" disabled={!editable} />
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={hidden} onChange={(event) => edited(setHidden)(event.target.checked)} disabled={!editable} />
          Hidden
        </label>
      </div>
      <ErrorBox message={error} />
      {saved && <p role="status" className="muted">Saved.</p>}
      {editable && (
        <button type="submit" className="button primary" disabled={busy}>
          Save
        </button>
      )}
    </form>
  );
}
