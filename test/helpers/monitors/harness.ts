// Small helpers over a running server for the monitor tests: JSON requests, ingest, and
// creating notifiers and monitors that must succeed; and `monitorTime`, which moves a test's
// monitor clock and waits until the servers did what fell due.
import { expect } from 'vitest';
import { type Receiver, type ReceivedRequest, sleep } from '../receiver';
import { MINUTE, type VirtualClock } from './virtual-clock';

export interface JsonClient {
  url: string;
  request(pathAndQuery: string, init?: RequestInit & { auth?: string | false }): Promise<Response>;
}

export interface JsonAnswer {
  status: number;
  body: any;
}

/**
 * `clock`: the servers' monitor clock. Events ingested without `_time` get its time, and the
 * history is read around it.
 */
export function apiOf(server: JsonClient, clock: { now(): number } = { now: () => Date.now() }) {
  async function api(path: string, method = 'GET', body?: unknown, token?: string): Promise<JsonAnswer> {
    const response = await server.request(path, {
      method,
      ...(token !== undefined ? { auth: token } : {}),
      ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }
  async function ok(path: string, method = 'GET', body?: unknown) {
    const answer = await api(path, method, body);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
    return answer.body;
  }
  return {
    api,
    ok,
    async dataset(name: string, fields: Record<string, unknown> = { status: 200 }) {
      await ok('/v2/datasets', 'POST', { name });
      // An event three days old gives the dataset its fields (queries may name them) and lies
      // outside every window, and every window a day before that anomaly monitors compare with.
      await ok(`/v1/datasets/${name}/ingest`, 'POST', [{ _time: new Date(clock.now() - 3 * 86_400_000).toISOString(), ...fields }]);
    },
    async ingest(dataset: string, events: object[]) {
      const at = new Date(clock.now()).toISOString();
      const result = await ok(`/v1/datasets/${dataset}/ingest`, 'POST', events.map((event) => ({ _time: at, ...event })));
      expect(result.ingested).toBe(events.length);
    },
    notifier: (body: object) => ok('/v2/notifiers', 'POST', body) as Promise<{ id: string; properties: any }>,
    monitor: (body: object) => ok('/v2/monitors', 'POST', { intervalMinutes: 1, rangeMinutes: 1, ...body }) as Promise<{ id: string }>,
    async history(monitorId: string): Promise<{ name: string; checkId: string; state: string; timestamp: string }[]> {
      const start = new Date(clock.now() - 3_600_000).toISOString();
      const end = new Date(clock.now() + 3_600_000).toISOString();
      return ok(`/v2/monitors/${monitorId}/history?startTime=${start}&endTime=${end}`);
    },
    deliveries: (notifierId: string) => ok(`/v2/notifiers/${notifierId}/deliveries`) as Promise<any[]>,
    async status(monitorId: string): Promise<{ state: string; nextRunAt: string | null; lastRunAt: string | null; lastError: string | null }> {
      const answer = await ok('/graphql', 'POST', { query: `{ monitor(id: "${monitorId}") { status { state nextRunAt lastRunAt lastError } } }` });
      return answer.data.monitor.status;
    },
  };
}

/** A server whose monitors can say whether they did everything due by their clock. */
interface MonitoredServer {
  app: { services: { monitoring: { idle(): boolean } } };
}

/**
 * Drives the monitor clock of in-process servers (`servers` lists those running now). Every
 * move of the clock waits until each server ran the monitors and sent the notifications that
 * fell due, so what a test checks next is what the schedule decided by then.
 */
export function monitorTime(clock: VirtualClock, servers: () => MonitoredServer[]) {
  async function settle(timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!servers().every((server) => server.app.services.monitoring.idle())) {
      if (Date.now() > deadline) throw new Error('the monitors did not finish what was due');
      await sleep(5);
    }
  }
  /** Moves the clock `ms` forward in steps of at most `stepMs`, settling after each. */
  async function advance(ms: number, stepMs = MINUTE): Promise<void> {
    await settle();
    for (let moved = 0; moved < ms; ) {
      const step = Math.min(stepMs, ms - moved);
      clock.advance(step);
      moved += step;
      await settle();
    }
  }
  /** Moves the clock a step at a time until `check` answers (at most `limitMs` of monitor time). */
  async function until<T>(check: () => T | undefined | Promise<T | undefined>, what: string, { stepMs = MINUTE, limitMs = 15 * MINUTE } = {}): Promise<T> {
    await settle();
    for (let moved = 0; ; moved += stepMs) {
      const value = await check();
      if (value !== undefined) return value;
      if (moved >= limitMs) throw new Error(`no ${what} after ${limitMs / MINUTE} minutes of monitor time`);
      clock.advance(stepMs);
      await settle();
    }
  }
  return {
    clock,
    settle,
    advance,
    minutes: (count: number) => advance(count * MINUTE),
    until,
    /** Moves the clock until `receiver` got `count` notifications (2xx answers); returns them. */
    received: (receiver: Receiver, count: number, limitMs?: number): Promise<ReceivedRequest[]> =>
      until(() => (receiver.received.length >= count ? receiver.received.slice(0, count) : undefined), `${count} notifications`, limitMs ? { limitMs } : {}),
  };
}
