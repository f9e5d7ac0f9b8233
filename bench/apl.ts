// APL engine speed: the four reference queries and a 10-page cursor walk over 1,000,000
// generated events (12 fields, 24 hours) in a DuckDB file, each beside the same question
// written by hand in DuckDB SQL, in the same run on the same connection pool.
//
//   npm run bench:apl
//   BENCH_RUNS=30 BENCH_EVENTS=1000000 npm run bench:apl
//
// Engine time is the whole of executeApl: parse, analyze, compile, run, decode into the result
// model. Hand-written time is the statement run and its rows read. Reported: median of
// BENCH_RUNS runs after warm-up, the ratio engine / hand-written (target: within 1.3x).
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { createDuckDBRunner, type EngineDeps, executeApl } from '../src/apl';
import type { DatasetSchema } from '../src/fields/schema';
import { duckdbTypeOf, quoteIdentifier } from '../src/engines/duckdb/layout';
import type { FieldType } from '../src/fields/types';
import { SYSTEM_STORED_FIELDS } from '../src/fields/system-fields';
import { timePaired } from './paired-timing';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const DIR = path.join(tmpdir(), 'eventdeck-bench-apl');
const FILE = path.join(DIR, `events-${EVENTS}.duckdb`);
const TABLE = 'ds_bench';
const START = 1_714_435_200_000_000_000n; // 2024-04-30T00:00:00Z
const DAY = 86_400_000_000_000n;

const FIELDS: { name: string; type: FieldType; sql: string }[] = [
  { name: 'status', type: 'integer', sql: `[200, 200, 200, 200, 201, 204, 301, 302, 400, 401, 403, 404, 500, 502, 503][1 + (h % 15)]` },
  { name: 'method', type: 'string', sql: `['GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH'][1 + (h // 16 % 7)]` },
  { name: 'uri', type: 'string', sql: `['/api/v1/users', '/api/v1/orders', '/static/app.js', '/home', '/login', '/api/v2/search', '/docs/intro', '/metrics'][1 + (h // 128 % 8)] || '/' || (h // 1024 % 500)::VARCHAR` },
  { name: 'duration', type: 'float', sql: `round((h // 4096 % 100000) / 37.0, 3)` },
  { name: 'user', type: 'string', sql: `'user-' || (h // 7 % 50000)::VARCHAR` },
  { name: 'geo.city', type: 'string', sql: `['Berlin', 'Paris', 'Tokyo', 'New York', 'Sydney', 'Lagos', 'Lima', 'Oslo'][1 + (h // 3 % 8)]` },
  { name: 'geo.country', type: 'string', sql: `['DE', 'FR', 'JP', 'US', 'AU', 'NG', 'PE', 'NO'][1 + (h // 3 % 8)]` },
  { name: 'content_type', type: 'string', sql: `['text/html', 'application/json', 'image/png', 'text/css'][1 + (h // 11 % 4)]` },
  { name: 'resp_bytes', type: 'integer', sql: `h // 13 % 100000` },
  { name: 'is_tls', type: 'boolean', sql: `h % 5 <> 0` },
  { name: 'trace_id', type: 'string', sql: `md5(i::VARCHAR)` },
  { name: 'message', type: 'string', sql: `'request handled in ' || (h // 4096 % 1000)::VARCHAR || ' ms'` },
];

const schema: DatasetSchema = {
  name: 'bench',
  table: TABLE,
  fields: [...SYSTEM_STORED_FIELDS, ...FIELDS.map((f, i) => ({ name: f.name, column: `c${i}_${f.name.replace('.', '_')}`, type: f.type }))],
};

async function prepareData(instance: DuckDBInstance): Promise<void> {
  const connection = await instance.connect();
  const existing = await connection.runAndReadAll(`SELECT count(*) FROM information_schema.tables WHERE table_name = '${TABLE}'`);
  if (Number(existing.getRows()[0]![0]) === 1) {
    connection.closeSync();
    return;
  }
  console.log(`generating ${EVENTS.toLocaleString('en-US')} events in ${FILE} ...`);
  const columns = schema.fields.map((f) => `${quoteIdentifier(f.column)} ${duckdbTypeOf(f.type)}`);
  await connection.run(`CREATE TABLE ${TABLE} (${columns.join(', ')})`);
  const values = [
    `make_timestamp_ns(${START} + (i * ${DAY / BigInt(EVENTS)})::BIGINT + (hash(i) % 1000)::BIGINT)`,
    `make_timestamp_ns(${START} + (i * ${DAY / BigInt(EVENTS)})::BIGINT + 5000000)`,
    'i + 1',
    ...FIELDS.map((f) => f.sql),
  ];
  await connection.run(`INSERT INTO ${TABLE} SELECT ${values.join(', ')} FROM (SELECT i, (hash(i * 31 + 7) % 9007199254740991)::BIGINT AS h FROM range(${EVENTS}) t(i))`);
  await connection.run('CHECKPOINT');
  connection.closeSync();
}

interface Case {
  name: string;
  engine: () => Promise<unknown>;
  hand: () => Promise<unknown>;
}

async function main() {
  mkdirSync(DIR, { recursive: true });
  const fresh = !existsSync(FILE);
  const instance = await DuckDBInstance.create(FILE);
  await prepareData(instance);
  if (fresh) console.log('data ready');

  const runner = createDuckDBRunner(instance);
  const deps: EngineDeps = {
    resolveDatasets: async (names) => (names.includes('bench') ? [schema] : []),
    runner,
    maxQueryRows: 65_000,
    queryTimeoutMs: 60_000,
    cursorKey: 'bench-key',
  };
  const hand = await instance.connect();
  const sql = async (text: string, params: (string | bigint)[] = []) => (await hand.runAndReadAll(text, params as never)).getRows();
  const col = (name: string) => quoteIdentifier(schema.fields.find((f) => f.name === name)!.column);
  const apl = (text: string, options = {}) => executeApl({ apl: text, ...options }, deps);

  const walkEngine = async () => {
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const result = await apl("['bench'] | sort by _time desc | take 1000", cursor ? { cursor } : {});
      cursor = result.status.minCursor;
    }
  };
  const walkHand = async () => {
    let last: [bigint, bigint] | undefined;
    for (let page = 0; page < 10; page++) {
      const where = last ? `WHERE _time <= make_timestamp_ns($1::BIGINT) AND (_time < make_timestamp_ns($1::BIGINT) OR (_time = make_timestamp_ns($1::BIGINT) AND _rowId < $2::BIGINT))` : '';
      const rows = await sql(`SELECT epoch_ns(_time) AS t, _rowId, * EXCLUDE (_time, _rowId) FROM ${TABLE} ${where} ORDER BY _time DESC, _rowId DESC LIMIT 1000`, last ? [last[0], last[1]] : []);
      const tail = rows[rows.length - 1]!;
      last = [tail[0] as bigint, tail[1] as bigint];
    }
  };

  const cases: Case[] = [
    {
      name: 'summarize count() by bin(_time, 1h)',
      engine: () => apl("['bench'] | summarize count() by bin(_time, 1h)"),
      hand: () => sql(`SELECT time_bucket(INTERVAL 1 HOUR, _time) AS t, count(*) FROM ${TABLE} GROUP BY t ORDER BY t`),
    },
    {
      name: 'where status >= 500 | summarize count() by uri | top 10 by count_',
      engine: () => apl("['bench'] | where status >= 500 | summarize count() by uri | top 10 by count_"),
      hand: () => sql(`SELECT ${col('uri')}, count(*) AS c FROM ${TABLE} WHERE ${col('status')} >= 500 GROUP BY 1 ORDER BY c DESC LIMIT 10`),
    },
    {
      name: 'where uri contains "api" | take 100',
      engine: () => apl("['bench'] | where uri contains \"api\" | take 100"),
      hand: () => sql(`SELECT * FROM ${TABLE} WHERE ${col('uri')} ILIKE '%api%' LIMIT 100`),
    },
    {
      name: 'summarize dcount(user), percentile(duration, 99) by method',
      engine: () => apl("['bench'] | summarize dcount(user), percentile(duration, 99) by method"),
      hand: () => sql(`SELECT ${col('method')}, count(DISTINCT ${col('user')}), quantile_disc(${col('duration')}, 0.99) FROM ${TABLE} GROUP BY 1`),
    },
    { name: '10-page cursor walk (1000 rows a page)', engine: walkEngine, hand: walkHand },
  ];

  console.log(`\n${EVENTS.toLocaleString('en-US')} events, ${FIELDS.length} fields, 24 hours; median of ${RUNS} runs after warm-up\n`);
  console.log(`${'query'.padEnd(64)} ${'hand SQL'.padStart(10)} ${'engine'.padStart(10)} ${'ratio'.padStart(7)}`);
  for (const c of cases) {
    const { baseline: h, candidate: e } = await timePaired(c.hand, c.engine, RUNS);
    console.log(`${c.name.padEnd(64)} ${`${h.toFixed(1)} ms`.padStart(10)} ${`${e.toFixed(1)} ms`.padStart(10)} ${`${(e / h).toFixed(2)}x`.padStart(7)}`);
  }
  hand.closeSync();
  instance.closeSync();
}

await main();
