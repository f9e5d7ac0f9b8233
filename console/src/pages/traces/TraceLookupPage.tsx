// The traces area without a trace: type or paste a trace id, choose where and how far back to
// look, and open its waterfall.
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { traceDatasets, type TraceDataset } from '../../api/traces';
import { tracePath } from './trace-link';
import './traces.css';

const LOOK_BACK = [
  { label: 'Last hour', start: 'now-1h' },
  { label: 'Last 24 hours', start: 'now-24h' },
  { label: 'Last 7 days', start: 'now-7d' },
  { label: 'Last 30 days', start: 'now-30d' },
];

export function TraceLookupPage() {
  const { org = '' } = useParams();
  const navigate = useNavigate();
  const [traceId, setTraceId] = useState('');
  const [dataset, setDataset] = useState('');
  const [start, setStart] = useState('now-24h');
  const [datasets, setDatasets] = useState<TraceDataset[]>([]);
  const [problem, setProblem] = useState('');

  useEffect(() => {
    const controller = new AbortController();
    traceDatasets(controller.signal).then(
      (list) => setDatasets(list.filter((entry) => entry.holdsSpans)),
      (error: unknown) => !controller.signal.aborted && setProblem(error instanceof Error ? error.message : String(error)),
    );
    return () => controller.abort();
  }, []);

  const open = (event: React.FormEvent) => {
    event.preventDefault();
    const id = traceId.trim();
    if (!/^[0-9a-fA-F]+$/.test(id)) {
      setProblem('A trace id is hexadecimal, as OpenTelemetry writes it (32 digits).');
      return;
    }
    navigate(tracePath(org, { traceId: id, dataset: dataset || undefined, start, end: 'now' }));
  };

  return (
    <section className="page trace-lookup">
      <div className="page-header">
        <h1>Traces</h1>
      </div>
      <p className="muted">Open a trace by its id, or click a trace_id in the results of the Query page or an event of the Stream page.</p>
      <form className="form-stack trace-lookup-form" onSubmit={open}>
        <label>
          Trace ID
          <input className="mono" value={traceId} onChange={(event) => setTraceId(event.target.value)} placeholder="5b8efff798038103d269b633813fc60c" required />
        </label>
        <label>
          Dataset
          <select value={dataset} onChange={(event) => setDataset(event.target.value)}>
            <option value="">Every dataset with spans</option>
            {datasets.map((entry) => (
              <option key={entry.name} value={entry.name}>
                {entry.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Time range
          <select value={start} onChange={(event) => setStart(event.target.value)}>
            {LOOK_BACK.map((choice) => (
              <option key={choice.start} value={choice.start}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
        {problem ? (
          <div className="error-box" role="alert">
            {problem}
          </div>
        ) : null}
        <div>
          <button type="submit" className="button primary">
            Open trace
          </button>
        </div>
      </form>
    </section>
  );
}
