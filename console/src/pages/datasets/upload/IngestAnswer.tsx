// The ingest API's answer to an upload: how many events were stored and failed, and each
// failure with the event's position (and line, when known), its time and the reason.
import type { IngestStatus } from '../../../api/datasets';
import { formatBytes } from './upload-format';

export function IngestAnswer({ status, lines }: { status: IngestStatus; lines?: Map<number, number> | undefined }) {
  return (
    <section className="ingest-answer" aria-label="Ingest answer">
      <p role="status">
        <span className="ok">{status.ingested.toLocaleString('en-US')} ingested</span>
        {', '}
        <span className={status.failed > 0 ? 'bad' : undefined}>{status.failed.toLocaleString('en-US')} failed</span>
        <span className="muted">
          {' '}
          · {formatBytes(status.processedBytes)} processed · {status.blocksCreated} {status.blocksCreated === 1 ? 'block' : 'blocks'} written
        </span>
      </p>
      {status.failures.length > 0 && (
        <table className="datasets-table" aria-label="Failures">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Line</th>
              <th scope="col">Event time</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {status.failures.map((failure, row) => (
              <tr key={row}>
                <td>{failure.index === undefined ? '—' : failure.index + 1}</td>
                <td>{(failure.index !== undefined && lines?.get(failure.index)) || '—'}</td>
                <td className="mono">{failure.timestamp}</td>
                <td>{failure.error}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
