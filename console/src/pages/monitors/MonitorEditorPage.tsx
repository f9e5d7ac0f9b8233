// One editor for the three kinds of monitor (threshold, match, anomaly), new or existing: every
// field of /v2/monitors, the notifiers to tell, and a preview of where it would have fired before
// saving. `new?apl=…&start=…&end=…` (the Query page's "Create monitor") starts from that query.
import { Save } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { createMonitor, getMonitor, listNotifiers, type Monitor, updateMonitor } from '../../api/monitors';
import { handedQuery } from '../query/hand-off';
import { BacktestPreview } from './BacktestPreview';
import { emptyForm, formOf, inputOfForm, type MonitorForm } from './monitor-form';
import { MonitorFields } from './MonitorFields';
import { messageOf, useLoad } from './use-load';

export function MonitorEditorPage() {
  const { org = '', id } = useParams();
  const base = `/${encodeURIComponent(org)}/monitors`;
  const monitor = useLoad((signal) => (id ? getMonitor(id, signal) : Promise.resolve(undefined)), [id]);
  if (id && monitor.error) {
    return (
      <section className="page">
        <h1>Edit monitor</h1>
        <p className="error-box" role="alert">{monitor.error}</p>
        <Link to={base}>Back to monitors</Link>
      </section>
    );
  }
  if (id && !monitor.data) return <div className="page-loading" role="status">Loading…</div>;
  return <Editor key={id ?? 'new'} existing={monitor.data} base={base} />;
}

function Editor({ existing, base }: { existing: Monitor | undefined; base: string }) {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const handed = existing ? undefined : handedQuery(search);
  const [form, setForm] = useState<MonitorForm>(() => (existing ? formOf(existing) : emptyForm(handed)));
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const notifiers = useLoad((signal) => listNotifiers(signal), []);

  useEffect(() => {
    document.title = existing ? `Edit ${existing.name} · eventdeck` : 'New monitor · eventdeck';
  }, [existing]);

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    try {
      const input = inputOfForm(form);
      const saved = existing ? await updateMonitor(existing.id, input) : await createMonitor(input);
      navigate(`${base}/${encodeURIComponent(saved.id)}`);
    } catch (caught) {
      setError(messageOf(caught));
      setSaving(false);
    }
  };

  return (
    <section className="page monitor-editor">
      <header className="page-header">
        <h1>{existing ? `Edit monitor` : 'New monitor'}</h1>
        <div className="toolbar">
          <Link className="button" to={existing ? `${base}/${encodeURIComponent(existing.id)}` : base}>
            Cancel
          </Link>
        </div>
      </header>
      <form onSubmit={save} className="monitor-form" aria-label={existing ? `Edit ${existing.name}` : 'New monitor'}>
        <MonitorFields form={form} onChange={setForm} notifiers={notifiers.data} notifiersError={notifiers.error} />
        <BacktestPreview form={form} monitorId={existing?.id} initialStart={handed?.start ?? 'now-1h'} initialEnd={handed?.end ?? 'now'} />
        {error ? <p className="error-box" role="alert">{error}</p> : null}
        <div className="toolbar form-actions">
          <button type="submit" className="button primary" disabled={saving}>
            <Save size={16} aria-hidden="true" />
            {saving ? 'Saving…' : existing ? 'Save' : 'Create monitor'}
          </button>
        </div>
      </form>
    </section>
  );
}
