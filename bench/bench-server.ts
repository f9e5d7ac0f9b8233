// The server as a child process for the HTTP benchmarks: started on a random port with a fresh
// data directory (another port when one is taken), a lean keep-alive client to post bodies, and
// the server's CPU time. `stop` shuts it down gracefully (the stores checkpoint) and reports the
// sizes of its database files before removing them. BENCH_SERVER_NODE_ARGS passes flags to the
// server's node (see ./server-command.ts), e.g. to see where a bench's time goes.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverArgs } from './server-command';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const ADMIN_TOKEN = 'xapt-bench-admin-token-0123456789';

export interface BenchServer {
  port: number;
  child: ChildProcess;
  /** Stops the server; returns the size in bytes of each file of its data directory (after its checkpoint). */
  stop(): Promise<Record<string, number>>;
}

export async function startServer(attempts = 3): Promise<BenchServer> {
  try {
    return await startServerOnce();
  } catch (error) {
    // A random port may be taken by another process on a shared machine: try another.
    if (attempts <= 1) throw error;
    return startServer(attempts - 1);
  }
}

async function startServerOnce(): Promise<BenchServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-server-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, serverArgs(ROOT), {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN, LOG_LEVEL: 'warn', MODEL_CATALOG_SOURCE: path.join(ROOT, 'test/fixtures/litellm-small.json') },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`server exited with ${child.exitCode}`);
    }
    if (attempt > 300) throw new Error('server did not become healthy');
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    child,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      const sizes: Record<string, number> = {};
      for (const file of ['events.duckdb', 'metrics.duckdb']) {
        try {
          sizes[file] = statSync(path.join(dir, file)).size;
        } catch {
          // not created
        }
      }
      rmSync(dir, { recursive: true, force: true });
      return sizes;
    },
  };
}

export function post(agent: http.Agent, port: number, pathname: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path: pathname, method: 'POST', agent, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-length': body.length, ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** CPU seconds the server process has used (all its threads, DuckDB's included). */
export function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, in clock ticks of 1/100 s.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Sends every body with `clients` concurrent senders; returns the seconds it took. */
export async function drive(bodies: Buffer[], clients: number, send: (body: Buffer) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < bodies.length) await send(bodies[next++]!);
    }),
  );
  return (performance.now() - started) / 1000;
}

export async function createDataset(port: number, name: string, kind = 'axiom:events:v1'): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}/v2/datasets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, kind }),
  });
  if (!response.ok) throw new Error(`creating ${name}: ${response.status} ${await response.text()}`);
}
