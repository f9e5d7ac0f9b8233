// Creating or editing a notifier: its name, its channel and that channel's settings, and a pause.
// Secrets of a saved notifier start as the API masks them and are kept unless retyped.
import { Save } from 'lucide-react';
import { useId, useState } from 'react';
import { CHANNELS, type ChannelName, createNotifier, type Notifier, updateNotifier } from '../../api/monitors';
import { CHANNEL_FIELDS, CHANNEL_LABELS, type NotifierForm, notifierInputOf, withChannel } from './channel-fields';
import { messageOf } from './use-load';

interface PanelProps {
  existing: Notifier | undefined;
  initial: NotifierForm;
  onSaved(notifier: Notifier): void;
  onCancel(): void;
}

export function NotifierFormPanel({ existing, initial, onSaved, onCancel }: PanelProps) {
  const id = useId();
  const [form, setForm] = useState(initial);
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const setValue = (key: string, value: string | boolean) => setForm({ ...form, values: { ...form.values, [key]: value } });

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    try {
      const input = notifierInputOf(form);
      onSaved(existing ? await updateNotifier(existing.id, input) : await createNotifier(input));
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="notifier-form form-stack" onSubmit={save} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{existing ? `Edit ${existing.name}` : 'New notifier'}</h2>
      <label>
        Name
        <input required maxLength={255} value={form.name} onChange={(event) => setForm({ ...form, name: event.target.value })} />
      </label>
      <label>
        Channel
        <select value={form.channel} onChange={(event) => setForm(withChannel(form, event.target.value as ChannelName))}>
          {CHANNELS.map((channel) => (
            <option key={channel} value={channel}>
              {CHANNEL_LABELS[channel]}
            </option>
          ))}
        </select>
      </label>
      {CHANNEL_FIELDS[form.channel].map((field) => {
        const value = form.values[field.key];
        const hint = field.hint ? <span className="muted field-hint">{field.hint}</span> : null;
        if (field.kind === 'boolean') {
          return (
            <label key={field.key} className="check">
              <input type="checkbox" checked={value === true} onChange={(event) => setValue(field.key, event.target.checked)} />
              <span>{field.label}</span>
            </label>
          );
        }
        if (field.kind === 'list' || field.kind === 'headers' || field.kind === 'template') {
          return (
            <label key={field.key}>
              {field.label}
              <textarea
                className={field.kind === 'template' ? 'mono' : undefined}
                rows={field.kind === 'template' ? 6 : 3}
                required={field.required}
                spellCheck={false}
                value={String(value ?? '')}
                onChange={(event) => setValue(field.key, event.target.value)}
              />
              {hint}
            </label>
          );
        }
        const masked = field.kind === 'secret' && existing !== undefined && String(value ?? '').includes('*****');
        return (
          <label key={field.key}>
            {field.label}
            <input
              className="mono"
              required={field.required}
              autoComplete="off"
              spellCheck={false}
              value={String(value ?? '')}
              onChange={(event) => setValue(field.key, event.target.value)}
            />
            {masked ? <span className="muted field-hint">Shown masked; leave it as it is to keep the saved secret, or type a new one.</span> : hint}
          </label>
        );
      })}
      <label>
        Paused until
        <input type="datetime-local" value={form.disabledUntil} onChange={(event) => setForm({ ...form, disabledUntil: event.target.value })} />
        <span className="muted field-hint">Empty: active. While paused, its notifications are logged as skipped.</span>
      </label>
      {error ? <p className="error-box" role="alert">{error}</p> : null}
      <div className="toolbar">
        <button type="submit" className="button primary" disabled={saving}>
          <Save size={16} aria-hidden="true" />
          {saving ? 'Saving…' : existing ? 'Save' : 'Create notifier'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
