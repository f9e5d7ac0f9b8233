// Query speed through the HTTP endpoint: the four reference questions, `take 1` (the fixed cost
// of a query) and a 10-page cursor walk over 1,000,000 events (twelve fields, 24 hours) ingested
// through the API, each timed as
//   - SQL: the same question as a hand-written DuckDB statement on one of the store's read
//     connections, run the plain way (`runAndReadAll`) and its rows converted to JS values
//     (`getRowsJS`): DuckDB's parse, plan and run plus the client's conversion, no JSON, no HTTP;
//   - prepared: the same statement prepared once per connection and run again (DuckDB's floor
//     for a statement that repeats, for reference: the engine keeps repeated statements prepared);
//   - engine: the same query through the query service in the same process (no HTTP);
//   - HTTP: POST /v1/datasets/_apl?format=tabular on the running server (request, JSON answer),
// in the same run, in turns, the four in a new random order each turn. Reported: medians after
// warm-up and the HTTP / SQL ratio (target <= 1.3).
// QUERY_PREPARED_STATEMENTS=0 runs the engine without kept statements (each query planned anew).
//
//   npm run bench:query
//   BENCH_EVENTS=200000 BENCH_RUNS=9 npm run bench:query
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { quoteIdentifier } from '../src/engines/duckdb/layout';
import type { DuckDBEventStore } from '../src/events/store/event-store';
import { ingestBodies, spreadBodies } from './ingest-events';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const BATCH = 10_000;
const TOKEN = 'xapt-bench-query-token-000000000000';
const START_MS = Date.parse('2024-01-01T00:00:00Z');
const SPAN_MS = 24 * 3_600_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** The items in a random order (Fisher-Yates). */
function shuffled<T>(items: readonly T[]): T[] {
  const order = [...items];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-query-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ADMIN_TOKEN: TOKEN,
    MODEL_CATALOG_SOURCE: '/nonexistent',
    QUERY_TIMEOUT_MS: '120000',
    ...(process.env.QUERY_PREPARED_STATEMENTS ? { QUERY_PREPARED_STATEMENTS: process.env.QUERY_PREPARED_STATEMENTS } : {}),
  });
  const app = await createApp(config);
  const url = await app.server.listen({ host: '127.0.0.1', port: 0 });
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  try {
    await fetch(`${url}/v2/datasets`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench' }) });
    const started = performance.now();
    await ingestBodies(url, TOKEN, 'bench', spreadBodies(EVENTS, BATCH, START_MS, SPAN_MS));
    console.log(`ingested ${EVENTS.toLocaleString('en-US')} events over HTTP in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const { services } = app;
    const principal = await services.auth.authenticate({ authorization: `Bearer ${TOKEN}`, orgId: undefined });
    const dataset = await services.datasets.get(principal, 'bench');
    const schema = await services.fields.schemaOf(dataset);
    const table = quoteIdentifier(schema.table);
    const col = (name: string) => quoteIdentifier(schema.fields.find((field) => field.name === name)!.column);
    const window = { startTime: new Date(START_MS).toISOString(), endTime: new Date(START_MS + SPAN_MS).toISOString() };

    // A keep-alive node:http client: fetch() in the same process would add its own overhead.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const { port } = new URL(url);
    // The answer is parsed only when the caller needs it (the cursor walk): parsing is the
    // client's work, not the server's.
    const viaHttp = (apl: string, cursor?: string, parse = true) =>
      new Promise<{ status: { minCursor?: string } }>((resolve, reject) => {
        const body = JSON.stringify({ apl, ...window, ...(cursor ? { cursor } : {}) });
        const request = http.request(
          { host: '127.0.0.1', port, path: '/v1/datasets/_apl?format=tabular', method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => {
              const text = parse || response.statusCode !== 200 ? Buffer.concat(chunks).toString() : '';
              if (response.statusCode !== 200) reject(new Error(`${response.statusCode}: ${text}`));
              else resolve(parse ? JSON.parse(text) : { status: {} });
            });
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    // The hand-written baselines are DuckDB SQL: this benchmark runs the embedded store.
    const duckdb = services.eventStore as DuckDBEventStore;
    const viaEngine = (apl: string, cursor?: string) => services.queries.apl(principal, { apl, ...window, ...(cursor ? { cursor } : {}) });
    const sql = (text: string, params?: bigint[]) =>
      duckdb.useConnection(async (connection) => (await connection.runAndReadAll(text, params)).getRowsJS());
    const kept = new WeakMap<DuckDBConnection, Map<string, DuckDBPreparedStatement>>();
    const preparedSql = (text: string, params?: bigint[]) =>
      duckdb.useConnection(async (connection) => {
        if (!kept.has(connection)) kept.set(connection, new Map());
        const statements = kept.get(connection)!;
        if (!statements.has(text)) statements.set(text, await connection.prepare(text));
        const statement = statements.get(text)!;
        if (params) statement.bind(params);
        return (await statement.runAndReadAll()).getRowsJS();
      });
    const windowSql = `_time BETWEEN '${window.startTime}'::TIMESTAMP_NS AND '${window.endTime}'::TIMESTAMP_NS`;

    const walk = (run: (apl: string, cursor?: string) => Promise<{ status: { minCursor?: string } }>) => async () => {
      let cursor: string | undefined;
      for (let page = 0; page < 10; page++) cursor = (await run("['bench'] | sort by _time desc | take 1000", cursor)).status.minCursor;
    };
    const walkSql = (run: typeof sql) => async () => {
      let last: [bigint, bigint] | undefined;
      for (let page = 0; page < 10; page++) {
        const after = last ? `AND (_time < make_timestamp_ns($1::BIGINT) OR (_time = make_timestamp_ns($1::BIGINT) AND _rowId < $2::BIGINT))` : '';
        const rows = await run(
          `SELECT epoch_ns(_time), _rowId, * EXCLUDE (_time, _rowId) FROM ${table} WHERE ${windowSql} ${after} ORDER BY _time DESC, _rowId DESC LIMIT 1000`,
          last ? [last[0], last[1]] : undefined,
        );
        const tail = rows.at(-1)!;
        last = [BigInt(tail[0] as bigint), BigInt(tail[1] as bigint)];
      }
    };

    type Case = { name: string; http: () => Promise<unknown>; engine: () => Promise<unknown>; sql: () => Promise<unknown>; prepared: () => Promise<unknown> };
    const cases: Case[] = [
      {
        name: 'take 1',
        apl: "['bench'] | take 1",
        sql: `SELECT * FROM ${table} WHERE ${windowSql} LIMIT 1`,
      },
      {
        name: 'summarize count() by bin(_time, 1h)',
        apl: "['bench'] | summarize count() by bin(_time, 1h)",
        sql: `SELECT time_bucket(INTERVAL 1 HOUR, _time) AS t, count(*) FROM ${table} WHERE ${windowSql} GROUP BY t ORDER BY t`,
      },
      {
        name: 'where status >= 500 | summarize count() by uri | top 10 by count_',
        apl: "['bench'] | where status >= 500 | summarize count() by uri | top 10 by count_",
        sql: `SELECT ${col('uri')}, count(*) AS c FROM ${table} WHERE ${windowSql} AND ${col('status')} >= 500 GROUP BY 1 ORDER BY c DESC LIMIT 10`,
      },
      {
        name: 'where uri contains "api" | take 100',
        apl: "['bench'] | where uri contains \"api\" | take 100",
        sql: `SELECT * FROM ${table} WHERE ${windowSql} AND ${col('uri')} ILIKE '%api%' LIMIT 100`,
      },
      {
        name: 'summarize dcount(user), percentile(duration, 99) by method',
        apl: "['bench'] | summarize dcount(user), percentile(duration, 99) by method",
        sql: `SELECT ${col('method')}, count(DISTINCT ${col('user')}), quantile_disc(${col('duration')}, 0.99) FROM ${table} WHERE ${windowSql} GROUP BY 1`,
      },
    ].map((c) => ({ name: c.name, http: () => viaHttp(c.apl, undefined, false), engine: () => viaEngine(c.apl), sql: () => sql(c.sql), prepared: () => preparedSql(c.sql) }));
    cases.push({ name: '10-page cursor walk (1000 rows a page)', http: walk(viaHttp), engine: walk(viaEngine), sql: walkSql(sql), prepared: walkSql(preparedSql) });

    console.log(`\n${EVENTS.toLocaleString('en-US')} events, 24 hours; median of at least ${RUNS} runs after warm-up (up to 200 warm-up turns and runs for fast questions)\n`);
    console.log(`${'query'.padEnd(64)} ${'SQL'.padStart(9)} ${'prepared'.padStart(9)} ${'engine'.padStart(9)} ${'HTTP'.padStart(9)} ${'HTTP/SQL'.padStart(9)}`);
    for (const c of cases) {
      // Warm-up and runs both scale with the question: a fast one gets up to 200 turns of each
      // (about 2 s), so that every path is measured with its code optimized by the JIT, as in a
      // server that has been answering for a while, and so that one collection pause or
      // scheduler hiccup does not move a median of a handful of samples.
      const turnStarted = performance.now();
      const turn = async () => {
        await c.sql();
        await c.prepared();
        await c.engine();
        await c.http();
      };
      await turn();
      const runs = Math.max(RUNS, Math.min(200, Math.floor(2000 / (performance.now() - turnStarted))));
      for (let i = 0; i < Math.max(5, runs); i++) await turn();
      const times = { sql: [] as number[], prepared: [] as number[], engine: [] as number[], http: [] as number[] };
      for (let i = 0; i < runs; i++) {
        // A new order each turn: each way runs as often right after every other one, so that
        // what the previous one left behind (caches, DuckDB's threads) weighs on all alike.
        for (const kind of shuffled(['sql', 'prepared', 'engine', 'http'] as const)) {
          const t0 = performance.now();
          await c[kind]();
          times[kind].push(performance.now() - t0);
        }
      }
      const [s, p, e, h] = [median(times.sql), median(times.prepared), median(times.engine), median(times.http)];
      const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`.padStart(9);
      console.log(`${c.name.padEnd(64)} ${ms(s)} ${ms(p)} ${ms(e)} ${ms(h)} ${`${(h / s).toFixed(2)}x`.padStart(9)}`);
    }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
