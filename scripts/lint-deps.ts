// Checks that imports under src/ flow one way: doors (REST, GraphQL, the console, MCP) → services →
// domain → engines → db, with shared helpers and the field model importable from anywhere. The
// rules below are the ones the code keeps; `KNOWN` lists the imports that still go against them,
// each with the reason it stands, so a new wrong-way import fails while the old ones stay in sight.
// Run with `npm run lint:deps` (test/unit/lint-deps.test.ts runs it too).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

type Layer = 'root' | 'door' | 'services' | 'domain' | 'engine' | 'db' | 'config' | 'base';

/** One import, from a file to a file, both relative to src/. */
export interface ImportEdge {
  from: string;
  to: string;
}

export interface Violation extends ImportEdge {
  rule: string;
}

export interface DependencyReport {
  /** Imports against the rules that are not in KNOWN: these fail the check. */
  violations: Violation[];
  /** Imports against the rules that are listed in KNOWN. */
  known: Violation[];
  /** KNOWN entries that no longer occur: remove them. */
  stale: string[];
}

const DOORS = new Set(['rest', 'graphql', 'console', 'mcp']);
const DB = new Set(['db', 'generated']);
const BASE_DIRS = new Set(['lib', 'fields']);

/** Where a module sits in the layering. */
export function layerOf(file: string): Layer {
  if (file === 'app.ts' || file === 'main.ts') return 'root';
  if (file === 'services.ts') return 'services';
  if (file === 'config.ts') return 'config';
  if (file === 'errors.ts') return 'base';
  const top = file.split('/')[0]!;
  if (DOORS.has(top)) return 'door';
  if (top === 'engines') return 'engine';
  if (DB.has(top)) return 'db';
  if (BASE_DIRS.has(top)) return 'base';
  return 'domain';
}

const within = (file: string, folder: string) => file.startsWith(`${folder}/`);

/** The folders of the event side: the store seam, datasets and their fields, queries, ingest, the live tail. */
const EVENT_SIDE = ['events', 'datasets', 'queries', 'ingest', 'live-tail'];

/** Modules whose code is written for one engine, outside src/engines/. */
function isEngineSpecific(file: string): boolean {
  return (
    within(file, 'engines') ||
    within(file, 'apl/dialect/duckdb') ||
    within(file, 'apl/dialect/clickhouse') ||
    within(file, 'metrics/mpl/dialect/duckdb') ||
    within(file, 'metrics/mpl/dialect/clickhouse') ||
    within(file, 'metrics/store/clickhouse') ||
    /(^|\/)(duckdb|clickhouse|chdb)[-.]/.test(path.basename(file)) ||
    /-(duckdb|clickhouse|chdb)\.|(event|metrics|clickhouse)-store\.ts$/.test(path.basename(file))
  );
}

interface Rule {
  name: string;
  breaks(edge: ImportEdge): boolean;
}

const RANK: Record<Layer, number> = { root: 5, door: 4, services: 3, domain: 2, engine: 1, db: 0, config: -1, base: -2 };

export const RULES: Rule[] = [
  {
    name: 'only the entry points import app.ts and main.ts',
    breaks: ({ from, to }) => layerOf(to) === 'root' && layerOf(from) !== 'root',
  },
  {
    name: 'nothing below the doors imports a door (rest/, graphql/, console/, mcp/)',
    breaks: ({ from, to }) => layerOf(to) === 'door' && !['root', 'door'].includes(layerOf(from)),
  },
  {
    name: 'services.ts is imported only by the doors and the entry points',
    breaks: ({ from, to }) => layerOf(to) === 'services' && RANK[layerOf(from)] < RANK.services,
  },
  {
    name: 'engines/ imports no domain folder (apl/, events/, datasets/, metrics/ …)',
    breaks: ({ from, to }) => layerOf(from) === 'engine' && RANK[layerOf(to)] > RANK.engine,
  },
  {
    name: 'db/ imports only db/, the configuration and shared helpers',
    breaks: ({ from, to }) => layerOf(from) === 'db' && RANK[layerOf(to)] > RANK.db,
  },
  {
    name: 'shared helpers (lib/, fields/, errors.ts) import only each other',
    breaks: ({ from, to }) => layerOf(from) === 'base' && layerOf(to) !== 'base',
  },
  {
    name: 'apl/syntax and apl/semantic import nothing engine-specific and nothing from the event side or metrics/',
    breaks: ({ from, to }) =>
      (within(from, 'apl/syntax') || within(from, 'apl/semantic')) &&
      (isEngineSpecific(to) || within(to, 'apl/execution') || EVENT_SIDE.some((folder) => within(to, folder)) || within(to, 'metrics')),
  },
  {
    name: 'apl/ imports nothing from the event side, metrics/ or monitors/ (the features that use the query language)',
    breaks: ({ from, to }) =>
      within(from, 'apl') && (EVENT_SIDE.some((folder) => within(to, folder)) || within(to, 'metrics') || within(to, 'monitors')),
  },
  {
    name: 'engine-specific modules import nothing from apl/syntax or apl/semantic',
    breaks: ({ from, to }) => within(from, 'engines') && (within(to, 'apl/syntax') || within(to, 'apl/semantic')),
  },
];

/**
 * Imports that still go against a rule, as `from -> to` (relative to src/), with why they stand.
 * Each is a piece of the layering still to straighten; remove an entry once its import is gone.
 */
export const KNOWN: Record<string, string> = {
  // The APL runners implement the APL engine's runner seam (declared with the APL engine), and the
  // ClickHouse one completes statements whose functions the server evaluates.
  'engines/duckdb/apl-runner.ts -> apl/execution/runner.ts': 'the runner seam is declared by the APL engine',
  'engines/clickhouse/apl-runner.ts -> apl/execution/runner.ts': 'the runner seam is declared by the APL engine',
  'engines/clickhouse/apl-runner.ts -> apl/dialect/dialect.ts': 'compiled statements and their limit markers are declared by the dialect seam',
  'engines/clickhouse/apl-runner.ts -> apl/execution/server-functions.ts': 'functions ClickHouse cannot run are completed by the APL engine',
  'engines/clickhouse/apl-runner.ts -> apl/dialect/clickhouse/pricing.ts': 'the runner makes sure the price table the dialect joins exists',
  // The DuckDB functions run the APL engine's own JavaScript, so both engines agree.
  'engines/duckdb/udfs.ts -> apl/execution/text-functions.ts': 'the text functions are written once, in the APL engine',
  'engines/duckdb/genai-udfs.ts -> apl/execution/genai-messages.ts': 'the GenAI message rules are written once, in the APL engine',
  // The price tables are written in the shape the dialects' pricing joins read.
  'engines/duckdb/price-table.ts -> apl/dialect/duckdb/pricing.ts': 'the price table layout is declared by the dialect that joins it',
  'engines/clickhouse/price-table.ts -> apl/dialect/clickhouse/pricing.ts': 'the price table layout is declared by the dialect that joins it',
};

const SPECIFIER = /\b(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
const SOURCE = /\.(ts|mts|mjs)$/;

function sourceFiles(dir: string, base = dir): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'generated' && entry.name !== 'node_modules') files.push(...sourceFiles(full, base));
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(full);
  }
  return files;
}

function resolveImport(fromFile: string, specifier: string): string | undefined {
  const target = path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [target, `${target}.ts`, `${target}.mts`, `${target}.mjs`, path.join(target, 'index.ts'), target.replace(/\.js$/, '.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Every relative import between files under `srcDir`. */
export function importEdges(srcDir: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(srcDir)) {
    // Comments may quote import lines; only code counts.
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2]!;
      if (!specifier.startsWith('.')) continue;
      const target = resolveImport(file, specifier);
      if (!target || !target.startsWith(srcDir + path.sep)) continue;
      edges.push({ from: path.relative(srcDir, file).split(path.sep).join('/'), to: path.relative(srcDir, target).split(path.sep).join('/') });
    }
  }
  return edges;
}

export function checkDependencies(srcDir: string): DependencyReport {
  const violations: Violation[] = [];
  const known: Violation[] = [];
  const seen = new Set<string>();
  for (const edge of importEdges(srcDir)) {
    for (const rule of RULES) {
      if (!rule.breaks(edge)) continue;
      const key = `${edge.from} -> ${edge.to}`;
      if (key in KNOWN) {
        if (!seen.has(key)) known.push({ ...edge, rule: rule.name });
        seen.add(key);
      } else violations.push({ ...edge, rule: rule.name });
    }
  }
  return { violations, known, stale: Object.keys(KNOWN).filter((key) => !seen.has(key)) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
  const { violations, known, stale } = checkDependencies(srcDir);
  for (const v of known) console.log(`known: ${v.from} -> ${v.to} (${KNOWN[`${v.from} -> ${v.to}`]})`);
  for (const key of stale) console.log(`no longer found, remove from KNOWN: ${key}`);
  for (const v of violations) console.error(`${v.from} -> ${v.to}: ${v.rule}`);
  console.log(`${violations.length} import(s) against the layering, ${known.length} known`);
  process.exitCode = violations.length > 0 ? 1 : 0;
}
