// A real PostgreSQL for the tests: a throwaway cluster (Debian's `postgresql` package: initdb
// and pg_ctl, as the unprivileged `postgres` user when the tests run as root) in a temporary
// directory on 127.0.0.1 and a free port, or the server named by TEST_POSTGRES_URL. The
// `postgres` test project starts one per run (test/helpers/postgres-setup.ts) and every test
// server gets a fresh database in it.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The directory holding initdb and pg_ctl, newest version first; undefined when not installed. */
export function findPostgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => existsSync(path.join(root, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length > 0) return path.join(root, versions[0]!, 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const found = which.stdout.trim();
  return which.status === 0 && found ? path.dirname(found) : undefined;
}

/**
 * Whether the PostgreSQL tests can run: a TEST_POSTGRES_URL or an installed PostgreSQL. In CI
 * (CI set) a missing PostgreSQL is an error; elsewhere the reason is printed and they are skipped.
 */
export function postgresAvailable(): boolean {
  if (process.env.TEST_POSTGRES_URL || findPostgresBinDir()) return true;
  const message = 'PostgreSQL is not installed (apt-get install -y postgresql), nor is TEST_POSTGRES_URL set';
  if (process.env.CI) throw new Error(`${message}: the PostgreSQL tests cannot run in CI`);
  console.warn(`skipping the PostgreSQL tests: ${message}`);
  return false;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface PostgresCluster {
  /** A URL of the `postgres` database, for creating and dropping test databases. */
  adminUrl: string;
  stop(): Promise<void>;
}

/** Starts a throwaway cluster, or uses TEST_POSTGRES_URL. */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  if (process.env.TEST_POSTGRES_URL) return { adminUrl: process.env.TEST_POSTGRES_URL, stop: async () => {} };
  const bin = findPostgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed');
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-pg-'));
  const asRoot = userInfo().uid === 0;
  // PostgreSQL refuses to run as root: hand the directory to the `postgres` user and run as it.
  if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()));
  const run = (args: string[]) => {
    if (asRoot) {
      const quoted = args.map((arg) => `'${arg.replaceAll("'", `'\\''`)}'`).join(' ');
      execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', quoted], { stdio: 'pipe' });
    } else {
      execFileSync(args[0]!, args.slice(1), { stdio: 'pipe' });
    }
  };
  const data = path.join(dir, 'data');
  const port = await freePort();
  run([path.join(bin, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  // Durability is not what these tests are about: skip the fsyncs.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  run([path.join(bin, 'pg_ctl'), '-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      try {
        run([path.join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A short-lived administrative connection that reports a stuck server instead of waiting forever. */
async function adminClient(adminUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 20_000, query_timeout: 30_000 });
  client.on('error', () => {}); // the server going away at teardown; queries report their own errors
  await client.connect();
  return client;
}

/** A fresh, empty database in the cluster. */
export async function createTestDatabase(adminUrl: string): Promise<TestDatabase> {
  const name = `eventdeck_test_${randomBytes(6).toString('hex')}`;
  const admin = await adminClient(adminUrl);
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = await adminClient(adminUrl);
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
