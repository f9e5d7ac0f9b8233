// Runs every chart's query of a dashboard as one batch (`POST /v1/query/batch`) and keeps each
// chart's answer as it streams in: over the dashboard's time window, with the filter bar's
// values bound, again over the comparison period for time charts when `against` is set, and
// again every `refreshTime` seconds. A new run cancels the one before it.
import { useCallback, useEffect, useRef, useState } from 'react';
import { type BatchEntry, type DashboardChart, runQueryBatch } from '../../api/dashboards';
import type { TabularAnswer } from '../../api/query';
import type { ChartResult } from './charts/panel-types';
import { TIME_KINDS } from './document';
import { bindParameters } from './query-parameters';
import { againstMillis, requestBound, shiftedWindow } from './time-window';

const AGAINST_SUFFIX = '\u0000against';

export interface DashboardQueryInput {
  charts: DashboardChart[];
  start: string;
  end: string;
  against: string | undefined;
  refreshSeconds: number;
  filterValues: Readonly<Record<string, string>>;
}

/** What the batch depends on, as one comparable text (a chart's title or size does not rerun it). */
function runKey(input: DashboardQueryInput): string {
  const queries = input.charts.filter((chart) => typeof chart.query?.apl === 'string').map((chart) => [chart.id, chart.type, chart.query!.apl]);
  return JSON.stringify([queries, input.start, input.end, input.against ?? '', input.filterValues]);
}

export function useDashboardQueries(input: DashboardQueryInput): { results: Record<string, ChartResult>; refresh(): void; running: boolean; problem?: string } {
  const [results, setResults] = useState<Record<string, ChartResult>>({});
  const [running, setRunning] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const [tick, setTick] = useState(0);
  const inputRef = useRef(input);
  inputRef.current = input;
  const key = runKey(input);

  useEffect(() => {
    const { charts, start, end, against, filterValues } = inputRef.current;
    const controller = new AbortController();
    const shiftMs = againstMillis(against);
    const now = Date.now();
    const window = { startTime: requestBound(start), endTime: requestBound(end) };
    const past = shiftedWindow(start, end, shiftMs, now);
    const entries: BatchEntry[] = [];
    for (const chart of charts) {
      const apl = chart.query?.apl;
      if (typeof apl !== 'string') continue;
      const bound = bindParameters(apl, filterValues);
      entries.push({ queryId: chart.id, aplRequest: { apl: bound, ...window } });
      if (past && TIME_KINDS.has(chart.type)) entries.push({ queryId: chart.id + AGAINST_SUFFIX, aplRequest: { apl: bound, ...past } });
    }
    setResults((current) => {
      const next: Record<string, ChartResult> = {};
      for (const entry of entries) {
        if (entry.queryId.endsWith(AGAINST_SUFFIX)) continue;
        next[entry.queryId] = { ...(current[entry.queryId] ?? {}), loading: true };
        if (!past) delete next[entry.queryId]!.against;
      }
      return next;
    });
    setRunning(entries.length > 0);
    setProblem(undefined);
    runQueryBatch(
      entries,
      (outcome) => {
        const against = outcome.queryId.endsWith(AGAINST_SUFFIX);
        const chartId = against ? outcome.queryId.slice(0, -AGAINST_SUFFIX.length) : outcome.queryId;
        setResults((current) => {
          const previous = current[chartId] ?? { loading: true };
          if (against) {
            return 'data' in outcome ? { ...current, [chartId]: { ...previous, against: outcome.data as TabularAnswer, shiftSeconds: shiftMs / 1000 } } : current;
          }
          if ('error' in outcome) return { ...current, [chartId]: { loading: false, error: outcome.error.message } };
          const { error: _dropped, ...kept } = previous;
          return { ...current, [chartId]: { ...kept, loading: false, answer: outcome.data as TabularAnswer } };
        });
      },
      controller.signal,
    ).then(
      () => !controller.signal.aborted && setRunning(false),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setRunning(false);
        setProblem(error instanceof Error ? error.message : String(error));
      },
    );
    return () => controller.abort();
  }, [key, tick]);

  useEffect(() => {
    if (!(input.refreshSeconds > 0)) return;
    const timer = setInterval(() => setTick((count) => count + 1), input.refreshSeconds * 1000);
    return () => clearInterval(timer);
  }, [input.refreshSeconds, key]);

  const refresh = useCallback(() => setTick((count) => count + 1), []);
  return { results, refresh, running, ...(problem ? { problem } : {}) };
}
