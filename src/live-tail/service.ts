// The live tail as the doors see it: open a stream of a dataset's new events for a caller, and
// the signal ingest gives after storing events. Built once in src/services.ts.
import type { Logger } from 'pino';
import type { Principal } from '../auth/principal';
import type { AplLimits } from '../config';
import type { DatasetService } from '../datasets/datasets';
import type { WrittenRows } from '../ingest/dataset-events';
import type { QueryService } from '../queries/query-service';
import { LiveTailAccess } from './access';
import { LiveTailHub, type LiveTailSettings } from './hub';
import { QueryTailSource } from './query-source';
import type { Subscriber } from './subscriber';

export type { LiveEvent, LiveFailure, LiveItem, LiveMessage } from './subscriber';
export type { LiveTailSettings } from './hub';

export interface OpenTail {
  dataset: string;
  /** An APL predicate (as after `where`); blank means every event. */
  filter?: string | null | undefined;
  /** Authenticates the caller again from the same credentials (for the periodic access check). */
  reauthenticate: () => Promise<Principal>;
  /** Aborts when the caller goes away: the stream ends, even when it went away while it was set up. */
  signal?: AbortSignal;
}

export class LiveTailService {
  readonly hub: LiveTailHub;
  private readonly access: LiveTailAccess;

  constructor(datasets: DatasetService, queries: QueryService, limits: AplLimits, settings: LiveTailSettings, logger?: Logger) {
    this.access = new LiveTailAccess(datasets, queries, limits);
    this.hub = new LiveTailHub(new QueryTailSource(queries), settings, logger);
  }

  /** Checks the caller's rights and the filter, then opens the stream (an async iterator). */
  async open(principal: Principal, request: OpenTail): Promise<Subscriber> {
    const filter = request.filter?.trim() ? request.filter : undefined;
    const dataset = await this.access.authorize(principal, request.dataset, filter);
    const subscriber = await this.hub.subscribe({
      owner: principal.tokenId,
      dataset,
      filter,
      reauthorize: async () => this.access.confirm(await request.reauthenticate(), dataset),
    });
    // A caller that left before the stream was handed over would never read it, nor end it:
    // it would hold its place under the caps until the server stops.
    const { signal } = request;
    if (signal?.aborted) subscriber.end();
    else signal?.addEventListener('abort', () => subscriber.end(), { once: true });
    return subscriber;
  }

  /** Events were stored in the dataset, with the ids they took (synchronous, never throws). */
  signal(datasetId: string, written?: WrittenRows): void {
    this.hub.signal(datasetId, written);
  }

  /** Ends every stream (server shutdown). */
  close(): void {
    this.hub.close();
  }
}
