// Background work of the monitors (running them, delivering notifications) must happen once per
// deployment, even when several instances share one relational store. The scheduler and the
// delivery worker only work while `holds(name)` says this instance leads for that job; the
// leases of the relational store (src/db/lease.ts) provide that across instances. One instance
// on its own always leads.
import type { Leases } from '../db/lease';

export interface Leadership {
  /**
   * True while this instance may run the job `name`. Called before every round of work, so an
   * implementation renews its lease here and answers false once another instance holds it.
   */
  holds(name: string): Promise<boolean>;
  /** Gives up every lease this instance holds (at shutdown), so another can take over at once. */
  release(): Promise<void>;
}

/** The leadership of a deployment with a single instance: it always leads. */
export const soleInstance: Leadership = {
  async holds() {
    return true;
  },
  async release() {},
};

/**
 * Leadership through the relational store's leases, one per job. A lease is renewed when a
 * round asks and its last renewal is a third of its lifetime old, so rounds (several a second
 * when monitors are busy) cost no write each; when another instance holds it, this one waits.
 */
export function leaseLeadership(leases: Pick<Leases, 'acquire' | 'release'>, ttlMs = 30_000): Leadership {
  const renewedAt = new Map<string, number>();
  return {
    async holds(name) {
      const last = renewedAt.get(name);
      if (last !== undefined && Date.now() - last < ttlMs / 3) return true;
      const held = await leases.acquire(name, ttlMs);
      if (held) renewedAt.set(name, Date.now());
      else renewedAt.delete(name);
      return held;
    },
    async release() {
      const names = [...renewedAt.keys()];
      renewedAt.clear();
      for (const name of names) await leases.release(name);
    },
  };
}
