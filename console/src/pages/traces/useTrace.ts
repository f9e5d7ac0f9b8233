// Loads a trace for its page: the spans (from the dataset the link names when it holds spans,
// asked at once, beside the lookup of datasets; else from every dataset that does; only the
// fields the waterfall draws) built into the span tree, and, beside them, the log events that
// carry its id in any dataset with a trace id field, asked once the waterfall is painted, so they
// do not compete with it. A new trace or range aborts what was loading.
import { useEffect, useState } from 'react';
import { type DatasetRows, fetchTraceLogs, fetchTraceSpans, type TraceDataset, traceDatasets, type TraceRange } from '../../api/traces';
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

interface LoadedSpans {
  answers: DatasetRows[];
  tree: TraceTree;
}

/** The span tree of the answers (timed on the page's performance timeline, which bench/waterfall.ts reads). */
function treeOf(answers: DatasetRows[]): LoadedSpans {
  const began = performance.now();
  const tree = buildTraceTree(readSpans(answers));
  performance.measure('trace tree built', { start: began, end: performance.now() });
  return { answers, tree };
}

/** Resolves after the next frame is painted (at once where there are no frames). */
const afterNextPaint = () =>
  new Promise<void>((resolve) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => setTimeout(resolve, 0)) : resolve()));

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The requests a trace starts with: the list of datasets, and the spans of the dataset the link names. */
interface FirstRequests {
  key: string;
  /** Aborts them all. */
  controller: AbortController;
  sources: Promise<TraceDataset[]>;
  /** Aborts the early spans query alone, when the dataset named turns out not to hold spans. */
  early: AbortController;
  /**
   * The early spans built into their tree as soon as they arrive: React may commit the page some
   * time later (see useTrace), and the tree is ready by then rather than started then.
   */
  earlySpans: Promise<LoadedSpans> | undefined;
  /** The effect has them. */
  taken: boolean;
}

function startRequests(key: string, traceId: string, dataset: string | undefined, bounds: TraceRange): FirstRequests {
  const controller = new AbortController();
  const sources = traceDatasets(controller.signal);
  // Read later, after the spans: handled now, so a failure or an abort meanwhile is not reported as unhandled.
  sources.catch(() => undefined);
  // Most links name the dataset that holds the spans: they are asked there before the list says so.
  const early = new AbortController();
  controller.signal.addEventListener('abort', () => early.abort());
  const earlySpans = dataset === undefined ? undefined : fetchTraceSpans(traceId, [dataset], bounds, early.signal).then(treeOf);
  earlySpans?.catch(() => undefined);
  return { key, controller, sources, early, earlySpans, taken: false };
}

/** The requests of the trace being opened, until its page's effect takes them. */
let pendingRequests: FirstRequests | undefined;

export function useTrace(traceId: string, dataset: string | undefined, range: TraceRange | undefined) {
  const [spans, setSpans] = useState<SpansState>({ phase: 'loading' });
  const [logs, setLogs] = useState<LogsState>({ phase: 'loading' });
  const start = range?.start;
  const end = range?.end;

  // The first requests start while the page renders, not in the effect: React may hold back the
  // first commit of a page loaded on demand for a moment (it reveals suspended content in
  // batches), and effects wait for that commit. The effect takes them over. They are kept outside
  // the component: a render React throws away (a suspended one) loses its refs, and the render
  // that follows must find the requests already sent rather than send them again.
  const requestKey = JSON.stringify([traceId, dataset, start, end]);
  if (start && end && (pendingRequests?.key !== requestKey || pendingRequests.controller.signal.aborted)) {
    if (pendingRequests && !pendingRequests.taken) pendingRequests.controller.abort();
    pendingRequests = startRequests(requestKey, traceId, dataset, { start, end });
  }

  useEffect(() => {
    if (!start || !end) return undefined;
    const bounds = { start, end };
    const started = pendingRequests;
    const { controller, sources, early, earlySpans } =
      started && started.key === requestKey && !started.taken ? started : startRequests(requestKey, traceId, dataset, bounds);
    if (started) started.taken = true;
    const { signal } = controller;
    setSpans({ phase: 'loading' });
    setLogs({ phase: 'loading' });
    const spansLoaded = sources.then((list) => {
      const names = spanDatasetsFor(dataset, list);
      if (earlySpans && names.length === 1 && names[0] === dataset) return earlySpans.then((spans) => ({ names, ...spans }));
      early.abort();
      return fetchTraceSpans(traceId, names, bounds, signal).then((answers) => ({ names, ...treeOf(answers) }));
    });
    const spansShown = spansLoaded.then(
      ({ names, answers, tree }) => {
        if (signal.aborted) return;
        setSpans({ phase: 'done', tree, datasets: names, truncated: answers.some((answer) => answer.truncated) });
      },
      (error: unknown) => {
        if (!signal.aborted) setSpans({ phase: 'error', message: messageOf(error) });
      },
    );
    // The logs wait for the waterfall, which the page draws first.
    spansShown
      .then(afterNextPaint)
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
  }, [requestKey, traceId, dataset, start, end]);

  return { spans, logs };
}
