// A dataset's event count and newest event time in the list, each row asking for its own.
import { loadDatasetStats } from '../dataset-stats';
import { useLoaded } from '../useLoaded';

export function EventCount({ dataset }: { dataset: string }) {
  const [stats] = useLoaded((signal) => loadDatasetStats(dataset, signal), [dataset]);
  if (stats.phase === 'loading') return <span className="muted">…</span>;
  if (stats.phase === 'error') return <span className="muted" title={stats.message}>—</span>;
  const { events, latest } = stats.value;
  return (
    <span title={latest ? `Newest event ${new Date(latest).toLocaleString()}` : 'No events'}>
      {events.toLocaleString('en-US')}
      {latest && <span className="muted"> · newest {new Date(latest).toLocaleString()}</span>}
    </span>
  );
}
