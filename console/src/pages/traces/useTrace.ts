// Loads a trace for its page: the spans (from the dataset the link names when it holds spans,
// else from every dataset that does) built into the span tree, and, beside them, the log events that carry
// its id in any dataset with a trace id field, asked once the spans are in. A new trace or range
// aborts what was loading.
import { useEffect, useState } from 'react';
import { fetchTraceLogs, fetchTraceSpans, type TraceDataset, traceDatasets, type TraceRange } from '../../api/traces';
import { readLogs } from './log-model';
import { readSpans } from './span-model';
import { buildTraceTree, type TraceTree } from './span-tree';
import type { LogsState } from './TraceLogs';

export type SpansState =
  | { phase: 'loading' }
  | { phase: 'error'; message: string }
  | { phase: 'done'; tree: TraceTree; datasets: string[]; truncated: boolean };

/**
 * Where to read the spans: the dataset the link names when it holds spans; every dataset that
 * does when it names none, or one that only carries trace ids (a logs dataset); a dataset not
 * listed is asked anyway, so the server says what is wrong with it.
 */
function spanDatasetsFor(named: string | undefined, list: TraceDataset[]): string[] {
  const entry = named === undefined ? undefined : list.find((candidate) => candidate.name === named);
  if (named !== undefined && (entry === undefined || entry.holdsSpans)) return [named];
  return list.filter((candidate) => candidate.holdsSpans).map((candidate) => candidate.name);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function useTrace(traceId: string, dataset: string | undefined, range: TraceRange | undefined) {
  const [spans, setSpans] = useState<SpansState>({ phase: 'loading' });
  const [logs, setLogs] = useState<LogsState>({ phase: 'loading' });
  const start = range?.start;
  const end = range?.end;

  useEffect(() => {
    if (!start || !end) return undefined;
    const bounds = { start, end };
    const controller = new AbortController();
    const { signal } = controller;
    setSpans({ phase: 'loading' });
    setLogs({ phase: 'loading' });
    const sources = traceDatasets(signal);
    // Read later, after the spans: handled now, so a failure or an abort meanwhile is not reported as unhandled.
    sources.catch(() => undefined);
    const spanDatasets = sources.then((list) => spanDatasetsFor(dataset, list));
    const spansLoaded = spanDatasets.then((names) => fetchTraceSpans(traceId, names, bounds, signal).then((answers) => ({ names, answers })));
    spansLoaded
      .then(
        ({ names, answers }) => {
          if (signal.aborted) return;
          const tree = buildTraceTree(readSpans(answers));
          setSpans({ phase: 'done', tree, datasets: names, truncated: answers.some((answer) => answer.truncated) });
        },
        (error: unknown) => !signal.aborted && setSpans({ phase: 'error', message: messageOf(error) }),
      );
    // The logs wait for the spans, which the page draws first.
    spansLoaded
      .catch(() => undefined)
      .then(() => sources)
      .then((list) => fetchTraceLogs(traceId, list, bounds, signal))
      .then(
        (answer) => {
          if (signal.aborted) return;
          setLogs({ phase: 'done', logs: readLogs(answer.found), truncated: answer.found.filter((entry) => entry.truncated).map((entry) => entry.dataset), refused: answer.refused });
        },
        (error: unknown) => !signal.aborted && setLogs({ phase: 'error', message: messageOf(error) }),
      );
    return () => controller.abort();
  }, [traceId, dataset, start, end]);

  return { spans, logs };
}
