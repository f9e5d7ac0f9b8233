// An embedded DuckDB database that reopens itself. DuckDB invalidates a database after a fatal
// error (a checkpoint that fails, a commit that cannot complete): every later statement fails
// until the database is opened again. This handle notices such errors, reports itself unhealthy,
// waits for the statements in flight, and opens the file again; DuckDB replays its write-ahead
// log, so every acknowledged write is back. Statements issued meanwhile wait for the reopened
// database. Every store kept in DuckDB (events, metrics) works through one of these, so each
// gets the same recovery.
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { Logger } from 'pino';
import { unavailable } from '../../errors';
import type { EngineHealth } from '../health';
import { ConnectionPool } from './connection-pool';
import { type DuckDBOptions, openDuckDB } from './instance';

export interface DuckDBDatabaseOptions extends DuckDBOptions {
  writeConnections?: number;
  readConnections?: number;
  logger?: Logger;
  /** What the database holds, as messages name it (default "event store"). */
  label?: string;
}

/** Runs a task on a connection of the database being opened, before it serves anyone. */
export type ConnectionLender = <T>(task: (connection: DuckDBConnection) => Promise<T>) => Promise<T>;

/**
 * Brings the owner's in-memory state in step with a freshly opened database (its tables, the
 * next row id), on a write connection, before anything else runs on it.
 */
export type LoadHook = (useWriter: ConnectionLender) => Promise<void>;

/** One opened database with its connections; replaced whole when the database reopens. */
interface Generation {
  instance: DuckDBInstance;
  writers: ConnectionPool;
  readers: ConnectionPool;
  /** A connection of its own for health probes, so a probe never waits behind queries. */
  probe?: DuckDBConnection;
}

/**
 * Errors after which DuckDB's in-memory state cannot be trusted: fatal and internal errors
 * invalidate the database, and a commit that fails half-way (e.g. out of memory while
 * checkpointing) can leave it inconsistent.
 */
export function isFatalDuckDBError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /^(FATAL|INTERNAL) Error|database has been invalidated|Failed to commit/.test(message);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const firstLine = (error: unknown) => (error instanceof Error ? error.message.split('\n')[0]! : String(error));

export class DuckDBDatabase {
  private generation: Generation;
  private closing: Promise<void> | undefined;
  private recovery: Promise<void> | undefined;
  private healthState: EngineHealth = { state: 'ok' };
  private healthChanged = signal();
  private probing: Promise<void> | undefined;
  private lastProbeAt = 0;
  /** Run on every opened database (functions registered on a connection serve the instance). */
  private readonly openHooks: ((connection: DuckDBConnection) => Promise<void> | void)[] = [];
  private readonly reopenListeners: (() => Promise<unknown> | unknown)[] = [];
  private readonly label: string;

  private constructor(
    generation: Generation,
    readonly path: string,
    private readonly options: DuckDBDatabaseOptions,
    private readonly load: LoadHook,
  ) {
    this.generation = generation;
    this.label = options.label ?? 'event store';
  }

  /** Opens the database and runs `load` on it (and again after every reopen). */
  static async open(path: string, options: DuckDBDatabaseOptions, load: LoadHook = async () => undefined): Promise<DuckDBDatabase> {
    const database = new DuckDBDatabase(await DuckDBDatabase.openGeneration(path, options), path, options, load);
    await load((task) => database.generation.writers.use(task));
    return database;
  }

  private static async openGeneration(path: string, options: DuckDBDatabaseOptions): Promise<Generation> {
    const instance = await openDuckDB(path, options);
    return {
      instance,
      writers: new ConnectionPool(instance, options.writeConnections ?? 4),
      readers: new ConnectionPool(instance, options.readConnections ?? 4),
    };
  }

  /** Whether the database can serve, and why not. */
  health(): EngineHealth {
    return { ...this.healthState };
  }

  /**
   * The health for a health check: answers at once with what is known, and checks in the
   * background, at most once a second, that the database still answers (on a connection of its
   * own, so a check never waits behind queries). An invalidated database starts the recovery.
   */
  probe(): EngineHealth {
    if (this.healthState.state === 'ok' && !this.closing && !this.probing && Date.now() - this.lastProbeAt >= 1000) {
      this.lastProbeAt = Date.now();
      this.probing = this.probeGeneration(this.generation).finally(() => {
        this.probing = undefined;
      });
    }
    return this.health();
  }

  private async probeGeneration(generation: Generation): Promise<void> {
    try {
      generation.probe ??= await generation.instance.connect();
      await generation.probe.run('SELECT 1');
    } catch (error) {
      if (isFatalDuckDBError(error)) void this.recover(generation, firstLine(error));
    }
  }

  /** Registers work to run on each opened database (now, and again after every reopen). */
  async onOpen(hook: (connection: DuckDBConnection) => Promise<void> | void): Promise<void> {
    this.openHooks.push(hook);
    await this.useReader(async (connection) => hook(connection));
  }

  /** Runs after each reopen, once the owner's state is loaded (e.g. to bring registries in step). */
  onReopened(listener: () => Promise<unknown> | unknown): void {
    this.reopenListeners.push(listener);
  }

  private setHealth(health: EngineHealth): void {
    this.healthState = health;
    const changed = this.healthChanged;
    this.healthChanged = signal();
    changed.resolve();
  }

  /** Waits while the database reopens; refuses when it could not (it keeps retrying meanwhile). */
  private async ready(): Promise<Generation> {
    while (this.healthState.state === 'recovering') await this.healthChanged.promise;
    if (this.closing) throw new Error(`the ${this.label} is closed`);
    if (this.healthState.state === 'failed') {
      throw unavailable(`the ${this.label} is unavailable: ${this.healthState.reason ?? 'it could not be opened'}; retry later`);
    }
    return this.generation;
  }

  /** Lends a write connection (one transaction at a time on it). */
  async useWriter<T>(task: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.watched(await this.ready(), (generation) => generation.writers.use(task));
  }

  /** Lends a read connection. */
  async useReader<T>(task: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.watched(await this.ready(), (generation) => generation.readers.use(task));
  }

  /** Runs work on a generation; a fatal error starts the recovery and reads as "unavailable". */
  private async watched<T>(generation: Generation, work: (generation: Generation) => Promise<T>): Promise<T> {
    try {
      return await work(generation);
    } catch (error) {
      if (this.closing) throw error;
      if (isFatalDuckDBError(error)) {
        void this.recover(generation, firstLine(error));
        throw unavailable(`the ${this.label} hit a fatal error and is reopening; this request was not acknowledged, retry shortly`);
      }
      // Statements interrupted by a recovery fail on their own; say why.
      if (generation !== this.generation || this.recovery) throw unavailable(`the ${this.label} is reopening; retry shortly`);
      throw error;
    }
  }

  /**
   * Reopens the database after a fatal error: stops the statements in flight, waits for every
   * connection to come back, closes the old instance and opens the file again (DuckDB replays
   * its write-ahead log), then runs the load hook and the open hooks. Retries with backoff while
   * the file cannot be opened.
   */
  private recover(failed: Generation, reason: string): Promise<void> {
    if (failed !== this.generation || this.closing) return this.recovery ?? Promise.resolve();
    this.recovery ??= (async () => {
      this.setHealth({ state: 'recovering', reason });
      this.options.logger?.error({ reason }, `the ${this.label} hit a fatal error; reopening it`);
      const closed = Promise.all([failed.readers.close(), failed.writers.close()]);
      // Statements still running on the invalidated database are stopped, until all are back.
      let done = false;
      void closed.then(() => (done = true));
      while (!done) {
        failed.readers.interruptAll();
        failed.writers.interruptAll();
        await Promise.race([closed, sleep(250)]);
      }
      await this.probing;
      failed.probe?.closeSync();
      failed.instance.closeSync();
      for (let attempt = 0; !this.closing; attempt++) {
        try {
          this.generation = await DuckDBDatabase.openGeneration(this.path, this.options);
          const generation = this.generation;
          await this.load((task) => generation.writers.use(task));
          for (const hook of this.openHooks) await generation.readers.use(async (connection) => hook(connection));
          this.setHealth({ state: 'ok' });
          this.options.logger?.warn(`the ${this.label} was reopened`);
          for (const listener of this.reopenListeners) {
            await Promise.resolve(listener()).catch((error: unknown) => this.options.logger?.error({ err: error }, `after reopening the ${this.label}`));
          }
          return;
        } catch (error) {
          this.setHealth({ state: 'failed', reason: `${reason}; reopening failed: ${firstLine(error)}` });
          this.options.logger?.error({ err: error }, `could not reopen the ${this.label}; retrying`);
          await sleep(Math.min(30_000, 500 * 2 ** attempt));
        }
      }
    })().finally(() => {
      this.recovery = undefined;
    });
    return this.recovery;
  }

  /**
   * Writes the log into the database file (when healthy) and closes; call after writes and
   * queries stop.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.recovery;
      const { instance, readers, writers } = this.generation;
      try {
        if (this.healthState.state === 'ok') await writers.use((connection) => connection.run('CHECKPOINT'));
      } finally {
        await Promise.all([readers.close(), writers.close()]);
        await this.probing;
        this.generation.probe?.closeSync();
        instance.closeSync();
      }
    })();
    return this.closing;
  }
}
