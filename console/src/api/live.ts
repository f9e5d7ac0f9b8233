// The live tail: a GraphQL subscription over server-sent events (one connection per tail) that
// reports its connection state, reconnects with a growing delay when the stream drops, and
// stops for good on an answer that retrying cannot change (no rights, unknown dataset, bad filter);
// a refusal for holding too many tails is retried, as a tail just closed may not be released yet.
import { createClient, NetworkError } from 'graphql-sse';
import { apiHeaders } from './client';

/** One stored event, as the server sends it (the legacy query's matches: _time, _sysTime, _rowId, data). */
export interface LiveEvent {
  time: string;
  sysTime: string;
  rowId: string;
  data: Record<string, unknown>;
}

export interface LiveBatch {
  events: LiveEvent[];
  /** Events the server left out since the previous batch because the reader fell behind. */
  skipped: number;
}

export type LiveState =
  | { kind: 'connecting' }
  | { kind: 'live' }
  | { kind: 'reconnecting'; attempt: number; reason: string }
  | { kind: 'error'; message: string };

export interface LiveTailHandlers {
  onBatch(batch: LiveBatch): void;
  onState(state: LiveState): void;
}

export interface LiveTailRequest {
  dataset: string;
  filter?: string;
}

// `events` is a list of JSON values, each one event in the shape of LiveEvent.
const SUBSCRIPTION = `subscription LiveTail($dataset: String!, $filter: String) {
  liveEvents(dataset: $dataset, filter: $filter) { skipped events }
}`;

/** The delay before reconnection attempt `attempt` (1-based): 1 s doubling to `maxMs` (30 s), with jitter. */
export function reconnectDelayMs(attempt: number, maxMs = 30_000): number {
  const base = Math.min(maxMs, 1000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/** The longest wait between attempts while the server refuses the tail for a cap on tails. */
const CAPPED_RETRY_MAX_MS = 5_000;

/** Statuses worth trying again later; other 4xx answers will not change by waiting. */
const RETRYABLE_STATUSES = new Set([408, 425, 429]);

interface Failure {
  message: string;
  retryable: boolean;
}

async function failureOf(error: unknown): Promise<Failure> {
  if (error instanceof NetworkError) {
    const response = error.response as Response | undefined;
    if (!response) return { message: 'connection lost', retryable: true };
    let message = `${response.status} ${response.statusText}`.trim();
    try {
      const body = (await response.json()) as { message?: string; error?: string; errors?: { message?: string }[] };
      message = body.message ?? body.error ?? body.errors?.[0]?.message ?? message;
    } catch {
      // Not JSON: keep the status line.
    }
    const retryable = response.status >= 500 || RETRYABLE_STATUSES.has(response.status);
    return { message, retryable };
  }
  if (error instanceof Error) return { message: error.message, retryable: true };
  if (Array.isArray(error)) return { message: String((error[0] as { message?: unknown } | undefined)?.message ?? 'subscription failed'), retryable: false };
  return { message: String(error), retryable: true };
}

/**
 * Opens the tail and keeps it open until the returned function is called. Batches arrive as the
 * server sends them; the state goes connecting → live, reconnecting while the stream is down, and
 * error when the server refused the subscription with a message.
 */
export function openLiveTail(request: LiveTailRequest, handlers: LiveTailHandlers): () => void {
  let stopped = false;
  let disposeSubscription: (() => void) | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;

  const client = createClient({
    url: '/graphql',
    headers: () => apiHeaders('POST'),
    credentials: 'same-origin',
    singleConnection: false,
    // Reconnection is done here, so the page can show it and tell lasting refusals apart.
    retryAttempts: 0,
  });

  const scheduleReconnect = (reason: string, maxDelayMs?: number) => {
    if (stopped) return;
    attempt += 1;
    handlers.onState({ kind: 'reconnecting', attempt, reason });
    retryTimer = setTimeout(connect, reconnectDelayMs(attempt, maxDelayMs));
  };

  const connect = () => {
    if (stopped) return;
    let refused: string | undefined;
    // A cap on tails is reached only for a while: one just closed may not be released yet.
    let capped = false;
    // While reconnecting, the state keeps saying why until the connection is back.
    if (attempt === 0) handlers.onState({ kind: 'connecting' });
    disposeSubscription = client.subscribe<{ liveEvents: LiveBatch }>(
      { query: SUBSCRIPTION, variables: { dataset: request.dataset, filter: request.filter || null } },
      {
        next(result) {
          if (stopped) return;
          if (result.errors?.length) {
            refused = result.errors.map((error) => error.message).join('; ');
            capped = result.errors.every((error) => error.extensions?.code === 'LIMIT_EXCEEDED');
            return;
          }
          const batch = result.data?.liveEvents;
          if (!batch) return;
          attempt = 0;
          handlers.onBatch(batch);
        },
        error(error) {
          if (stopped) return;
          void failureOf(error).then((failure) => {
            if (stopped) return;
            if (failure.retryable) scheduleReconnect(failure.message);
            else handlers.onState({ kind: 'error', message: failure.message });
          });
        },
        complete() {
          if (stopped) return;
          if (refused !== undefined && !capped) handlers.onState({ kind: 'error', message: refused });
          // A place under the cap frees as soon as another tail of the same holder closes: ask
          // again every few seconds (one small request) rather than backing off to half a minute.
          else if (refused !== undefined) scheduleReconnect(refused, CAPPED_RETRY_MAX_MS);
          else scheduleReconnect('the server ended the stream');
        },
      },
      {
        connected() {
          if (!stopped) handlers.onState({ kind: 'live' });
        },
      },
    );
  };

  connect();
  return () => {
    stopped = true;
    if (retryTimer !== undefined) clearTimeout(retryTimer);
    disposeSubscription?.();
    client.dispose();
  };
}
