// The shippers' entry points, shared by their REST doors: each format's parser turns a request
// body into events for the ingest service, which applies the limits, the per-event failures and
// the one-transaction write that every ingest path shares.
import { type Principal, soleIngestDataset } from '../auth/principal';
import { DomainError } from '../errors';
import type { DatasetRecord, DatasetService } from '../events/datasets';
import type { BodyReader, IngestBody, IngestOptions, IngestOutcome, IngestService, IngestStatus } from '../events/ingest/ingest-service';
import { mediaTypeOf } from '../events/ingest/content';
import type { RawEvent } from '../events/ingest/parse-body';
import type { DatasetRef } from '../events/schema/field-registry';
import { type BulkResponse, bulkResponse, parseBulk } from './elastic-bulk';
import { HEC_CODES, hecError, parseHecEnvelopes, type RawMetadata, readHecRaw } from './hec';
import { readLogplexBody } from './logplex';
import { readLokiJson, readLokiProtobuf, unsnappy } from './loki/push';
import { MAX_BODY_BYTES } from '../events/ingest/limits';
import { invalidInput, unsupportedMediaType } from '../errors';

/** A reader over events already parsed (formats that must be read before the dataset is known). */
const eventsReader = (events: RawEvent[]): BodyReader => (_body, visit) => {
  for (const event of events) visit(event, undefined);
  return events.length;
};

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

  /**
   * Loki push: JSON, or protobuf compressed with snappy. The dataset is `X-Axiom-Dataset`, else the
   * one dataset the token may ingest into.
   */
  async lokiPush(principal: Principal, datasetName: string | undefined, request: IngestBody): Promise<IngestOutcome> {
    const name = datasetName || soleIngestDataset(principal);
    if (!name) throw invalidInput('name the dataset in the X-Axiom-Dataset header');
    const dataset = this.datasets.resolveFor(principal, name, 'ingest', 'create');
    const mediaType = mediaTypeOf(request.contentType);
    if (mediaType !== 'application/json' && mediaType !== 'application/x-protobuf') {
      throw unsupportedMediaType(`unsupported content type "${mediaType}": send application/x-protobuf (snappy) or application/json`);
    }
    const decoded = await this.ingest.decode(request);
    if (mediaType === 'application/json') return this.ingest.ingestDecoded(dataset, decoded, readLokiJson);
    return this.ingest.ingestDecoded(dataset, unsnappy(decoded, MAX_BODY_BYTES), readLokiProtobuf);
  }

  /** Elasticsearch Bulk API; `pathIndex` is an index named in the path (`/{index}/_bulk`). */
  async elasticBulk(principal: Principal, datasetName: string, request: IngestBody, pathIndex?: string): Promise<BulkResponse> {
    const started = Date.now();
    const dataset = this.datasets.resolveFor(principal, datasetName, 'ingest', 'create');
    const decoded = await this.ingest.decode(request);
    const parsed = parseBulk(decoded, pathIndex || dataset.name);
    const outcome = await this.ingest.ingestDecoded(dataset, decoded, eventsReader(parsed.events));
    return bulkResponse(parsed, outcome.failures, Date.now() - started);
  }

  /**
   * Splunk HEC event envelopes. The dataset is `?index=`, else the first envelope's `index`,
   * else the one dataset the token may ingest into; one that cannot be resolved is HEC code 7.
   */
  async hecEvents(principal: Principal, request: IngestBody, index: string | undefined): Promise<IngestOutcome> {
    const decoded = await this.ingest.decode(request);
    const { events, firstIndex } = parseHecEnvelopes(decoded);
    const dataset = this.hecDataset(principal, index || firstIndex);
    return this.ingest.ingestDecoded(dataset, decoded, eventsReader(events));
  }

  /** Splunk HEC raw text: one event per line in `_raw`, with the query's host, source and sourcetype. */
  async hecRaw(principal: Principal, request: IngestBody, metadata: RawMetadata): Promise<IngestOutcome> {
    const dataset = this.hecDataset(principal, metadata.index);
    const decoded = await this.ingest.decode(request);
    const json = mediaTypeOf(request.contentType) === 'application/json';
    return this.ingest.ingestDecoded(dataset, decoded, (body, visit) => readHecRaw(body, metadata, json, visit));
  }

  private hecDataset(principal: Principal, name: string | undefined): DatasetRecord {
    const chosen = name || soleIngestDataset(principal);
    if (!chosen) throw hecError('invalid_input', HEC_CODES.incorrectIndex);
    try {
      return this.datasets.resolveFor(principal, chosen, 'ingest', 'create');
    } catch (error) {
      if (error instanceof DomainError && (error.kind === 'not_found' || error.kind === 'invalid_input')) {
        throw hecError('invalid_input', HEC_CODES.incorrectIndex);
      }
      throw error;
    }
  }
}
