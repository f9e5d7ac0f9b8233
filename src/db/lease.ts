// Leases in the relational store, so that background work runs once per deployment rather than
// once per server instance. A lease is a row (`leases`: name, holder, expiry) that one instance
// holds at a time; it renews the lease while it works, and if it dies the lease expires and
// another instance takes over. On SQLite there is one instance and it always wins; the same
// code is what makes several instances over one PostgreSQL take turns.
//
// Every store has one `Leases` (`store.leases`, whose `instanceId` names this process). Use:
//
//   // Periodic work (retention sweeps, catalog refresh): runs on one instance at a time, right
//   // away when that instance takes the lease and then every `intervalMs` while it holds it.
//   const job = store.leases.every('retention', 3_600_000, async (signal) => { ... }, { logger });
//   await job.stop();                        // on shutdown: waits for a run, releases the lease
//
//   // A long-running loop (a scheduler): `lead` starts when this instance becomes the leader;
//   // `signal` aborts when it stops being one (lease lost, renewal failing, or stop()).
//   const scheduler = store.leases.whileLeading('monitors', async (signal) => { ... });
//   scheduler.leading;                       // true while this instance holds the lease
//
//   // One-off exclusive work: runs `task` only if no other instance holds the lease, renewing
//   // it meanwhile, then releases it; `{ ran: false }` when another instance had it.
//   const outcome = await store.leases.runOnce('reindex', async (signal) => { ... });
//
// Options: `ttlMs` (default 30 s) is how long a lease outlives its last renewal, so how long a
// crashed holder delays the takeover; renewals happen every third of it. Work should watch its
// `signal` and stop promptly when it aborts: another instance may take over after `ttlMs`.
// Names are free text; use one per kind of work. The low-level `acquire`, `release` and
// `state` are there for tests and special cases.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { LeaseRows, LeaseState } from './repository/leases';

export const DEFAULT_LEASE_TTL_MS = 30_000;

interface LeaseLogger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface LeaseOptions {
  /** How long the lease outlives its last renewal (default 30 s). */
  ttlMs?: number;
  /** Where failures of the work or of renewals are reported. */
  logger?: LeaseLogger;
}

export interface LeaderHandle {
  /** True while this instance holds the lease and its work is running. */
  readonly leading: boolean;
  /** Stops taking the lease, aborts the work, waits for it to settle, releases the lease. */
  stop(): Promise<void>;
}

export type RunOnceOutcome<T> = { ran: true; value: T } | { ran: false };

export class Leases {
  readonly instanceId: string;
  private readonly handles = new Set<LeaderHandle>();

  constructor(
    private readonly rows: LeaseRows,
    instanceId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
  ) {
    this.instanceId = instanceId;
  }

  /** Takes or renews the lease for `ttlMs`; true when this instance holds it now. */
  acquire(name: string, ttlMs = DEFAULT_LEASE_TTL_MS): Promise<boolean> {
    return this.rows.acquire(name, this.instanceId, ttlMs);
  }

  /** Gives the lease up if this instance holds it. */
  release(name: string): Promise<void> {
    return this.rows.release(name, this.instanceId);
  }

  /** Who holds the lease and until when (undefined when nobody ever took it or it was released). */
  state(name: string): Promise<LeaseState | undefined> {
    return this.rows.state(name);
  }

  /** Runs `task` if the lease is free (or already ours), renewing it meanwhile; then releases it. */
  async runOnce<T>(name: string, task: (signal: AbortSignal) => Promise<T>, options: LeaseOptions = {}): Promise<RunOnceOutcome<T>> {
    const ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    if (!(await this.acquire(name, ttlMs))) return { ran: false };
    const controller = new AbortController();
    const renewal = setInterval(() => {
      this.acquire(name, ttlMs).then(
        (held) => {
          if (!held) controller.abort(new Error(`lease "${name}" was lost`));
        },
        (error: unknown) => options.logger?.warn({ err: error, lease: name }, 'could not renew a lease'),
      );
    }, Math.max(10, Math.floor(ttlMs / 3)));
    renewal.unref();
    try {
      return { ran: true, value: await task(controller.signal) };
    } finally {
      clearInterval(renewal);
      await this.release(name).catch(() => {});
    }
  }

  /**
   * Keeps trying to hold the lease; while it does, `lead` runs with a signal that aborts when
   * the lease is lost or `stop()` is called. `lead` may return at once (after starting timers
   * that watch the signal) or run until the signal aborts.
   */
  whileLeading(name: string, lead: (signal: AbortSignal) => Promise<void> | void, options: LeaseOptions = {}): LeaderHandle {
    const ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    const renewEveryMs = Math.max(10, Math.floor(ttlMs / 3));
    let controller: AbortController | undefined;
    let work: Promise<void> = Promise.resolve();
    let lastRenewal = 0;
    let stopped = false;
    let ticking: Promise<void> = Promise.resolve();

    const stepDown = (reason: string) => {
      controller?.abort(new Error(reason));
      controller = undefined;
    };
    const tick = async () => {
      if (stopped) return;
      try {
        const held = await this.acquire(name, ttlMs);
        if (stopped) return;
        if (!held) {
          if (controller) stepDown(`lease "${name}" was taken by another instance`);
          return;
        }
        lastRenewal = Date.now();
        if (!controller) {
          const current = new AbortController();
          controller = current;
          work = Promise.resolve()
            .then(() => lead(current.signal))
            .catch((error: unknown) => options.logger?.error({ err: error, lease: name }, 'leased work failed'));
        }
      } catch (error) {
        options.logger?.warn({ err: error, lease: name }, 'could not take or renew a lease');
        // Without a renewal the lease may lapse and pass to another instance: stop first.
        if (controller && Date.now() - lastRenewal > ttlMs - renewEveryMs) stepDown(`lease "${name}" could not be renewed`);
      }
    };
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return; // a slow store: the previous attempt is still on its way
      busy = true;
      ticking = tick().finally(() => {
        busy = false;
      });
    }, renewEveryMs);
    timer.unref();
    ticking = tick();

    const handle: LeaderHandle = {
      get leading() {
        return controller !== undefined;
      },
      stop: async () => {
        if (stopped) return;
        stopped = true;
        clearInterval(timer);
        await ticking;
        const wasLeading = controller !== undefined;
        stepDown('stopped');
        await work;
        if (wasLeading) await this.release(name).catch(() => {});
        this.handles.delete(handle);
      },
    };
    this.handles.add(handle);
    return handle;
  }

  /**
   * Periodic work once per deployment: `task` runs on the instance holding the lease, when it
   * takes the lease and then every `intervalMs`; a run still going when the next is due delays it.
   */
  every(name: string, intervalMs: number, task: (signal: AbortSignal) => Promise<void>, options: LeaseOptions = {}): LeaderHandle {
    return this.whileLeading(
      name,
      (signal) =>
        new Promise<void>((resolve) => {
          let running: Promise<void> = Promise.resolve();
          let busy = false;
          const run = () => {
            if (busy || signal.aborted) return;
            busy = true;
            running = task(signal)
              .catch((error: unknown) => options.logger?.error({ err: error, lease: name }, 'leased work failed'))
              .finally(() => {
                busy = false;
              });
          };
          if (signal.aborted) return resolve();
          const timer = setInterval(run, intervalMs);
          timer.unref();
          signal.addEventListener('abort', () => {
            clearInterval(timer);
            void running.then(resolve);
          }, { once: true });
          run();
        }),
      options,
    );
  }

  /** Stops every handle still running (when the store closes). */
  async close(): Promise<void> {
    await Promise.all([...this.handles].map((handle) => handle.stop()));
  }
}
