// The log events that carry the trace's id, from every dataset that has a trace id field, in
// time order beside the waterfall. An entry opens to its JSON; one written inside a span of this
// trace can show that span.
import { formatTime } from '../query/cells';
import { formatCount, formatNanos } from './format';
import type { TraceLog } from './log-model';
import { type Instant, nanosBetween } from './time-ns';

export type LogsState =
  | { phase: 'loading' }
  | { phase: 'error'; message: string }
  | { phase: 'done'; logs: TraceLog[]; truncated: string[]; refused: { dataset: string; message: string }[] };

export interface TraceLogsProps {
  state: LogsState;
  /** Span ids of this trace, to offer "Show span" for the logs written in one. */
  spanIds: ReadonlySet<string>;
  /** When the trace starts, to show each log's offset from it. */
  traceStart: Instant | undefined;
  onSelectSpan(spanId: string): void;
}

const severityClass = (severity: string) => {
  const level = severity.toLowerCase();
  if (/err|fatal|crit|alert|emerg/.test(level)) return 'severity-error';
  if (/warn/.test(level)) return 'severity-warn';
  return '';
};

export function TraceLogs({ state, spanIds, traceStart, onSelectSpan }: TraceLogsProps) {
  return (
    <section className="trace-logs" aria-labelledby="trace-logs-title">
      <h2 id="trace-logs-title">Logs{state.phase === 'done' ? ` (${state.logs.length.toLocaleString('en-US')})` : ''}</h2>
      {state.phase === 'loading' ? <p className="muted">Looking for logs with this trace id…</p> : null}
      {state.phase === 'error' ? (
        <div className="error-box" role="alert">
          {state.message}
        </div>
      ) : null}
      {state.phase === 'done' && state.logs.length === 0 ? <p className="muted">No log events carry this trace id in the time range.</p> : null}
      {state.phase === 'done' && state.logs.length > 0 ? (
        <ol className="trace-log-list" aria-label="Logs of this trace">
          {state.logs.map((log, index) => (
            <li key={index}>
              <details>
                <summary>
                  <span className="mono muted log-time" title={formatTime(log.time, 'local')}>
                    {traceStart && log.at ? `+${formatNanos(nanosBetween(traceStart, log.at))}` : formatTime(log.time, 'local')}
                  </span>
                  {log.severity ? <span className={`log-severity ${severityClass(log.severity)}`}>{log.severity}</span> : null}
                  {log.service ? <span className="log-service">{log.service}</span> : null}
                  <span className="log-message">{log.message}</span>
                </summary>
                <div className="log-body">
                  <p className="muted">
                    {formatTime(log.time, 'local')} in {log.dataset}
                    {log.spanId ? `, span ${log.spanId}` : ''}
                  </p>
                  {log.spanId && spanIds.has(log.spanId) ? (
                    <button type="button" className="button small" onClick={() => onSelectSpan(log.spanId!)}>
                      Show its span
                    </button>
                  ) : null}
                  <pre className="log-json" tabIndex={0} aria-label="Log event JSON">
                    {JSON.stringify(log.event, null, 2)}
                  </pre>
                </div>
              </details>
            </li>
          ))}
        </ol>
      ) : null}
      {state.phase === 'done' && state.truncated.length > 0 ? <p className="muted">Only the first logs of {state.truncated.join(', ')} are listed.</p> : null}
      {state.phase === 'done' && state.refused.length > 0 ? (
        <p className="muted">
          Not searched ({formatCount(state.refused.length, 'dataset', 'datasets')}): {state.refused.map((entry) => `${entry.dataset}: ${entry.message}`).join('; ')}
        </p>
      ) : null}
    </section>
  );
}
