// The shippers' entry points, shared by their REST doors: each format's parser turns a request
// body into events for the ingest service, which applies the limits, the per-event failures and
// the one-transaction write that every ingest path shares.
import type { DatasetService } from '../events/datasets';
import type { IngestBody, IngestOptions, IngestService, IngestStatus } from '../events/ingest/ingest-service';
import type { DatasetRef } from '../events/schema/field-registry';
import { readLogplexBody } from './logplex';

export class ShipperService {
  constructor(
    readonly ingest: IngestService,
    readonly datasets: DatasetService,
  ) {}

  /** Heroku log drains: octet-counted RFC 5424 frames (`application/logplex-1`). */
  async logplex(dataset: DatasetRef, request: IngestBody, options: IngestOptions = {}): Promise<IngestStatus> {
    const decoded = await this.ingest.decode(request);
    return (await this.ingest.ingestDecoded(dataset, decoded, readLogplexBody, options)).status;
  }
}
