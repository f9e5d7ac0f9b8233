// ClickHouse embedded (the optional `chdb` package) as an executor: the engine runs in a child
// process holding `$DATA_DIR/chdb` (see chdb-host.mjs for why a process of its own), and the
// store talks to it over Node's IPC channel. chdb runs one statement at a time; a statement past
// its time budget is stopped inside the engine by `max_execution_time`, and one whose caller
// went away runs to that budget.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../../config';
import { unavailable } from '../../errors';
import {
  type ClickHouseExecutor,
  ClickHouseError,
  type ClickHouseRows,
  type ClickHouseSettings,
  parseTabSeparated,
  type QuerySettingsOptions,
  withSettingsClause,
} from './executor';
import { engineFailure } from './failures';
import { quoteIdentifier } from './layout';

/** ` SETTINGS ...` for an INSERT, or nothing. */
const settingsClause = (settings: ClickHouseSettings | undefined) => withSettingsClause('', settings);

const HOST_SCRIPT = fileURLToPath(new URL('./chdb-host.mjs', import.meta.url));

interface Pending {
  resolve: (message: HostReply) => void;
  reject: (error: Error) => void;
}

interface HostReply {
  id?: number;
  ready?: boolean;
  text?: string;
  error?: { message: string; code: number };
}

/** Refuses to start without the optional package, naming it. */
export function requireChdb(): void {
  try {
    createRequire(import.meta.url).resolve('chdb');
  } catch {
    throw new ConfigError('EVENT_STORE=chdb needs the optional package "chdb" (ClickHouse embedded): run `npm install chdb`');
  }
}

export class ChdbExecutor implements ClickHouseExecutor {
  readonly engine = 'chdb' as const;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private exited: Error | undefined;
  private closing: Promise<void> | undefined;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (message: HostReply) => {
      if (message.id === undefined) return;
      const pending = this.pending.get(message.id);
      this.pending.delete(message.id);
      pending?.resolve(message);
    });
    child.on('exit', (code, signal) => {
      this.exited = unavailable(`the event store (chdb) is not running: its engine process ended (${signal ?? `exit code ${code}`})`);
      for (const pending of this.pending.values()) pending.reject(this.exited);
      this.pending.clear();
    });
  }

  /** Starts the engine over `dataPath`, with `settings` as the defaults of every statement. */
  static async open(dataPath: string, settings: ClickHouseSettings = {}): Promise<ChdbExecutor> {
    requireChdb();
    mkdirSync(dataPath, { recursive: true });
    const child = fork(HOST_SCRIPT, [dataPath, JSON.stringify(settings)], {
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      execArgv: [],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString();
    });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: HostReply) => {
        if (!message.ready) return;
        cleanup();
        resolve();
      };
      const onExit = (code: number | null) => {
        cleanup();
        reject(new Error(`the chdb engine did not start (exit code ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`));
      };
      const cleanup = () => {
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      child.on('message', onMessage);
      child.on('exit', onExit);
    });
    // The engine's own diagnostics stay out of the server's output once it runs.
    child.stderr?.removeAllListeners('data');
    child.stderr?.resume();
    return new ChdbExecutor(child);
  }

  private async send(message: Record<string, unknown>, signal?: AbortSignal): Promise<HostReply> {
    if (this.exited) throw this.exited;
    if (this.closing) throw new Error('the event store is closed');
    signal?.throwIfAborted();
    const id = this.nextId++;
    const reply = await new Promise<HostReply>((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        reject(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (value) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(value);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      this.child.send({ id, ...message });
    });
    if (reply.error) throw engineFailure(new ClickHouseError(reply.error.message, reply.error.code));
    return reply;
  }

  async command(sql: string, options: QuerySettingsOptions = {}): Promise<void> {
    await this.send({ op: 'command', sql: withSettingsClause(sql, options.settings) }, options.signal);
  }

  async query(sql: string, options: QuerySettingsOptions = {}): Promise<ClickHouseRows> {
    const reply = await this.send({ op: 'query', sql: withSettingsClause(sql, options.settings) }, options.signal);
    return parseTabSeparated(reply.text ?? '');
  }

  async insert(table: string, columns: string[], tabSeparated: Buffer, options: QuerySettingsOptions = {}): Promise<void> {
    const target = `${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(', ')})`;
    const sql = `INSERT INTO ${target}${settingsClause(options.settings)} FORMAT TabSeparated`;
    await this.send({ op: 'insert', sql, data: tabSeparated }, options.signal);
  }

  /** Ends the engine process, which closes its data directory; waits for it to go. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      if (this.exited || this.child.exitCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.disconnect();
      // A host that does not leave within a few seconds is stopped.
      setTimeout(() => this.child.kill('SIGKILL'), 5000).unref();
    });
    return this.closing;
  }
}
