// A ClickHouse server as an executor, over its HTTP interface through the official client.
// `CLICKHOUSE_URL` carries everything the client reads from a URL: user and password, the
// database as the path, TLS through `https://`, and client options as parameters. Statements
// run side by side on a pool of keep-alive connections; a query past its time budget is
// stopped inside ClickHouse by `max_execution_time`, and one whose caller goes away is
// cancelled as its HTTP request is aborted.
import { Readable } from 'node:stream';
import { type ClickHouseClient, ClickHouseError as ClientError, ClickHouseLogLevel, createClient } from '@clickhouse/client';
import {
  type ClickHouseExecutor,
  ClickHouseError,
  type ClickHouseRows,
  type ClickHouseSettings,
  errorCodeOf,
  parseTabSeparated,
  type QuerySettingsOptions,
} from './executor';
import { engineFailure, transportFailure } from './failures';
import { quoteIdentifier } from './layout';

function translate(error: unknown): never {
  if (error instanceof ClientError) throw engineFailure(new ClickHouseError(error.message, Number(error.code) || errorCodeOf(error.message)));
  throw transportFailure(error);
}

export class HttpExecutor implements ClickHouseExecutor {
  readonly engine = 'clickhouse' as const;

  private constructor(private readonly client: ClickHouseClient) {}

  /** A client for `url`, with `settings` as the defaults of every statement. */
  static open(url: string, settings: ClickHouseSettings = {}, options: { requestTimeoutMs?: number } = {}): HttpExecutor {
    const client = createClient({
      url,
      // Long enough for the slowest statement the store sends (mutations wait for their end).
      request_timeout: options.requestTimeoutMs ?? 300_000,
      // Failed statements reach the caller as errors (most are the query's own, answered 4xx);
      // the client's own log of each would only repeat them.
      log: { level: ClickHouseLogLevel.OFF },
      clickhouse_settings: {
        // A query whose client went away stops instead of running on.
        cancel_http_readonly_queries_on_client_close: 1,
        // Progress headers keep a long statement's connection alive through load balancers.
        send_progress_in_http_headers: 1,
        http_headers_progress_interval_ms: '110000',
        ...settings,
      },
    });
    return new HttpExecutor(client);
  }

  async command(sql: string, options: QuerySettingsOptions = {}): Promise<void> {
    try {
      await this.client.command({
        query: sql,
        ...(options.settings ? { clickhouse_settings: options.settings } : {}),
        ...(options.signal ? { abort_signal: options.signal } : {}),
      });
    } catch (error) {
      translate(error);
    }
  }

  async query(sql: string, options: QuerySettingsOptions = {}): Promise<ClickHouseRows> {
    try {
      const result = await this.client.query({
        query: sql,
        format: 'TabSeparatedWithNamesAndTypes',
        ...(options.settings ? { clickhouse_settings: options.settings } : {}),
        ...(options.signal ? { abort_signal: options.signal } : {}),
      });
      return parseTabSeparated(await result.text());
    } catch (error) {
      translate(error);
    }
  }

  async insert(table: string, columns: string[], tabSeparated: Buffer, options: QuerySettingsOptions = {}): Promise<void> {
    try {
      await this.client.insert({
        // The client writes both into its INSERT statement as given.
        table: quoteIdentifier(table),
        columns: columns.map(quoteIdentifier) as [string, ...string[]],
        // A byte stream: the client refuses object-mode streams for text formats.
        values: Readable.from([tabSeparated], { objectMode: false }),
        format: 'TabSeparated',
        ...(options.settings ? { clickhouse_settings: options.settings } : {}),
        ...(options.signal ? { abort_signal: options.signal } : {}),
      });
    } catch (error) {
      translate(error);
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
