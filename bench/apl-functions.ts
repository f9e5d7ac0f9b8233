// Cost of APL functions: queries whose work is a scalar function or aggregation, over generated
// events in a DuckDB file, each beside a baseline in the same run: the same question written by
// hand in DuckDB SQL where there is one, else the same query without the function.
//
//   npm run bench:apl-functions
//   BENCH_RUNS=9 BENCH_EVENTS=200000 npm run bench:apl-functions
//
// Reported: median of BENCH_RUNS runs after a warm-up, and the ratio function / baseline.
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { createDuckDBRunner, type EngineDeps, executeApl } from '../src/apl';
import type { DatasetSchema } from '../src/fields/schema';
import { duckdbTypeOf, quoteIdentifier } from '../src/engines/duckdb/layout';
import type { FieldType } from '../src/fields/types';
import { SYSTEM_STORED_FIELDS } from '../src/fields/system-fields';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const DIR = path.join(tmpdir(), `eventdeck-bench-functions-${process.pid}`);
const TABLE = 'ds_functions';
const START = 1_714_435_200_000_000_000n;
const DAY = 86_400_000_000_000n;

const FIELDS: { name: string; type: FieldType; sql: string }[] = [
  { name: 'method', type: 'string', sql: `['GET', 'GET', 'POST', 'PUT', 'DELETE'][1 + (h % 5)]` },
  { name: 'uri', type: 'string', sql: `'/api/v' || (h % 3)::VARCHAR || '/items/' || (h // 7 % 1000)::VARCHAR || '/detail'` },
  { name: 'client', type: 'string', sql: `(1 + h % 223)::VARCHAR || '.' || (h // 223 % 256)::VARCHAR || '.' || (h // 57088 % 256)::VARCHAR || '.' || (h // 14614528 % 256)::VARCHAR` },
  { name: 'duration', type: 'float', sql: `round((h // 4096 % 100000) / 37.0, 3)` },
  { name: 'message', type: 'string', sql: `['user login failed', 'payment accepted', 'cache miss for key', 'timeout talking to db'][1 + (h // 11 % 4)] || ' ' || (h % 100)::VARCHAR` },
];

const schema: DatasetSchema = {
  name: 'functions',
  table: TABLE,
  fields: [...SYSTEM_STORED_FIELDS, ...FIELDS.map((f, i) => ({ name: f.name, column: `c${i}_${f.name}`, type: f.type }))],
};
const column = (name: string) => quoteIdentifier(schema.fields.find((f) => f.name === name)!.column);

async function prepareData(instance: DuckDBInstance): Promise<void> {
  const connection = await instance.connect();
  const columns = schema.fields.map((f) => `${quoteIdentifier(f.column)} ${duckdbTypeOf(f.type)}`);
  await connection.run(`CREATE TABLE ${TABLE} (${columns.join(', ')})`);
  const values = [
    `make_timestamp_ns(${START} + (i * ${DAY / BigInt(EVENTS)})::BIGINT)`,
    `make_timestamp_ns(${START} + (i * ${DAY / BigInt(EVENTS)})::BIGINT + 5000000)`,
    'i + 1',
    ...FIELDS.map((f) => f.sql),
  ];
  await connection.run(`INSERT INTO ${TABLE} SELECT ${values.join(', ')} FROM (SELECT i, (hash(i * 31 + 7) % 9007199254740991)::BIGINT AS h FROM range(${EVENTS}) t(i))`);
  await connection.run('CHECKPOINT');
  connection.closeSync();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Case {
  name: string;
  apl: string;
  /** Hand-written SQL for the same answer, or an APL baseline without the function. */
  baseline: { sql: string } | { apl: string };
}

/** The long of a dotted address, written by hand (no validation). */
const handIpv4 = (c: string) => `(split_part(${c}, '.', 1)::BIGINT * 16777216 + split_part(${c}, '.', 2)::BIGINT * 65536 + split_part(${c}, '.', 3)::BIGINT * 256 + split_part(${c}, '.', 4)::BIGINT)`;

const CASES: Case[] = [
  { name: "countof('/', uri)", apl: "['functions'] | summarize sum(countof('/', uri))", baseline: { sql: `SELECT sum(length(${column('uri')}) - length(replace(${column('uri')}, '/', ''))) FROM ${TABLE}` } },
  { name: 'parse_ipv4(client)', apl: "['functions'] | summarize sum(parse_ipv4(client))", baseline: { sql: `SELECT sum(${handIpv4(column('client'))}) FROM ${TABLE}` } },
  { name: "ipv4_is_in_range(client, '10.0.0.0/8')", apl: "['functions'] | where ipv4_is_in_range(client, '10.0.0.0/8') | count", baseline: { sql: `SELECT count(*) FROM ${TABLE} WHERE ${handIpv4(column('client'))} BETWEEN 167772160 AND 184549375` } },
  { name: "replace_regex(@'/(\\d+)', '/#', uri)", apl: "['functions'] | summarize dcount(replace_regex(@'/(\\d+)', '/#', uri))", baseline: { sql: `SELECT count(DISTINCT regexp_replace(${column('uri')}, '/(\\d+)', '/#', 'g')) FROM ${TABLE}` } },
  { name: 'geo_info_from_ip_address(client) (UDF)', apl: "['functions'] | summarize dcount(tostring(geo_info_from_ip_address(client).country_iso))", baseline: { apl: "['functions'] | summarize dcount(client)" } },
  { name: 'series_fir over hourly lists', apl: "['functions'] | summarize s = make_list(duration) by bin(_time, 1h) | extend f = series_fir(s, dynamic([0.25, 0.25, 0.25, 0.25])) | project f", baseline: { apl: "['functions'] | summarize s = make_list(duration) by bin(_time, 1h) | project s" } },
  { name: 'phrases(message, 10)', apl: "['functions'] | summarize phrases(message, 10)", baseline: { apl: "['functions'] | summarize make_list(message)" } },
  { name: 'spotlight(duration > 2000, method, duration)', apl: "['functions'] | summarize spotlight(duration > 2000, method, duration)", baseline: { apl: "['functions'] | summarize countif(duration > 2000), dcount(method), percentiles_array(duration, 25, 50, 75)" } },
];

async function main() {
  mkdirSync(DIR, { recursive: true });
  const instance = await DuckDBInstance.create(path.join(DIR, 'events.duckdb'));
  try {
    console.log(`generating ${EVENTS.toLocaleString('en-US')} events ...`);
    await prepareData(instance);
    const deps: EngineDeps = {
      resolveDatasets: async (names) => (names.includes('functions') ? [schema] : []),
      runner: createDuckDBRunner(instance),
      maxQueryRows: 65_000,
      queryTimeoutMs: 600_000,
      cursorKey: 'bench',
    };
    const hand = await instance.connect();
    const run = async (what: { apl: string } | { sql: string }) => {
      const started = performance.now();
      if ('apl' in what) await executeApl({ apl: what.apl }, deps);
      else (await hand.runAndReadAll(what.sql)).getRows();
      return performance.now() - started;
    };
    console.log(`\n| function | baseline | with the function | ratio |\n| --- | ---: | ---: | ---: |`);
    for (const c of CASES) {
      await run({ apl: c.apl });
      await run(c.baseline);
      const withFunction: number[] = [];
      const baseline: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        withFunction.push(await run({ apl: c.apl }));
        baseline.push(await run(c.baseline));
      }
      const kind = 'sql' in c.baseline ? 'hand-written SQL' : 'without it';
      const [f, b] = [median(withFunction), median(baseline)];
      console.log(`| ${c.name} | ${b.toFixed(1)} ms (${kind}) | ${f.toFixed(1)} ms | ${(f / b).toFixed(2)} |`);
    }
    hand.closeSync();
  } finally {
    instance.closeSync();
    rmSync(DIR, { recursive: true, force: true });
  }
}

await main();
