// A local HTTP server that records what notifiers post to it, for delivery tests. Its answers
// can be scripted: `failNext(n, status)` makes the next n requests fail with that status.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body as JSON, when it is JSON. */
  json: any;
  /** The status the receiver answered with. */
  status: number;
}

export interface Receiver {
  url: string;
  port: number;
  /** Requests answered with 2xx, in arrival order. */
  received: ReceivedRequest[];
  /** Every request, failed ones included. */
  all: ReceivedRequest[];
  failNext(count: number, status?: number): void;
  /** Resolves once `count` requests were answered with 2xx (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const all: ReceivedRequest[] = [];
  const failures: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const status = failures.shift() ?? 200;
      const entry = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body, json, status };
      all.push(entry);
      if (status < 300) received.push(entry);
      response.writeHead(status, { 'content-type': 'application/json' }).end(status < 300 ? '{"ok":true}' : '{"error":"scripted failure"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    received,
    all,
    failNext(count, status = 500) {
      for (let i = 0; i < count; i++) failures.push(status);
    },
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} requests, got ${received.length}: ${JSON.stringify(received.map((r) => r.body))}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return received.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a value other than undefined. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
