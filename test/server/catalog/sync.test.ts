// Importing the catalog: `npm run sync` against a temporary DATA_DIR (as a child process for its
// contract, in this process through the function the script calls for the rest), a
// running server picking up that sync, failed and malformed sources keeping the previous
// catalog, and the bundled fallback when the configured source is unreachable at first start.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config';
import { openRelationalStore } from '../../../src/db/store';
import { readStoredCatalog } from '../../../src/catalog/store';
import { SMALL_CATALOG, startTestServer, type TestServer } from '../../helpers/server';
import { runSyncCommand } from '../../../scripts/sync';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const run = promisify(execFile);

let work: string;
beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'catalog-sync-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function writeSource(name: string, content: unknown): string {
  const file = path.join(work, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const TWO_MODELS = {
  'xai/grok-3': { litellm_provider: 'xai', mode: 'chat', input_cost_per_token: 0.000003 },
  'groq/llama-3.3-70b-versatile': { litellm_provider: 'groq', mode: 'chat' },
  broken: { mode: 'chat' },
};

const commandEnv = (dataDir: string) => ({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', MODEL_CATALOG_SOURCE: SMALL_CATALOG, LOG_LEVEL: 'silent' });

/** Runs the script behind `npm run sync` (tsx scripts/sync.ts) as a process, with the given DATA_DIR. */
async function syncProcess(dataDir: string, args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/sync.ts', ...args], { cwd: ROOT, env: commandEnv(dataDir), timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

/** Runs the same command in this process (the function the script calls), with the given DATA_DIR. */
async function syncCommand(dataDir: string, args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runSyncCommand(args, commandEnv(dataDir), {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

async function storedIds(dataDir: string): Promise<string[] | undefined> {
  const store = await openRelationalStore(loadConfig({ DATA_DIR: dataDir }).database);
  try {
    return (await readStoredCatalog(store))?.records.map((record) => record.model_id);
  } finally {
    await store.close();
  }
}

describe('npm run sync', () => {
  it('imports MODEL_CATALOG_SOURCE or --source and prints read, skipped with reasons, written', async () => {
    const dataDir = path.join(work, 'cli');
    // A real process once, for the command's contract (its output and exit code); in-process after.
    const first = await syncProcess(dataDir, []);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`reading ${SMALL_CATALOG}`);
    expect(first.stdout).toMatch(/models read: +31\n/);
    expect(first.stdout).toMatch(/models skipped: +5\n/);
    expect(first.stdout).toMatch(/ 1 {2}no litellm_provider\n/);
    expect(first.stdout).toMatch(/ 1 {2}replaced by a later entry with the same model_id\n/);
    expect(first.stdout).toMatch(/models written: +26\n/);
    expect(await storedIds(dataDir)).toHaveLength(26);

    const second = await syncCommand(dataDir, ['--source', writeSource('two.json', TWO_MODELS)]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/models read: +3\n +models skipped: +1\n +1 {2}no litellm_provider\n +models written: +2\n/);
    expect(await storedIds(dataDir)).toEqual(['llama-3.3-70b-versatile', 'grok-3']);
  });

  it('keeps the previous catalog when the source is missing, malformed or empty, and exits 1', async () => {
    const dataDir = path.join(work, 'cli-failures');
    expect((await syncCommand(dataDir, ['--source', writeSource('two-again.json', TWO_MODELS)])).code).toBe(0);
    const failures: [string, RegExp][] = [
      [path.join(work, 'missing.json'), /could not read .*missing\.json/],
      [writeSource('truncated.json', '{"gpt-4o": {"litellm_provider": '), /is not valid JSON/],
      [writeSource('array.json', [1, 2, 3]), /not a JSON object of model entries/],
      [writeSource('nothing.json', { sample_spec: {}, x: 'y' }), /no usable model entries/],
      ['http://127.0.0.1:9/model_prices.json', /could not fetch http:\/\/127\.0\.0\.1:9/],
    ];
    for (const [source, message] of failures) {
      const result = await syncCommand(dataDir, ['--source', source]);
      expect(result.code, source).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toContain('The previous catalog is unchanged.');
    }
    expect(await storedIds(dataDir)).toEqual(['llama-3.3-70b-versatile', 'grok-3']);
  });

  it('rejects unknown options with usage', async () => {
    const result = await syncProcess(path.join(work, 'cli-usage'), ['--nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: npm run sync');
  });
});

describe('a running server and sync', () => {
  let server: TestServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = path.join(work, 'live');
    server = await startTestServer({ DATA_DIR: dataDir });
  });
  afterAll(() => server.close());

  const modelCount = async () => ((await (await server.request('/api/v1/metadata', { auth: false })).json()) as { model_count: number }).model_count;

  it('serves a catalog synced by the command within seconds', async () => {
    expect(await modelCount()).toBe(26);
    const result = await syncCommand(dataDir, ['--source', writeSource('live.json', TWO_MODELS)]);
    expect(result.code, result.stderr).toBe(0);
    const deadline = Date.now() + 15_000;
    while ((await modelCount()) !== 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await modelCount()).toBe(2);
    const models = await (await server.request('/api/v1/models?project=model_id', { auth: false })).json();
    expect(models).toEqual([{ model_id: 'llama-3.3-70b-versatile' }, { model_id: 'grok-3' }]);
  });

  it('keeps serving and storing the previous catalog when an in-process sync fails', async () => {
    const { catalog } = server.app.services;
    const before = await (await server.request('/api/v1/models', { auth: false })).text();
    const metadataBefore = await (await server.request('/api/v1/metadata', { auth: false })).json();
    for (const source of [writeSource('bad.json', 'not json'), writeSource('empty.json', {}), path.join(work, 'absent.json')]) {
      await expect(catalog.sync({ kind: 'litellm', source })).rejects.toThrow();
    }
    expect(await (await server.request('/api/v1/models', { auth: false })).text()).toBe(before);
    expect(await (await server.request('/api/v1/metadata', { auth: false })).json()).toEqual(metadataBefore);
    expect(await storedIds(dataDir)).toEqual(['llama-3.3-70b-versatile', 'grok-3']);
  });
});

describe('first start', () => {
  it('imports the bundled fallback data set when the configured source is unreachable', async () => {
    const server = await startTestServer({ MODEL_CATALOG_SOURCE: 'http://127.0.0.1:9/model_prices_and_context_window.json' });
    try {
      const metadata = await (await server.request('/api/v1/metadata', { auth: false })).json();
      expect(metadata.source).toMatch(/^@tokenlens\/models@\d+\.\d+\.\d+ \(models\.dev data, bundled fallback\)$/);
      expect(metadata.sync.source_kind).toBe('fallback');
      expect(metadata.model_count).toBeGreaterThan(100);
      const gpt4o = await (await server.request('/api/v1/models/gpt-4o?fill-with-zeros=false', { auth: false })).json();
      expect(gpt4o).toMatchObject({
        model_id: 'gpt-4o',
        model_name: 'GPT-4o',
        provider_id: 'openai',
        provider_name: 'OpenAI',
        model_type: 'chat',
        supports_function_calling: true,
        supports_vision: true,
      });
      expect(gpt4o.input_cost_per_million).toBeGreaterThan(0);
      const openrouter = await (await server.request('/api/v1/models?providers=openrouter&project=model_id', { auth: false })).json();
      expect(openrouter.length).toBeGreaterThan(0);
      expect(openrouter.every((model: { model_id: string }) => model.model_id.startsWith('openrouter/'))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('imports the fallback when the configured file is malformed, and keeps a stored catalog on the next start', async () => {
    const dataDir = path.join(work, 'restart');
    const malformed = writeSource('malformed.json', '{ nope');
    const first = await startTestServer({ DATA_DIR: dataDir, MODEL_CATALOG_SOURCE: malformed });
    const sourceKind = async (server: TestServer) => (await (await server.request('/api/v1/metadata', { auth: false })).json()).sync.source_kind;
    try {
      expect(await sourceKind(first)).toBe('fallback');
    } finally {
      await first.app.close();
    }
    const second = await startTestServer({ DATA_DIR: dataDir, MODEL_CATALOG_SOURCE: SMALL_CATALOG });
    try {
      expect(await sourceKind(second)).toBe('fallback');
    } finally {
      await second.close();
    }
  });
});
