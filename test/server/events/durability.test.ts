// An acknowledged ingest survives the process being killed: the server runs as a child process,
// takes concurrent ingests, is killed with SIGKILL right after the last acknowledgement, and
// after a restart every acknowledged event is there: counted by an APL query through the
// restarted server, then row by row in the database file once it has stopped.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DuckDBEventStore } from '../../../src/events/store/event-store';
import { SMALL_CATALOG } from '../../helpers/server';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const TOKEN = 'xapt-durability-test-token-0123456789';
const dataDir = mkdtempSync(path.join(tmpdir(), 'eventdeck-durability-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'warn', MODEL_CATALOG_SOURCE: SMALL_CATALOG },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { child, url };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not become healthy');
}

function exited(child: ChildProcess): Promise<unknown> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
}

async function api(url: string, pathAndQuery: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${TOKEN}`);
  return fetch(`${url}${pathAndQuery}`, { ...init, headers });
}

describe('durability', () => {
  it('keeps every acknowledged event through SIGKILL and restart', { timeout: 120_000 }, async () => {
    const first = await startServer();
    let acknowledged = 0;
    try {
      const created = await api(first.url, '/v2/datasets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'crash' }) });
      expect(created.status).toBe(200);
      // Concurrent requests into one dataset, new fields appearing on the way.
      const batches = Array.from({ length: 24 }, (_, batch) =>
        Array.from({ length: 400 }, (_, i) => JSON.stringify({ batch, i, [`extra${batch % 6}`]: `v${i}`, nested: { n: i } })).join('\n'),
      );
      const statuses = await Promise.all(
        batches.map(async (body) => {
          const response = await api(first.url, '/v1/datasets/crash/ingest', { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body });
          return (await response.json()) as { ingested: number };
        }),
      );
      acknowledged = statuses.reduce((sum, status) => sum + status.ingested, 0);
    } finally {
      first.child.kill('SIGKILL');
      await exited(first.child);
    }
    expect(acknowledged).toBe(24 * 400);
    expect(first.child.signalCode).toBe('SIGKILL');
    // The events were only in DuckDB's write-ahead log when the process died.
    expect(statSync(path.join(dataDir, 'events.duckdb.wal')).size).toBeGreaterThan(0);

    const second = await startServer();
    try {
      const fields = (await (await api(second.url, '/v2/datasets/crash/fields')).json()) as { name: string; type: string }[];
      expect(fields.map((field) => `${field.name}:${field.type}`).sort()).toEqual(
        ['batch:integer', 'i:integer', 'nested.n:integer', ...[0, 1, 2, 3, 4, 5].map((n) => `extra${n}:string`)].sort(),
      );
      const query = await api(second.url, '/v1/datasets/_apl?format=tabular', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apl: "['crash'] | summarize events = count(), batches = dcount(batch)" }),
      });
      expect(query.status).toBe(200);
      const table = ((await query.json()) as { tables: { columns: unknown[][] }[] }).tables[0]!;
      expect(table.columns).toEqual([[acknowledged], [24]]);
      const after = await api(second.url, '/v1/datasets/crash/ingest', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"batch":-1,"i":-1}' });
      expect(((await after.json()) as { ingested: number }).ingested).toBe(1);
    } finally {
      second.child.kill('SIGTERM');
      await exited(second.child);
    }

    const store = await DuckDBEventStore.open(path.join(dataDir, 'events.duckdb'));
    try {
      const table = store.tableNames()[0]!;
      const { rows } = await store.query(`SELECT count(*), count(DISTINCT (batch, i)), count(DISTINCT _rowId), max(_rowId) FILTER (WHERE batch >= 0) < min(_rowId) FILTER (WHERE batch = -1) FROM "${table}"`);
      expect(rows).toEqual([[BigInt(acknowledged + 1), BigInt(acknowledged + 1), BigInt(acknowledged + 1), true]]);
    } finally {
      await store.close();
    }
  });
});
