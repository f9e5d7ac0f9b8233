// Tool calls under way, so that a client's `notifications/cancelled` stops one. The endpoint is
// stateless: the cancellation arrives in a request of its own, answered by another server
// object, so calls are found here by their token and JSON-RPC request id (a token can only
// cancel its own calls). The connection closing stops a call too (see routes.ts).
import { timedOut } from '../errors';

export class InFlightCalls {
  private readonly calls = new Map<string, AbortController>();

  /** Tracks a call until the returned function is called; its signal aborts on cancellation. */
  track(tokenId: string, requestId: string | number): { signal: AbortSignal; done: () => void } {
    const key = keyOf(tokenId, requestId);
    const controller = new AbortController();
    this.calls.set(key, controller);
    return {
      signal: controller.signal,
      done: () => {
        if (this.calls.get(key) === controller) this.calls.delete(key);
      },
    };
  }

  /** Cancels the token's call with that request id, if it is still running. */
  cancel(tokenId: string, requestId: unknown): void {
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    this.calls.get(keyOf(tokenId, requestId))?.abort(timedOut('the tool call was cancelled by its client'));
  }

  /** JSON-RPC messages of a request body that cancel calls: their request ids. */
  static cancelledIn(body: unknown): unknown[] {
    const messages = Array.isArray(body) ? body : [body];
    return messages
      .filter((message): message is { method: string; params?: { requestId?: unknown } } => typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'notifications/cancelled')
      .map((message) => message.params?.requestId);
  }
}

const keyOf = (tokenId: string, requestId: string | number) => `${tokenId}\u0000${typeof requestId}:${requestId}`;
