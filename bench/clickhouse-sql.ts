// APL on the ClickHouse store (chdb) against hand-written ClickHouse SQL on the same table: the
// same 1,000,000 events (twelve fields over 24 hours) ingested through the server, then for each
// question of `npm run bench:clickhouse` the APL over HTTP (POST /v1/datasets/_apl) and a
// statement a person would write for the same answer, run through the store's own chdb session
// in process (`eventStore.query`: the engine, its text output and its decoding into JS values,
// no HTTP), in turns in a random order, medians after warm-up, once the background merges that
// follow the ingest are done; the last column is APL / SQL (target <= 1.3).
// Ingest: each 10,000-event NDJSON body through the server's ingest route, in turns with chdb's
// own `INSERT ... FORMAT JSONEachRow` and `FORMAT TabSeparated` of the same rows (made before the
// clock) into a table of the same shape; rates and store / native (target >= 1.0 of the faster).
// BENCH_SHOW_SQL=1 prints the statement the store ran for each APL question.
//
//   npm run bench:clickhouse-sql
//   BENCH_EVENTS=200000 BENCH_RUNS=9 BENCH_SHOW_SQL=1 npm run bench:clickhouse-sql
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { ClickHouseEventStore } from '../src/events/store/clickhouse-store';
import { quoteIdentifier } from '../src/engines/clickhouse/layout';
import { spreadBodies } from './ingest-events';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const SHOW_SQL = process.env.BENCH_SHOW_SQL === '1';
const BATCH = 10_000;
const TOKEN = 'xapt-bench-clickhouse-sql-token-00000';
const START_MS = Date.parse('2024-01-01T00:00:00Z');
const SPAN_MS = 24 * 3_600_000;

/** A JS time as ClickHouse DateTime64 text. */
const dateTimeText = (iso: string, nanos = '000000') => `${iso.slice(0, 10)} ${iso.slice(11, 23)}${nanos}`;

/** One NDJSON body as JSONEachRow rows keyed by the stored column names, and as TabSeparated rows. */
function nativeRows(body: string, firstRowId: number, sysTime: string, physical: (field: string) => string): { json: string; tsv: Buffer } {
  const json: string[] = [];
  const tsv: string[] = [];
  body
    .split('\n')
    .filter((line) => line !== '')
    .forEach((line, i) => {
      const event = JSON.parse(line) as Record<string, unknown> & { _time: string; req: Record<string, unknown> };
      const flat: Record<string, unknown> = { _time: dateTimeText(event._time), _sysTime: sysTime, _rowId: firstRowId + i };
      for (const [name, value] of Object.entries(event)) {
        if (name === '_time') continue;
        if (value !== null && typeof value === 'object') for (const [inner, v] of Object.entries(value)) flat[physical(`${name}.${inner}`)] = v;
        else flat[physical(name)] = value;
      }
      json.push(JSON.stringify(flat));
      tsv.push(Object.values(flat).map(String).join('\t'));
    });
  return { json: `${json.join('\n')}\n`, tsv: Buffer.from(`${tsv.join('\n')}\n`) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Times the hand-written SQL and the APL in turns, in a random order each turn, after a warm-up;
 * a fast question gets more turns (up to 100, about two seconds), so one scheduler hiccup on the
 * shared machine does not move its median. Returns the medians.
 */
async function timeInTurns(sql: () => Promise<unknown>, apl: () => Promise<unknown>, runs: number): Promise<{ baseline: number; candidate: number }> {
  const started = performance.now();
  await sql();
  await apl();
  const turns = Math.max(runs, Math.min(100, Math.floor(2000 / (performance.now() - started))));
  for (let i = 0; i < Math.min(turns, 10); i++) {
    await sql();
    await apl();
  }
  const times = { sql: [] as number[], apl: [] as number[] };
  for (let i = 0; i < turns; i++) {
    for (const kind of Math.random() < 0.5 ? (['sql', 'apl'] as const) : (['apl', 'sql'] as const)) {
      const t0 = performance.now();
      await (kind === 'sql' ? sql() : apl());
      times[kind].push(performance.now() - t0);
    }
  }
  return { baseline: median(times.sql), candidate: median(times.apl) };
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-clickhouse-sql-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ADMIN_TOKEN: TOKEN, MODEL_CATALOG_SOURCE: '/nonexistent', QUERY_TIMEOUT_MS: '120000', EVENT_STORE: 'chdb' });
  const app = await createApp(config);
  const url = await app.server.listen({ host: '127.0.0.1', port: 0 });
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const { port } = new URL(url);
  const post = (pathname: string, contentType: string, body: string) =>
    new Promise<string>((resolve, reject) => {
      const request = http.request(
        { host: '127.0.0.1', port, path: pathname, method: 'POST', agent, headers: { ...headers, 'content-type': contentType, 'content-length': Buffer.byteLength(body) } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            if (response.statusCode !== 200) reject(new Error(`${response.statusCode}: ${text}`));
            else resolve(text);
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  try {
    const store = app.services.eventStore as ClickHouseEventStore;
    const executor = store.executor;
    await fetch(`${url}/v2/datasets`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench' }) });

    // Ingest: the bodies, and the same rows for the native inserts, made before the clock starts.
    const bodies = spreadBodies(EVENTS, BATCH, START_MS, SPAN_MS);
    const ingestBody = async (body: string) => {
      const answer = JSON.parse(await post('/v1/datasets/bench/ingest', 'application/x-ndjson', body)) as { ingested: number };
      if (answer.ingested !== body.split('\n').length - 1) throw new Error(`ingest stored ${answer.ingested} events`);
    };
    // The first body creates the dataset's columns: the native tables copy the table after it.
    let storeMs = 0;
    let started = performance.now();
    await ingestBody(bodies[0]!);
    storeMs += performance.now() - started;
    const principal = await app.services.auth.authenticate({ authorization: `Bearer ${TOKEN}`, orgId: undefined });
    const schema = await app.services.fields.schemaOf(await app.services.datasets.get(principal, 'bench'));
    const table = quoteIdentifier(schema.table);
    const physicalOf = (field: string) => {
      const found = schema.fields.find((f) => f.name === field);
      if (!found) throw new Error(`no field ${field}`);
      return store.columnIdentifier(found.column).slice(1, -1);
    };
    const col = (field: string) => quoteIdentifier(physicalOf(field));
    await executor.command(`CREATE TABLE native_json AS ${table}`);
    await executor.command(`CREATE TABLE native_tsv AS ${table}`);
    const sysTime = dateTimeText(new Date().toISOString());
    const native = bodies.map((body, i) => nativeRows(body, 1 + i * BATCH, sysTime, physicalOf));
    const flatOrder = Object.keys(JSON.parse(native[0]!.json.split('\n')[0]!) as object);
    let jsonMs = 0;
    let tsvMs = 0;
    for (let i = 0; i < bodies.length; i++) {
      if (i > 0) {
        started = performance.now();
        await ingestBody(bodies[i]!);
        storeMs += performance.now() - started;
      }
      started = performance.now();
      await executor.command(`INSERT INTO native_json FORMAT JSONEachRow\n${native[i]!.json}`);
      jsonMs += performance.now() - started;
      started = performance.now();
      await executor.insert('native_tsv', flatOrder, native[i]!.tsv);
      tsvMs += performance.now() - started;
    }
    const rate = (ms: number) => EVENTS / (ms / 1000);
    const count = async (name: string) => Number((await executor.query(`SELECT count() FROM ${name}`)).rows[0]![0]);
    for (const name of [table, 'native_json', 'native_tsv']) if ((await count(name)) !== EVENTS) throw new Error(`${name} holds ${await count(name)} rows`);
    await executor.command('DROP TABLE native_json');
    await executor.command('DROP TABLE native_tsv');

    // What the store runs, shown on request: every statement the executor is asked.
    let shown: string[] = [];
    const query = executor.query.bind(executor);
    executor.query = (sql, options) => {
      if (SHOW_SQL) shown.push(sql);
      return query(sql, options);
    };

    const window = { startTime: new Date(START_MS).toISOString(), endTime: new Date(START_MS + SPAN_MS).toISOString() };
    const windowSql = `_time BETWEEN toDateTime64('${dateTimeText(window.startTime)}', 9, 'UTC') AND toDateTime64('${dateTimeText(window.endTime)}', 9, 'UTC')`;
    const apl = async (text: string, cursor?: string) =>
      JSON.parse(await post('/v1/datasets/_apl?format=tabular', 'application/json', JSON.stringify({ apl: text, ...window, ...(cursor ? { cursor } : {}) }))) as {
        status: { minCursor?: string };
      };
    const sql = (text: string) => store.query(text);
    const walkApl = async () => {
      let cursor: string | undefined;
      for (let page = 0; page < 10; page++) cursor = (await apl("['bench'] | sort by _time desc | take 1000", cursor)).status.minCursor;
    };
    const walkSql = async () => {
      let last: [bigint, bigint] | undefined;
      for (let page = 0; page < 10; page++) {
        const after = last ? `AND (_time, _rowId) < (fromUnixTimestamp64Nano(toInt64(${last[0]}), 'UTC'), ${last[1]})` : '';
        const { rows } = await store.query(
          `SELECT toUnixTimestamp64Nano(_time) AS t, _rowId, * EXCEPT (_time, _rowId) FROM ${table} WHERE ${windowSql} ${after} ORDER BY _time DESC, _rowId DESC LIMIT 1000`,
        );
        const tail = rows.at(-1)!;
        last = [BigInt(tail[0] as bigint), BigInt(tail[1] as bigint)];
      }
    };
    const cases: { name: string; apl: () => Promise<unknown>; sql: () => Promise<unknown> }[] = [
      {
        name: 'summarize count() by bin(_time, 1h)',
        apl: () => apl("['bench'] | summarize count() by bin(_time, 1h)"),
        sql: () => sql(`SELECT toStartOfInterval(_time, INTERVAL 1 HOUR) AS t, count() FROM ${table} WHERE ${windowSql} GROUP BY t ORDER BY t`),
      },
      {
        name: 'where status >= 500 | summarize count() by uri | top 10 by count_',
        apl: () => apl("['bench'] | where status >= 500 | summarize count() by uri | top 10 by count_"),
        sql: () => sql(`SELECT ${col('uri')}, count() AS c FROM ${table} WHERE ${windowSql} AND ${col('status')} >= 500 GROUP BY 1 ORDER BY c DESC LIMIT 10`),
      },
      {
        name: 'where uri contains "api" | take 100',
        apl: () => apl("['bench'] | where uri contains \"api\" | take 100"),
        sql: () => sql(`SELECT * FROM ${table} WHERE ${windowSql} AND ${col('uri')} ILIKE '%api%' LIMIT 100`),
      },
      {
        name: 'summarize dcount(user), percentile(duration, 99) by method',
        apl: () => apl("['bench'] | summarize dcount(user), percentile(duration, 99) by method"),
        sql: () => sql(`SELECT ${col('method')}, uniqExact(${col('user')}), quantileExactLow(0.99)(${col('duration')}) FROM ${table} WHERE ${windowSql} GROUP BY 1`),
      },
      { name: '10-page cursor walk (1000 rows a page)', apl: walkApl, sql: walkSql },
    ];

    // Right after ingest ClickHouse merges the parts in the background, which would weigh on
    // whichever side runs beside a merge: the questions are asked once the table has settled.
    const settled = performance.now();
    while (performance.now() - settled < 120_000) {
      const { rows } = await executor.query(`SELECT count() FROM system.merges WHERE database = currentDatabase() AND table = '${schema.table}'`);
      if (Number(rows[0]?.[0]) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const waited = (performance.now() - settled) / 1000;
    const parts = (await executor.query(`SELECT count() FROM system.parts WHERE database = currentDatabase() AND active AND table = '${schema.table}'`)).rows[0]?.[0];
    console.log(`\n${EVENTS.toLocaleString('en-US')} events, 24 hours, ClickHouse embedded (chdb); medians of at least ${RUNS} runs in turns after warm-up\n`);
    const events = (ms: number) => `${Math.round(rate(ms)).toLocaleString('en-US')} events/s`.padStart(18);
    console.log(`ingest (NDJSON over HTTP, ${BATCH.toLocaleString('en-US')} a request)   store ${events(storeMs)}   chdb JSONEachRow ${events(jsonMs)}   chdb TabSeparated ${events(tsvMs)}`);
    console.log(`store rate / native rate: ${(jsonMs / storeMs).toFixed(2)} of JSONEachRow, ${(tsvMs / storeMs).toFixed(2)} of TabSeparated (target >= 1.0)\n`);
    console.log(`(questions asked once the table settled: ${waited.toFixed(1)} s of waiting, ${String(parts)} parts)\n`);
    console.log(`${'query'.padEnd(64)} ${'SQL'.padStart(9)} ${'APL'.padStart(9)} ${'APL/SQL'.padStart(8)}`);
    for (const c of cases) {
      const { baseline, candidate } = await timeInTurns(c.sql, c.apl, RUNS);
      const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`.padStart(9);
      console.log(`${c.name.padEnd(64)} ${ms(baseline)} ${ms(candidate)} ${`${(candidate / baseline).toFixed(2)}x`.padStart(8)}`);
      if (SHOW_SQL) {
        shown = [];
        await c.apl();
        for (const statement of new Set(shown)) console.log(`    ${statement}`);
      }
    }
    const diskBytes = await store.diskBytes();
    console.log(`\nevents on disk: ${(diskBytes / 1024 / 1024).toFixed(1)} MB`);
  } finally {
    agent.destroy();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
