// Cost of the GenAI functions: 1,000,000 generated LLM-call events over 7 days in a DuckDB file
// (or, with BENCH_STORE=chdb, in ClickHouse embedded, through the ClickHouse dialect), priced from
// the model catalog (LiteLLM's price file beside the repository when present, else the bundled
// fallback data) with one price change in the middle of the week, each query beside the same
// query with a constant in place of the function, in the same run.
//
//   npm run bench:genai
//   BENCH_RUNS=31 BENCH_EVENTS=1000000 npm run bench:genai
//   BENCH_STORE=chdb npm run bench:genai
//
// Reported: median of BENCH_RUNS runs after warm-up, and the ratio function / baseline. Engine
// time is the whole of executeApl (parse, analyze, compile, run, decode).
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { createDuckDBRunner, type EngineDeps, executeApl, installPriceTable, priceBoundaries, type PriceTableRow } from '../src/apl';
import { CLICKHOUSE_QUERY_SETTINGS, clickhouseDialect } from '../src/apl/dialect/clickhouse';
import { installClickHousePriceTable } from '../src/engines/clickhouse/price-table';
import { createClickHouseRunner } from '../src/engines/clickhouse/apl-runner';
import { buildCatalog } from '../src/catalog/build';
import { loadFallbackData } from '../src/catalog/fallback';
import { buildPriceRows } from '../src/catalog/price-book';
import { type PricePeriod, pricesOf } from '../src/catalog/price-history';
import { ChdbExecutor } from '../src/engines/clickhouse/chdb-executor';
import { clickhouseTypeOf, columnIdentifier, SYSTEM_COLUMNS_SQL } from '../src/engines/clickhouse/layout';
import type { DatasetSchema } from '../src/fields/schema';
import { DUCKDB_TYPE_OF, quoteIdentifier } from '../src/engines/duckdb/layout';
import type { FieldType, ScalarFieldType } from '../src/fields/types';
import { SYSTEM_STORED_FIELDS } from '../src/fields/system-fields';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const STORE = process.env.BENCH_STORE === 'chdb' ? 'chdb' : 'duckdb';
const DIR = path.join(tmpdir(), `eventdeck-bench-genai-${process.pid}`);
const TABLE = 'ds_llm';
const START = 1_714_435_200_000_000_000n; // 2024-04-30T00:00:00Z
const WEEK = 7n * 86_400_000_000_000n;
/** The catalog's second sync, which cuts one model's prices, half way through the week. */
const PRICE_CUT = new Date(Number((START + WEEK / 2n) / 1_000_000n));
const LITELLM_FILE = path.join(import.meta.dirname, '../../shared/data/litellm/model_prices_and_context_window.json');

/** The names the events carry: bare, provider-qualified, dated (known and unknown), Bedrock, and one no catalog knows. */
const MODEL_NAMES = [
  'gpt-4o',
  'gpt-4o-mini',
  'gpt-4o-2024-08-06',
  'openai/gpt-4o',
  'gpt-4.1',
  'gpt-4o-2099-01-01',
  'claude-sonnet-4-20250514',
  'anthropic.claude-3-5-sonnet-20240620-v1:0',
  'gemini-2.5-pro',
  'mistral-large-latest',
  'in-house-model-v2',
];

/** Each field's generator in DuckDB's SQL (`sql`) and in ClickHouse's (`chSql`), from a hash `h` of the row number. */
const FIELDS: { name: string; type: FieldType; sql: string; chSql: string }[] = [
  {
    name: 'model',
    type: 'string',
    sql: `[${MODEL_NAMES.map((n) => `'${n}'`).join(', ')}][1 + (h % ${MODEL_NAMES.length})::BIGINT]`,
    chSql: `[${MODEL_NAMES.map((n) => `'${n}'`).join(', ')}][1 + (h % ${MODEL_NAMES.length})]`,
  },
  { name: 'input_tokens', type: 'integer', sql: `100 + h // 16 % 8000`, chSql: `toInt64(100 + intDiv(h, 16) % 8000)` },
  { name: 'output_tokens', type: 'integer', sql: `10 + h // 131072 % 2000`, chSql: `toInt64(10 + intDiv(h, 131072) % 2000)` },
  { name: 'cache_read_tokens', type: 'integer', sql: `(h // 16 % 8000) // 2`, chSql: `toInt64(intDiv(intDiv(h, 16) % 8000, 2))` },
];

const schema: DatasetSchema = {
  name: 'llm',
  table: TABLE,
  fields: [...SYSTEM_STORED_FIELDS, ...FIELDS.map((f, i) => ({ name: f.name, column: `c${i}_${f.name}`, type: f.type }))],
};

async function prepareData(instance: DuckDBInstance): Promise<void> {
  const connection = await instance.connect();
  const columns = schema.fields.map((f) => `${quoteIdentifier(f.column)} ${DUCKDB_TYPE_OF[f.type as ScalarFieldType]}`);
  await connection.run(`CREATE TABLE ${TABLE} (${columns.join(', ')})`);
  const step = WEEK / BigInt(EVENTS);
  const values = [`make_timestamp_ns(${START} + i * ${step})`, `make_timestamp_ns(${START} + i * ${step} + 5000000)`, 'i + 1', ...FIELDS.map((f) => f.sql)];
  await connection.run(`INSERT INTO ${TABLE} SELECT ${values.join(', ')} FROM (SELECT i, (hash(i * 31 + 7) % 9007199254740991)::BIGINT AS h FROM range(${EVENTS}) t(i))`);
  await connection.run('CHECKPOINT');
  connection.closeSync();
}

/** The catalog's prices with a history: gpt-4o cost twice as much before the cut. */
async function priceRows() {
  const document = existsSync(LITELLM_FILE) ? JSON.parse(readFileSync(LITELLM_FILE, 'utf8')) : (await loadFallbackData()).entries;
  const { records } = buildCatalog(document);
  const periods: PricePeriod[] = [];
  for (const record of records) {
    const now = { modelId: record.model_id, providerId: record.provider_id, validTo: null, ...pricesOf(record) };
    if (record.model_id !== 'gpt-4o') periods.push({ ...now, validFrom: null });
    else {
      periods.push({ ...now, validFrom: null, validTo: PRICE_CUT, inputCostPerToken: now.inputCostPerToken * 2, outputCostPerToken: now.outputCostPerToken * 2 });
      periods.push({ ...now, validFrom: PRICE_CUT });
    }
  }
  return { rows: buildPriceRows(records, periods), source: existsSync(LITELLM_FILE) ? 'LiteLLM price file' : 'bundled fallback data' };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Case {
  name: string;
  apl: string;
  /** The same query with a constant in place of the function (or of the prices it looks up). */
  baseline: string;
}

const CASES: Case[] = [
  {
    name: 'sum(genai_cost(model, i, o)) by bin(_time, 1h), model',
    apl: "['llm'] | summarize sum(genai_cost(model, input_tokens, output_tokens)) by bin(_time, 1h), model",
    baseline: "['llm'] | summarize sum(0.0025) by bin(_time, 1h), model",
  },
  {
    name: 'the same, against constant prices per token',
    apl: "['llm'] | summarize sum(genai_cost(model, input_tokens, output_tokens)) by bin(_time, 1h), model",
    baseline: "['llm'] | summarize sum(input_tokens * 0.0000025 + output_tokens * 0.00001) by bin(_time, 1h), model",
  },
  {
    name: 'sum(genai_cost(model, i, o, cache_read)) by bin(_time, 1d), model',
    apl: "['llm'] | summarize sum(genai_cost(model, input_tokens, output_tokens, cache_read_tokens)) by bin(_time, 1d), model",
    baseline: "['llm'] | summarize sum(0.0025) by bin(_time, 1d), model",
  },
  {
    name: 'extend cost | top 10 by cost',
    apl: "['llm'] | extend cost = genai_cost(model, input_tokens, output_tokens) | top 10 by cost",
    baseline: "['llm'] | extend cost = 0.0025 * input_tokens | top 10 by cost",
  },
];

/** The engine over the events, with the prices installed: DuckDB's, or ClickHouse's on chdb. */
interface Engine {
  engine: Pick<EngineDeps, 'runner' | 'dialect'>;
  close(): Promise<void> | void;
}

async function duckdbEngine(rows: readonly PriceTableRow[]): Promise<Engine> {
  const instance = await DuckDBInstance.create(path.join(DIR, 'events.duckdb'));
  await prepareData(instance);
  const setup = await instance.connect();
  await installPriceTable(setup, rows);
  setup.closeSync();
  return { engine: { runner: createDuckDBRunner(instance) }, close: () => instance.closeSync() };
}

async function chdbEngine(rows: readonly PriceTableRow[]): Promise<Engine> {
  const executor = await ChdbExecutor.open(path.join(DIR, 'chdb'), { ...CLICKHOUSE_QUERY_SETTINGS });
  const columns = schema.fields.slice(SYSTEM_STORED_FIELDS.length).map((f) => `${columnIdentifier(f.column)} ${clickhouseTypeOf(f.type)}`);
  await executor.command(`CREATE TABLE ${TABLE} (${[SYSTEM_COLUMNS_SQL, ...columns].join(', ')}) ENGINE = MergeTree ORDER BY (_time, _rowId)`);
  const step = WEEK / BigInt(EVENTS);
  const time = (offset: string) => `fromUnixTimestamp64Nano(toInt64(${START}) + toInt64(number) * ${step}${offset})`;
  const values = [time(''), time(' + 5000000'), 'toInt64(number + 1)', ...FIELDS.map((f) => f.chSql)];
  await executor.command(`INSERT INTO ${TABLE} SELECT ${values.join(', ')} FROM (SELECT number, cityHash64(number * 31 + 7) % 9007199254740991 AS h FROM numbers(${EVENTS}))`);
  await installClickHousePriceTable(executor, rows, 1);
  return { engine: { runner: createClickHouseRunner(executor), dialect: clickhouseDialect }, close: () => executor.close() };
}

async function main() {
  mkdirSync(DIR, { recursive: true });
  let engine: Engine | undefined;
  try {
    const { rows, source } = await priceRows();
    console.log(`generating ${EVENTS.toLocaleString('en-US')} events in ${STORE === 'chdb' ? 'ClickHouse (chdb)' : 'DuckDB'} ...`);
    engine = await (STORE === 'chdb' ? chdbEngine(rows) : duckdbEngine(rows));
    console.log(`price table: ${rows.length.toLocaleString('en-US')} rows from the ${source}`);
    const boundaries = priceBoundaries(rows);
    const deps: EngineDeps = {
      resolveDatasets: async (names) => (names.includes('llm') ? [schema] : []),
      ...engine.engine,
      maxQueryRows: 65_000,
      queryTimeoutMs: 600_000,
      cursorKey: 'bench',
      // As the server compiles: sums of costs are priced per price era.
      priceBoundaries: () => boundaries,
    };
    const run = async (apl: string) => {
      const started = performance.now();
      await executeApl({ apl }, deps);
      return performance.now() - started;
    };
    console.log(`\n${EVENTS.toLocaleString('en-US')} events over 7 days, ${MODEL_NAMES.length} model names; median of ${RUNS} runs\n`);
    console.log('| query | constant in place of the function | with the function | ratio |\n| --- | ---: | ---: | ---: |');
    for (const c of CASES) {
      for (let i = 0; i < 3; i++) {
        await run(c.apl);
        await run(c.baseline);
      }
      const withFunction: number[] = [];
      const baseline: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        withFunction.push(await run(c.apl));
        baseline.push(await run(c.baseline));
      }
      const [f, b] = [median(withFunction), median(baseline)];
      console.log(`| \`${c.name}\` | ${b.toFixed(1)} ms | ${f.toFixed(1)} ms | ${(f / b).toFixed(2)} |`);
    }
  } finally {
    await engine?.close();
    rmSync(DIR, { recursive: true, force: true });
  }
}

await main();
