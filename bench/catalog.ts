// Catalog read speed: requests/s of GET /api/v1/models (full list), a filtered list, one model
// by id, and the equivalent GraphQL queries, each beside a bare node:http server that answers
// the same pre-serialized bytes, measured in the same run with autocannon.
//
//   npm run bench:catalog -- [--duration 5] [--connections 10]
//
// The servers run in a child process so that the load generator does not share their event
// loop. The real LiteLLM snapshot (../shared) is used when present, else the small fixture.
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

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
  /** For GraphQL: the REST scenario that returns the same data. */
  sameDataAs?: string;
}

const graphql = (query: string) => JSON.stringify({ query });

const SCENARIOS: Scenario[] = [
  { name: 'REST full list', method: 'GET', path: '/api/v1/models' },
  {
    name: 'REST filtered list',
    method: 'GET',
    path: '/api/v1/models?providers=openai&capability=function_calling&project=model_id,model_name,input_cost_per_million,output_cost_per_million',
  },
  { name: 'REST model by id', method: 'GET', path: '/api/v1/models/gpt-4o' },
  {
    name: 'GraphQL full list',
    method: 'POST',
    path: '/graphql',
    body: graphql(`{ models(first: 10000) { edges { node { ${MODEL_FIELDS} } } } }`),
    sameDataAs: 'REST full list',
  },
  {
    name: 'GraphQL filtered list',
    method: 'POST',
    path: '/graphql',
    body: graphql(
      '{ models(first: 10000, filter: { providers: ["openai"], capability: ["function_calling"] }) { edges { node { modelId modelName inputCostPerMillion outputCostPerMillion } } } }',
    ),
    sameDataAs: 'REST filtered list',
  },
  {
    name: 'GraphQL model by id',
    method: 'POST',
    path: '/graphql',
    body: graphql(`{ model(id: "gpt-4o") { ${MODEL_FIELDS} } }`),
    sameDataAs: 'REST model by id',
  },
];

interface Ports {
  app: number;
  bare: Record<string, number>;
  source: string;
  bytes: Record<string, number>;
}

/** Child process: the application and one bare server per scenario, answering its bytes. */
async function serve() {
  const { createApp } = await import('../src/app');
  const { loadConfig } = await import('../src/config');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-'));
  const source = existsSync(SNAPSHOT) ? SNAPSHOT : FIXTURE;
  // The whole catalog in one GraphQL page resolves more fields than the default cost budget allows.
  const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', MODEL_CATALOG_SOURCE: source, ADMIN_TOKEN: 'xapt-bench-admin-token-0000', GRAPHQL_MAX_COST: '2000000' });
  const app = await createApp(config);
  const address = await app.server.listen({ host: '127.0.0.1', port: 0 });

  const bare: Record<string, number> = {};
  const bytes: Record<string, number> = {};
  for (const scenario of SCENARIOS) {
    const response = await fetch(`${address}${scenario.path}`, {
      method: scenario.method,
      body: scenario.body,
      headers: scenario.body ? { 'content-type': 'application/json' } : {},
    });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200 || (scenario.body && body.includes('"errors"'))) {
      throw new Error(`${scenario.name}: HTTP ${response.status} ${body.toString().slice(0, 300)}`);
    }
    const contentType = response.headers.get('content-type') ?? 'application/json';
    bytes[scenario.name] = body.length;
    const server = http.createServer((request, reply) => {
      // Read the request body as a real server must, then answer the stored bytes.
      request.resume();
      request.on('end', () => {
        reply.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
        reply.end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    bare[scenario.name] = (server.address() as { port: number }).port;
  }
  const ports: Ports = { app: Number(new URL(address).port), bare, source, bytes };
  process.send?.(ports);
  process.on('disconnect', async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

function startServers(): Promise<{ child: ChildProcess; ports: Ports }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('message', (ports) => resolve({ child, ports: ports as Ports }));
    child.once('exit', (code) => reject(new Error(`bench servers exited with ${code}`)));
  });
}

async function load(port: number, scenario: Scenario, duration: number, connections: number): Promise<number> {
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
  return result.requests.average;
}

async function main() {
  const { values } = parseArgs({ options: { duration: { type: 'string' }, connections: { type: 'string' } } });
  const duration = Number(values.duration ?? 5);
  const connections = Number(values.connections ?? 10);
  const { child, ports } = await startServers();
  try {
    console.log(`catalog source: ${ports.source}`);
    console.log(`autocannon: ${connections} connections, ${duration} s per run, servers in a child process\n`);
    const rates: Record<string, { app: number; bare: number }> = {};
    const rows: string[][] = [];
    for (const scenario of SCENARIOS) {
      // A short warm-up, so JIT compilation and caches are not measured.
      await load(ports.app, scenario, 1, connections);
      const bare = await load(ports.bare[scenario.name]!, scenario, duration, connections);
      const app = await load(ports.app, scenario, duration, connections);
      rates[scenario.name] = { app, bare };
      const versusBare = app / bare;
      const row = [scenario.name, `${ports.bytes[scenario.name]}`, bare.toFixed(0), app.toFixed(0), `${versusBare.toFixed(2)}x bare`];
      if (scenario.sameDataAs) {
        const rest = rates[scenario.sameDataAs]!.app;
        const ratio = app / rest;
        row.push(`${ratio.toFixed(2)}x REST ${ratio >= 1 / 3 ? 'ok' : 'BELOW 1/3'}`);
      } else {
        row.push(versusBare >= 0.5 ? 'ok (>= 0.5x bare)' : 'BELOW 0.5x bare');
      }
      rows.push(row);
      console.log(row.join(' | '));
    }
    console.log('\nscenario | body bytes | bare req/s | app req/s | vs bare | target');
    for (const row of rows) console.log(row.join(' | '));
  } finally {
    child.disconnect();
  }
}

if (process.argv.includes('--serve')) {
  await serve();
} else {
  await main();
}
