// A batch of queries (`POST /v1/query/batch`): each entry is `{queryId, aplRequest}` or
// `{queryId, mplRequest}`, run at most `maxConcurrency` at a time, each answer handed over as
// soon as it is ready. A query that fails does not fail the batch: its outcome is an error with
// the status and message the query alone would have got. The caller supplies how each kind of
// query runs (APL over events, MPL over metrics).
import type { TabularResponse } from '../apl';
import type { Principal } from '../auth/principal';
import { describeError, invalidInput } from '../errors';

export const MAX_BATCH_CONCURRENCY = 20;
export const DEFAULT_BATCH_CONCURRENCY = 10;
export const MAX_BATCH_QUERIES = 100;

export type BatchOutcome =
  | { queryId: string; kind: 'apl'; data: TabularResponse }
  | { queryId: string; kind: 'mpl'; data: unknown }
  | { queryId: string; kind: 'apl' | 'mpl'; error: { code: number; message: string } };

/** How the batch runs each kind of query: `apl` answers the tabular shape, `mpl` the metrics one. */
export interface BatchRunners {
  apl(principal: Principal, request: unknown): Promise<TabularResponse>;
  mpl(principal: Principal, request: unknown): Promise<unknown>;
}

interface BatchEntry {
  queryId: string;
  kind: 'apl' | 'mpl';
  request: unknown;
}

/** Checks the shape of a batch before anything runs (a bad batch is one 400). */
export function parseBatch(body: unknown): BatchEntry[] {
  if (!Array.isArray(body)) throw invalidInput('the body must be an array of {queryId, aplRequest} or {queryId, mplRequest} objects');
  if (body.length > MAX_BATCH_QUERIES) throw invalidInput(`a batch may hold at most ${MAX_BATCH_QUERIES} queries (got ${body.length})`);
  const seen = new Set<string>();
  return body.map((item: unknown, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalidInput(`batch entry ${index} is not an object`);
    const entry = item as Record<string, unknown>;
    if (typeof entry.queryId !== 'string' || entry.queryId === '') throw invalidInput(`batch entry ${index} needs a queryId string`);
    if (seen.has(entry.queryId)) throw invalidInput(`queryId "${entry.queryId}" appears more than once in the batch`);
    seen.add(entry.queryId);
    const hasApl = entry.aplRequest !== undefined && entry.aplRequest !== null;
    const hasMpl = entry.mplRequest !== undefined && entry.mplRequest !== null;
    if (hasApl === hasMpl) throw invalidInput(`batch entry "${entry.queryId}" must set exactly one of aplRequest and mplRequest`);
    return { queryId: entry.queryId, kind: hasApl ? 'apl' : 'mpl', request: hasApl ? entry.aplRequest : entry.mplRequest };
  });
}

/** Reads `maxConcurrency` (1 to 20, default 10). */
export function batchConcurrency(parameter: string | undefined): number {
  if (parameter === undefined || parameter === '') return DEFAULT_BATCH_CONCURRENCY;
  const value = Number(parameter);
  if (!Number.isInteger(value) || value < 1 || value > MAX_BATCH_CONCURRENCY) {
    throw invalidInput(`maxConcurrency must be a whole number from 1 to ${MAX_BATCH_CONCURRENCY} (got "${parameter}")`);
  }
  return value;
}

async function runOne(runners: BatchRunners, principal: Principal, entry: BatchEntry): Promise<BatchOutcome> {
  try {
    if (entry.kind === 'mpl') return { queryId: entry.queryId, kind: 'mpl', data: await runners.mpl(principal, entry.request) };
    return { queryId: entry.queryId, kind: 'apl', data: await runners.apl(principal, entry.request) };
  } catch (error) {
    const { status, message, expected } = describeError(error);
    if (!expected) throw error;
    return { queryId: entry.queryId, kind: entry.kind, error: { code: status, message } };
  }
}

/**
 * Runs the entries, calling `emit` with each outcome in the order they finish. Stops starting
 * new queries once `stopped()` says the caller went away.
 */
export async function runBatch(
  runners: BatchRunners,
  principal: Principal,
  entries: BatchEntry[],
  concurrency: number,
  emit: (outcome: BatchOutcome) => void,
  stopped: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < entries.length && !stopped()) {
      const entry = entries[next++]!;
      let outcome: BatchOutcome;
      try {
        outcome = await runOne(runners, principal, entry);
      } catch {
        outcome = { queryId: entry.queryId, kind: entry.kind, error: { code: 500, message: 'internal server error' } };
      }
      if (!stopped()) emit(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, entries.length) }, worker));
}
