// A Server-Sent Events client for GraphQL subscriptions written for the live tail tests: one POST
// per subscription (graphql-sse's distinct connections mode), each `next` message recorded with
// the time it arrived, and the stream's end observable.
import type { TestServer } from '../server';

export const LIVE_EVENTS = `subscription Live($dataset: String!, $filter: String) {
  liveEvents(dataset: $dataset, filter: $filter) { skipped events }
}`;

export interface Received {
  at: number;
  payload: { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
}

export interface LiveEventView {
  time: string;
  sysTime: string;
  rowId: string;
  data: Record<string, any>;
}

export class LiveTailClient {
  readonly messages: Received[] = [];
  /** Resolves when the stream ends (completed, closed by the server, or aborted). */
  readonly ended: Promise<void>;
  completed = false;
  private readonly abort: AbortController;
  private listeners: (() => void)[] = [];

  private constructor(
    readonly response: Response,
    abort: AbortController,
  ) {
    this.abort = abort;
    this.ended = this.read();
  }

  static async open(server: TestServer, variables: { dataset: string; filter?: string }, token?: string, headers: Record<string, string> = {}): Promise<LiveTailClient> {
    const abort = new AbortController();
    const response = await server.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
      body: JSON.stringify({ query: LIVE_EVENTS, variables }),
      signal: abort.signal,
      ...(token ? { auth: token } : {}),
    });
    return new LiveTailClient(response, abort);
  }

  private async read(): Promise<void> {
    const reader = this.response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let boundary: number;
        while ((boundary = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          this.handle(block);
        }
      }
    } catch {
      // aborted by the test, or the connection dropped
    } finally {
      this.notify();
    }
  }

  private handle(block: string): void {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (event === 'complete') this.completed = true;
    else if (event === 'next') this.messages.push({ at: Date.now(), payload: JSON.parse(data.join('\n')) });
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  /** Every event received so far, in order, with the time its message arrived. */
  get events(): (LiveEventView & { at: number })[] {
    return this.messages.flatMap((message) => (message.payload.data?.liveEvents?.events ?? []).map((event: LiveEventView) => ({ ...event, at: message.at })));
  }

  get skipped(): number {
    return this.messages.reduce((sum, message) => sum + (message.payload.data?.liveEvents?.skipped ?? 0), 0);
  }

  get errors() {
    return this.messages.flatMap((message) => message.payload.errors ?? []);
  }

  /** Waits until `condition` holds (checked on every message), failing after `timeoutMs`. */
  async until(condition: () => boolean, timeoutMs = 5_000, what = 'the expected messages'): Promise<void> {
    if (condition()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners = this.listeners.filter((entry) => entry !== listener);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; got ${JSON.stringify(this.messages.map((m) => m.payload)).slice(0, 500)}`));
      }, timeoutMs);
      const listener = () => {
        if (!condition()) return;
        clearTimeout(timer);
        this.listeners = this.listeners.filter((entry) => entry !== listener);
        resolve();
      };
      this.listeners.push(listener);
    });
  }

  close(): void {
    this.abort.abort();
  }
}
