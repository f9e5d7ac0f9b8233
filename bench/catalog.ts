// Catalog read speed: requests/s of GET /api/v1/models (full list), a filtered list, one model
// by id, and the equivalent GraphQL queries, each beside a bare node:http server in a process of
// its own that answers the same bytes. Every scenario runs in alternating rounds (bare, app, then
// app, bare, ...; a GraphQL scenario also alternates with the REST route that returns the same
// data), so that the machine's load weighs on each side alike; the medians are compared (and,
// for information, the median of the ratios within each round and each server process's CPU
// time per request).
//
//   npm run bench:catalog -- [--duration 3] [--connections 10] [--rounds 5] [--only "model by id"]
//
// Targets: each REST route at 0.9x the bare server or more; GraphQL `model(id)` at 0.75x the REST
// route or more (the GraphQL lists at a third of theirs). BENCH_SERVER_NODE_ARGS passes flags to
// the application's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where time goes.
// The real LiteLLM snapshot (../shared) is used when present, else the small fixture.
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { benchNodeArgs } from './server-command';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SNAPSHOT = path.join(ROOT, '../shared/data/litellm/model_prices_and_context_window.json');
const FIXTURE = path.join(ROOT, 'test/fixtures/litellm-small.json');

const MODEL_FIELDS = `modelId modelName providerId providerName maxInputTokens maxOutputTokens
  inputCostPerToken inputCostPerMillion outputCostPerToken outputCostPerMillion
  cacheReadCostPerToken cacheReadCostPerMillion cacheWriteCostPerToken cacheWriteCostPerMillion
  supportsFunctionCalling supportsVision supportsJsonMode supportsParallelFunctions modelType deprecationDate`;

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** For GraphQL: the REST scenario that returns the same data, and the share of its rate to reach. */
  sameDataAs?: { name: string; target: number };
  /** The share of the bare server's rate to reach, when that is the target. */
  bareTarget?: number;
}

const graphql = (query: string) => JSON.stringify({ query });

const SCENARIOS: Scenario[] = [
  { name: 'REST full list', method: 'GET', path: '/api/v1/models', bareTarget: 0.9 },
  {
    name: 'REST filtered list',
    method: 'GET',
    path: '/api/v1/models?providers=openai&capability=function_calling&project=model_id,model_name,input_cost_per_million,output_cost_per_million',
    bareTarget: 0.9,
  },
  { name: 'REST model by id', method: 'GET', path: '/api/v1/models/gpt-4o', bareTarget: 0.9 },
  {
    name: 'GraphQL full list',
    method: 'POST',
    path: '/graphql',
    body: graphql(`{ models(first: 10000) { edges { node { ${MODEL_FIELDS} } } } }`),
    sameDataAs: { name: 'REST full list', target: 1 / 3 },
  },
  {
    name: 'GraphQL filtered list',
    method: 'POST',
    path: '/graphql',
    body: graphql(
      '{ models(first: 10000, filter: { providers: ["openai"], capability: ["function_calling"] }) { edges { node { modelId modelName inputCostPerMillion outputCostPerMillion } } } }',
    ),
    sameDataAs: { name: 'REST filtered list', target: 1 / 3 },
  },
  {
    name: 'GraphQL model by id',
    method: 'POST',
    path: '/graphql',
    body: graphql(`{ model(id: "gpt-4o") { ${MODEL_FIELDS} } }`),
    sameDataAs: { name: 'REST model by id', target: 0.75 },
  },
];

/** What the bare servers answer: one per scenario, the application's body and content type. */
interface BareAnswer {
  name: string;
  contentType: string;
  body: Buffer;
}

/** Child process: the application alone. */
async function serveApp() {
  const { createApp } = await import('../src/app');
  const { loadConfig } = await import('../src/config');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-'));
  const source = existsSync(SNAPSHOT) ? SNAPSHOT : FIXTURE;
  // The whole catalog in one GraphQL page resolves more fields than the default cost budget allows.
  const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', MODEL_CATALOG_SOURCE: source, ADMIN_TOKEN: 'xapt-bench-admin-token-0000', GRAPHQL_MAX_COST: '2000000' });
  const app = await createApp(config);
  const address = await app.server.listen({ host: '127.0.0.1', port: 0 });
  process.send?.({ port: Number(new URL(address).port), source });
  process.on('disconnect', async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

/** Child process: one bare node:http server per answer it is sent, in a process of its own. */
function serveBare() {
  process.once('message', async (answers: BareAnswer[]) => {
    const ports: Record<string, number> = {};
    for (const { name, contentType, body: received } of answers) {
      const body = Buffer.from(received);
      const server = http.createServer((request, reply) => {
        // Read the request body as a real server must, then answer the stored bytes.
        request.resume();
        request.on('end', () => {
          reply.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
          reply.end(body);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      ports[name] = (server.address() as { port: number }).port;
    }
    process.send?.(ports);
  });
  process.on('disconnect', () => process.exit(0));
}

function forkChild(mode: 'app' | 'bare', nodeArgs: string[]): ChildProcess {
  return fork(fileURLToPath(import.meta.url), ['--serve', mode], {
    execArgv: [...nodeArgs, '--import', 'tsx'],
    stdio: 'inherit',
    serialization: 'advanced',
  });
}

function firstMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as T));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

/** The application's answer to a scenario, refused unless it is a 200 without GraphQL errors. */
async function answerOf(port: number, scenario: Scenario): Promise<BareAnswer> {
  const response = await fetch(`http://127.0.0.1:${port}${scenario.path}`, {
    method: scenario.method,
    body: scenario.body,
    headers: { 'accept-encoding': 'identity', ...(scenario.body ? { 'content-type': 'application/json' } : {}) },
  });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200 || (scenario.body && body.includes('"errors"'))) {
    throw new Error(`${scenario.name}: HTTP ${response.status} ${body.toString().slice(0, 300)}`);
  }
  return { name: scenario.name, contentType: response.headers.get('content-type') ?? 'application/json', body };
}

/** CPU seconds a process has used so far (all its threads), from /proc. */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Requests per second and requests in all of one run of autocannon. */
async function load(port: number, scenario: Scenario, duration: number, connections: number): Promise<{ rate: number; total: number }> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${scenario.path}`,
    method: scenario.method,
    body: scenario.body,
    headers: scenario.body ? { 'content-type': 'application/json' } : {},
    connections,
    duration,
  });
  if (result.errors || result.non2xx || result.timeouts) {
    throw new Error(`${scenario.name} on port ${port}: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`);
  }
  return { rate: result.requests.average, total: result.requests.total };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** One side of a comparison: a server (its process) and the request it is sent. */
interface Contender {
  label: string;
  port: number;
  pid: number;
  scenario: Scenario;
}

/**
 * Loads each contender once per round, in turns whose order flips every round (A B C, C B A,
 * ...), after a short warm-up of each; returns every rate measured and the server's CPU
 * microseconds per request in each run, by label.
 */
async function alternate(contenders: Contender[], rounds: number, duration: number, connections: number) {
  for (const { port, scenario } of contenders) await load(port, scenario, 1, connections);
  const rates: Record<string, number[]> = Object.fromEntries(contenders.map(({ label }) => [label, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(contenders.map(({ label }) => [label, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? contenders : [...contenders].reverse();
    for (const { label, port, pid, scenario } of order) {
      const before = cpuSecondsOf(pid);
      const { rate, total } = await load(port, scenario, duration, connections);
      rates[label]!.push(rate);
      cpu[label]!.push(((cpuSecondsOf(pid) - before) * 1e6) / total);
    }
  }
  return { rates, cpu };
}

async function main() {
  const { values } = parseArgs({
    options: { duration: { type: 'string' }, connections: { type: 'string' }, rounds: { type: 'string' }, only: { type: 'string' } },
  });
  const duration = Number(values.duration ?? 3);
  const connections = Number(values.connections ?? 10);
  const rounds = Math.max(3, Number(values.rounds ?? 5));
  const scenarios = SCENARIOS.filter((scenario) => !values.only || scenario.name.includes(values.only));
  const appChild = forkChild('app', benchNodeArgs());
  const bareChild = forkChild('bare', []);
  try {
    const app = await firstMessage<{ port: number; source: string }>(appChild);
    const answers = await Promise.all(scenarios.map((scenario) => answerOf(app.port, scenario)));
    const barePortsReady = firstMessage<Record<string, number>>(bareChild);
    bareChild.send(answers);
    const barePorts = await barePortsReady;
    const bytes = Object.fromEntries(answers.map(({ name, body }) => [name, body.length]));

    console.log(`catalog source: ${app.source}`);
    console.log(`autocannon: ${connections} connections, ${duration} s per run, ${rounds} alternating rounds; app and bare servers each in a child process\n`);
    const rows: string[][] = [];
    for (const scenario of scenarios) {
      const rest = scenario.sameDataAs && SCENARIOS.find(({ name }) => name === scenario.sameDataAs!.name)!;
      const contenders: Contender[] = [
        { label: 'bare', port: barePorts[scenario.name]!, pid: bareChild.pid!, scenario },
        { label: 'app', port: app.port, pid: appChild.pid!, scenario },
        ...(rest ? [{ label: 'rest', port: app.port, pid: appChild.pid!, scenario: rest }] : []),
      ];
      const { rates, cpu } = await alternate(contenders, rounds, duration, connections);
      const [bare, appRate] = [median(rates.bare!), median(rates.app!)];
      const versusBare = appRate / bare;
      const pairedRatio = (of: string, to: string) => median(rates[of]!.map((rate, round) => rate / rates[to]![round]!)).toFixed(2);
      const row = [scenario.name, `${bytes[scenario.name]}`, bare.toFixed(0), appRate.toFixed(0), `${versusBare.toFixed(2)}x bare (paired ${pairedRatio('app', 'bare')})`];
      if (rest) {
        const restRate = median(rates.rest!);
        const ratio = appRate / restRate;
        const { target } = scenario.sameDataAs!;
        row.push(`${ratio.toFixed(2)}x REST ${restRate.toFixed(0)} (paired ${pairedRatio('app', 'rest')}) ${ratio >= target ? 'ok' : 'BELOW'} (>= ${target.toFixed(2)}x REST)`);
      } else {
        const target = scenario.bareTarget ?? 0;
        row.push(`${versusBare >= target ? 'ok' : 'BELOW'} (>= ${target.toFixed(2)}x bare)`);
      }
      const perRound = Object.entries(rates).map(([label, each]) => `${label} ${each.map((rate) => rate.toFixed(0)).join('/')}`);
      row.push(`rounds: ${perRound.join(', ')}`);
      row.push(`server CPU µs/request: ${Object.entries(cpu).map(([label, each]) => `${label} ${median(each).toFixed(0)}`).join(', ')}`);
      rows.push(row);
      console.log(row.join(' | '));
    }
    console.log('\nscenario | body bytes | bare req/s | app req/s | vs bare | target | per round | server CPU');
    for (const row of rows) console.log(row.join(' | '));
  } finally {
    appChild.disconnect();
    bareChild.disconnect();
  }
}

const serveMode = process.argv.includes('--serve') ? process.argv[process.argv.indexOf('--serve') + 1] : undefined;
if (serveMode === 'app') {
  await serveApp();
} else if (serveMode === 'bare') {
  serveBare();
} else {
  await main();
}
