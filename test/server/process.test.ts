import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain, startServerProcess } from '../helpers/process';
import { SMALL_CATALOG, TEST_ADMIN_TOKEN } from '../helpers/server';

describe('the service process', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'eventdeck-process-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts, answers /healthz, logs JSON, and exits cleanly on SIGTERM', async () => {
    const server = await startServerProcess({ DATA_DIR: dataDir, ADMIN_TOKEN: TEST_ADMIN_TOKEN, MODEL_CATALOG_SOURCE: SMALL_CATALOG });
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    const logLine = server.output().split('\n').find((line) => line.includes('Server listening'))!;
    expect(JSON.parse(logLine)).toMatchObject({ level: 30, msg: expect.stringContaining('Server listening') });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('shutting down');
  });

  it('refuses to start with invalid configuration, naming the variable', async () => {
    const run = runMain({ DATA_DIR: dataDir, PORT: 'eighty', MAX_FIELDS_PER_DATASET: '0' });
    expect(await run.exited).toBe(2);
    expect(run.output()).toMatch(/PORT:/);
    expect(run.output()).toMatch(/MAX_FIELDS_PER_DATASET: must be greater than 0/);
  });
});
