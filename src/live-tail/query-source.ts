// Where tails read events: APL over the event store, the same engine and dialect as every query,
// so DuckDB and ClickHouse behave alike. Tails are shared by subscribers of one organization, so
// they read as a reader of that one dataset, not as any subscriber: each subscriber's own rights
// are checked by LiveTailAccess.
import { type QueryResult, toMatches } from '../apl';
import type { Principal } from '../auth/principal';
import type { QueryService } from '../queries/query-service';
import type { LiveEvent, TailBatch } from './subscriber';
import type { TailDataset, TailSource, TailSurvey } from './tail';

/** A principal that may query one dataset of one organization and nothing else. */
function readerOf(dataset: TailDataset): Principal {
  return {
    tokenId: 'live-tail',
    kind: 'api',
    orgId: dataset.orgId,
    userId: null,
    datasetCapabilities: { [dataset.name]: { query: ['read'] } },
    orgCapabilities: {},
  };
}

/** A `_rowId` bound as APL: a number literal while it holds the id exactly, else converted from text. */
const rowIdLiteral = (rowId: bigint) => (rowId <= BigInt(Number.MAX_SAFE_INTEGER) ? rowId.toString() : `tolong("${rowId.toString()}")`);

/** The first row's value of a column of an answer (a summarize's single row). */
function firstValue(result: QueryResult, name: string): unknown {
  return result.table.columns[result.table.fields.findIndex((field) => field.name === name)]?.[0];
}

/** A `_rowId` read as text (the max of no rows is null). */
const parseRowId = (value: unknown) => (typeof value === 'string' && /^\d+$/.test(value) ? BigInt(value) : undefined);

export class QueryTailSource implements TailSource {
  constructor(private readonly queries: QueryService) {}

  private run(dataset: TailDataset, apl: string, limit: number) {
    return this.queries.apl(readerOf(dataset), { apl, limit });
  }

  async latestRowId(dataset: TailDataset): Promise<bigint> {
    const result = await this.run(dataset, `['${dataset.name}']\n| summarize latest = tostring(max(_rowId))`, 1);
    return parseRowId(firstValue(result, 'latest')) ?? 0n;
  }

  async survey(dataset: TailDataset, filter: string | undefined, after: bigint, from: readonly bigint[], upTo?: bigint): Promise<TailSurvey> {
    // The filter was parsed alone as one predicate when subscribing; on lines of its own, a
    // comment at its end cannot swallow what follows.
    const matching = (later?: bigint) => {
      const parts = [...(filter !== undefined ? ['(\n' + filter + '\n)'] : []), ...(later !== undefined ? [`_rowId > ${rowIdLiteral(later)}`] : [])];
      return parts.length === 0 ? 'count()' : `countif(${parts.join(' and ')})`;
    };
    const apl = [
      `['${dataset.name}']`,
      `| where _rowId > ${rowIdLiteral(after)}${upTo !== undefined ? ` and _rowId <= ${rowIdLiteral(upTo)}` : ''}`,
      `| summarize latest = tostring(max(_rowId)), n = ${matching()}${from.map((point, i) => `, n${i} = ${matching(point)}`).join('')}`,
    ].join('\n');
    const result = await this.run(dataset, apl, 1);
    return {
      latest: parseRowId(firstValue(result, 'latest')) ?? after,
      counts: [Number(firstValue(result, 'n') ?? 0), ...from.map((_, i) => Number(firstValue(result, `n${i}`) ?? 0))],
    };
  }

  async read(dataset: TailDataset, filter: string | undefined, after: bigint, upTo: bigint, limit: number): Promise<TailBatch> {
    const apl = [
      `['${dataset.name}']`,
      `| where _rowId > ${rowIdLiteral(after)} and _rowId <= ${rowIdLiteral(upTo)}`,
      ...(filter !== undefined ? ['| where (', filter, ')'] : []),
      '| sort by _rowId desc',
      `| take ${limit}`,
    ].join('\n');
    const result = await this.run(dataset, apl, limit);
    const rowIds = result.events?.rowId ?? [];
    const matches = toMatches(result);
    // Newest first from the engine; the batch rises.
    const n = matches.length;
    const events = new Array<LiveEvent>(n);
    const ids = new Array<bigint>(n);
    for (let i = 0; i < n; i++) {
      const match = matches[n - 1 - i]!;
      events[i] = { time: match._time, sysTime: match._sysTime, rowId: match._rowId, data: match.data };
      ids[i] = BigInt(rowIds[n - 1 - i] ?? match._rowId);
    }
    return { events, ids };
  }
}
