// "Preview" in the monitor editor: replays the definition being edited over a chosen past period
// on the server (POST /v2/monitors/backtest: the scheduler's own evaluation, run by run), charts
// the query with the threshold, and lists the runs that would have opened or closed an alert.
import { Play } from 'lucide-react';
import { useState } from 'react';
import { backtestMonitor, type BacktestResult } from '../../api/monitors';
import { runApl, type TabularAnswer } from '../../api/query';
import { TimeRangeControl } from '../query/TimeRangeControl';
import type { TimeZoneChoice } from '../query/url-state';
import '../query/query.css';
import { formatNumber } from '../query/charts/plot-options';
import { wallTime } from './format';
import { inputOfForm, type MonitorForm } from './monitor-form';
import { PreviewChart } from './PreviewChart';
import { absoluteBound } from './preview-range';
import { messageOf } from './use-load';

interface PreviewProps {
  form: MonitorForm;
  monitorId: string | undefined;
  initialStart: string;
  initialEnd: string;
}

interface Outcome {
  result: BacktestResult;
  answer: TabularAnswer | undefined;
  /** The period previewed, epoch seconds. */
  period: [number, number];
  /** The definition previewed, to tell when the form has changed since. */
  definition: string;
}

export function BacktestPreview({ form, monitorId, initialStart, initialEnd }: PreviewProps) {
  const [range, setRange] = useState({ start: initialStart, end: initialEnd });
  const [zone, setZone] = useState<TimeZoneChoice>('local');
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [running, setRunning] = useState(false);

  const preview = async () => {
    const now = Date.now();
    const startTime = absoluteBound(range.start, now);
    const endTime = absoluteBound(range.end, now);
    if (!startTime || !endTime) {
      setError('Choose a period to preview: now-1h, or times like 2026-01-31 14:00:00');
      return;
    }
    setRunning(true);
    setError(undefined);
    try {
      const input = inputOfForm(form);
      const [result, answer] = await Promise.all([
        backtestMonitor(input, startTime, endTime, monitorId),
        form.type === 'MatchEvent' ? Promise.resolve(undefined) : runApl({ apl: form.aplQuery, startTime, endTime }).catch(() => undefined),
      ]);
      setOutcome({ result, answer, period: [Date.parse(result.startTime) / 1000, Date.parse(result.endTime) / 1000], definition: JSON.stringify(input) });
    } catch (caught) {
      setOutcome(undefined);
      setError(messageOf(caught));
    } finally {
      setRunning(false);
    }
  };

  const runs = outcome?.result.runs ?? [];
  const fired = runs.filter((run) => run.opened.length > 0);
  const closed = runs.filter((run) => run.closed.length > 0);
  const failed = runs.filter((run) => run.error);
  const threshold = form.type === 'Threshold' && form.threshold.trim() !== '' && Number.isFinite(Number(form.threshold)) ? Number(form.threshold) : undefined;

  return (
    <section className="monitor-preview" aria-labelledby="monitor-preview-title">
      <h2 id="monitor-preview-title">Preview</h2>
      <p className="muted">Replays this monitor's runs over a past period, as the scheduler would have run them, before you save it.</p>
      <div className="toolbar">
        <TimeRangeControl start={range.start} end={range.end} timeZone={zone} onChange={setRange} onTimeZoneChange={setZone} />
        <button type="button" className="button" onClick={preview} disabled={running || !form.aplQuery.trim()}>
          <Play size={16} aria-hidden="true" />
          {running ? 'Previewing…' : 'Preview'}
        </button>
      </div>
      {error ? <p className="error-box" role="alert">{error}</p> : null}
      {outcome ? (
        <>
          {outcome.definition !== JSON.stringify(inputOfForm(form)) ? (
            <p className="muted">The monitor changed since this preview: preview again to see its new runs.</p>
          ) : null}
          <p role="status" className="preview-summary">
            {runs.length} run{runs.length === 1 ? '' : 's'} replayed: {fired.length} would have fired, {closed.length} would have resolved
            {failed.length > 0 ? `, ${failed.length} could not query` : ''}.
          </p>
          {runs.length > 0 ? (
            <PreviewChart
              answer={outcome.answer}
              runs={runs}
              operator={form.type === 'MatchEvent' ? undefined : form.operator}
              threshold={threshold}
              useQuerySeries={form.type !== 'MatchEvent'}
              period={outcome.period}
            />
          ) : null}
          {fired.length > 0 ? (
            <>
              <h3 id="would-fire-title">Would have fired</h3>
              <ol className="fired-runs" aria-labelledby="would-fire-title">
                {fired.map((run) => (
                  <li key={run.dueAt} data-due-at={run.dueAt} data-window-end={run.endTime}>
                    <time dateTime={run.dueAt}>{wallTime(run.dueAt)}</time>
                    {run.value !== null ? <span className="mono"> value {formatNumber(run.value)}</span> : null}
                    <span className="muted"> {run.opened.join(', ')}</span>
                  </li>
                ))}
              </ol>
            </>
          ) : null}
          {failed.length > 0 ? <p className="error-box">{failed[0]!.error}</p> : null}
        </>
      ) : null}
    </section>
  );
}
