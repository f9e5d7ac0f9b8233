// The shippers' entry points, shared by their REST doors: each format's parser turns a request
// body into events for the ingest service, which applies the limits, the per-event failures and
// the one-transaction write that every ingest path shares. Decoding, reading and writing a body
// happen in an ingest turn of the sending token, shared fairly as for the API's own formats.
import { type Principal, soleIngestDataset } from '../auth/principal';
import { DomainError } from '../errors';
import { type DatasetService, requireEventsDataset } from '../datasets/datasets';
import type { MapFieldService } from '../datasets/map-fields';
import type { BodyReader, IngestBody, IngestOptions, IngestOutcome, IngestService, IngestStatus } from '../ingest/ingest-service';
import { mediaTypeOf } from '../ingest/content';
import type { RawEvent } from '../ingest/parse-body';
import { InvalidTimeError } from '../ingest/timestamp';
import type { DatasetRef } from '../datasets/schema/field-registry';
import { bulkResponseJson, type ParsedBulk, parseFilterPath, readBulk } from './elastic-bulk';
import { HEC_CODES, hecError, parseHecEnvelopes, type RawMetadata, readHecRaw } from './hec';
import { readLogplexBody } from './logplex';
import { readLokiJson, readLokiProtobuf, unsnappy } from './loki/push';
import type { OtlpEncoding, OtlpSignal, PartialSuccess } from './otlp/codec';
import { readLogRecords } from './otlp/logs';
import { CUSTOM_ATTRIBUTES_FIELD } from './otlp/semconv';
import { readSpans } from './otlp/traces';
import { MAX_BODY_BYTES } from '../ingest/limits';
import { invalidInput, unsupportedMediaType } from '../errors';

/**
 * Runs a reader over a decoded message whose shape the format leaves open (OTLP/JSON can put any
 * JSON where a list or a value belongs): what trips it is a property of the body, so it is a 400.
 */
function refuseUnreadable<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof DomainError || error instanceof InvalidTimeError) throw error;
    throw invalidInput(`request body is not ${what} this server can read: ${(error as Error).message}`);
  }
}

/** A reader over events already parsed (formats that must be read before the dataset is known). */
const eventsReader =
  (events: RawEvent[]): BodyReader =>
  (_body, visit) => {
    for (const event of events) visit(event, undefined);
    return events.length;
  };

export class ShipperService {
  constructor(
    readonly ingest: IngestService,
    readonly datasets: DatasetService,
    readonly mapFields: MapFieldService,
  ) {}

  /** Heroku log drains: octet-counted RFC 5424 frames (`application/logplex-1`). */
  async logplex(dataset: DatasetRef, request: IngestBody, options: IngestOptions = {}): Promise<IngestStatus> {
    return this.ingest.inTurn(options.caller, async () => {
      const decoded = await this.ingest.decode(request);
      return (await this.ingest.ingestDecoded(dataset, decoded, readLogplexBody, options)).status;
    });
  }

  /**
   * OTLP/HTTP export of traces or logs into the dataset named by `X-Axiom-Dataset` (else the one
   * dataset the token may ingest into). Items that cannot be stored are reported as OTLP's
   * partial success; an unreadable body is refused whole.
   */
  async otlpExport(
    signal: Exclude<OtlpSignal, 'metrics'>,
    principal: Principal,
    datasetName: string | undefined,
    request: IngestBody,
    encoding: OtlpEncoding,
  ): Promise<PartialSuccess | undefined> {
    const name = datasetName || soleIngestDataset(principal);
    if (!name) throw invalidInput('name the dataset in the X-Axiom-Dataset header');
    const dataset = await this.datasets.resolveFor(principal, name, 'ingest', 'create');
    requireEventsDataset(dataset);
    // Attributes outside the semantic conventions are kept whole in this map field, as Axiom does.
    await this.mapFields.ensure(dataset, CUSTOM_ATTRIBUTES_FIELD);
    const read: BodyReader = (body, visit) =>
      refuseUnreadable(`an OTLP ${signal} export`, () =>
        signal === 'traces'
          ? readSpans(body, encoding, visit)
          : readLogRecords(body, encoding, visit),
      );
    const outcome = await this.ingest.inTurn(principal.tokenId, async () => this.ingest.ingestDecoded(dataset, await this.ingest.decode(request), read));
    const first = outcome.failures[0];
    if (!first) return undefined;
    const items = signal === 'traces' ? 'spans' : 'log records';
    return { rejected: outcome.failures.length, errorMessage: `${outcome.failures.length} ${items} were not stored; the first (item ${first.index}): ${first.error}` };
  }

  /**
   * Loki push: JSON, or protobuf compressed with snappy. The dataset is `X-Axiom-Dataset`, else the
   * one dataset the token may ingest into.
   */
  async lokiPush(principal: Principal, datasetName: string | undefined, request: IngestBody): Promise<IngestOutcome> {
    const name = datasetName || soleIngestDataset(principal);
    if (!name) throw invalidInput('name the dataset in the X-Axiom-Dataset header');
    const dataset = await this.datasets.resolveFor(principal, name, 'ingest', 'create');
    const mediaType = mediaTypeOf(request.contentType);
    if (mediaType !== 'application/json' && mediaType !== 'application/x-protobuf') {
      throw unsupportedMediaType(`unsupported content type "${mediaType}": send application/x-protobuf (snappy) or application/json`);
    }
    return this.ingest.inTurn(principal.tokenId, async () => {
      const decoded = await this.ingest.decode(request);
      if (mediaType === 'application/json') return this.ingest.ingestDecoded(dataset, decoded, readLokiJson);
      return this.ingest.ingestDecoded(dataset, unsnappy(decoded, MAX_BODY_BYTES), readLokiProtobuf);
    });
  }

  /**
   * Elasticsearch Bulk API; `pathIndex` is an index named in the path (`/{index}/_bulk`). Answers
   * with the Bulk API's JSON text, trimmed by `filter_path`.
   */
  async elasticBulk(principal: Principal, datasetName: string, request: IngestBody, pathIndex?: string, filterPath?: string): Promise<string> {
    const started = Date.now();
    const dataset = await this.datasets.resolveFor(principal, datasetName, 'ingest', 'create');
    const filter = parseFilterPath(filterPath);
    let parsed: ParsedBulk | undefined;
    const outcome = await this.ingest.inTurn(principal.tokenId, async () =>
      this.ingest.ingestDecoded(dataset, await this.ingest.decode(request), (body, visit) => {
        parsed = readBulk(body, pathIndex || dataset.name, visit);
        return parsed.count;
      }),
    );
    return bulkResponseJson(parsed!, outcome.failures, Date.now() - started, filter);
  }

  /**
   * Splunk HEC event envelopes. The dataset is `?index=`, else the first envelope's `index`,
   * else the one dataset the token may ingest into; one that cannot be resolved is HEC code 7.
   */
  async hecEvents(principal: Principal, request: IngestBody, index: string | undefined): Promise<IngestOutcome> {
    // The envelopes name the dataset, so they are read (in the turn) before it is resolved.
    return this.ingest.inTurn(principal.tokenId, async () => {
      const decoded = await this.ingest.decode(request);
      const { events, firstIndex } = parseHecEnvelopes(decoded);
      const dataset = await this.hecDataset(principal, index || firstIndex);
      return this.ingest.ingestDecoded(dataset, decoded, eventsReader(events));
    });
  }

  /** Splunk HEC raw text: one event per line in `_raw`, with the query's host, source and sourcetype. */
  async hecRaw(principal: Principal, request: IngestBody, metadata: RawMetadata): Promise<IngestOutcome> {
    const dataset = await this.hecDataset(principal, metadata.index);
    const json = mediaTypeOf(request.contentType) === 'application/json';
    return this.ingest.inTurn(principal.tokenId, async () =>
      this.ingest.ingestDecoded(dataset, await this.ingest.decode(request), (body, visit) => readHecRaw(body, metadata, json, visit)),
    );
  }

  private async hecDataset(principal: Principal, name: string | undefined): Promise<DatasetRef> {
    const chosen = name || soleIngestDataset(principal);
    if (!chosen) throw hecError('invalid_input', HEC_CODES.incorrectIndex);
    try {
      return await this.datasets.resolveFor(principal, chosen, 'ingest', 'create');
    } catch (error) {
      if (error instanceof DomainError && (error.kind === 'not_found' || error.kind === 'invalid_input')) {
        throw hecError('invalid_input', HEC_CODES.incorrectIndex);
      }
      throw error;
    }
  }
}
