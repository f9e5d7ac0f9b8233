// Keeps one agent from monopolizing the server: each token gets a bucket of tool calls that
// refills continuously (MCP_TOOL_CALLS_PER_MINUTE per minute, bursts of as many). Buckets live in
// memory in a bounded map, oldest first out, so a flood of tokens cannot grow it without limit.
const MAX_TOKENS_TRACKED = 10_000;

interface Bucket {
  calls: number;
  updatedAt: number;
}

export class ToolCallLimiter {
  private readonly buckets = new Map<string, Bucket>();
  clock: () => number = Date.now;

  constructor(private readonly perMinute: number) {}

  /** Takes one call from the token's bucket: 0 when allowed, else the milliseconds to wait. */
  take(tokenId: string): number {
    const now = this.clock();
    const refillPerMs = this.perMinute / 60_000;
    const known = this.buckets.get(tokenId);
    const calls = known ? Math.min(this.perMinute, known.calls + (now - known.updatedAt) * refillPerMs) : this.perMinute;
    if (calls < 1) {
      this.remember(tokenId, { calls, updatedAt: now });
      return Math.ceil((1 - calls) / refillPerMs);
    }
    this.remember(tokenId, { calls: calls - 1, updatedAt: now });
    return 0;
  }

  private remember(tokenId: string, bucket: Bucket) {
    this.buckets.delete(tokenId);
    if (this.buckets.size >= MAX_TOKENS_TRACKED) this.buckets.delete(this.buckets.keys().next().value!);
    this.buckets.set(tokenId, bucket);
  }
}
