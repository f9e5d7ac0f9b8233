// Rendered response bodies, kept per catalog version: the catalog only changes with a sync, so
// a body rendered once (the full list is megabytes of JSON) is reused byte for byte until then.
// Bounded by total size, dropping the least recently used bodies first.

export class RenderCache {
  private version: number | undefined;
  private readonly bodies = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  /** The body for `key` in catalog `version`, rendering it on first use. */
  get(version: number, key: string, render: () => string): Buffer {
    if (version !== this.version) {
      this.bodies.clear();
      this.bytes = 0;
      this.version = version;
    }
    const cached = this.bodies.get(key);
    if (cached) {
      this.bodies.delete(key);
      this.bodies.set(key, cached);
      return cached;
    }
    const body = Buffer.from(render());
    if (body.length <= this.maxBytes) {
      this.bodies.set(key, body);
      this.bytes += body.length;
      for (const [oldest, old] of this.bodies) {
        if (this.bytes <= this.maxBytes) break;
        this.bodies.delete(oldest);
        this.bytes -= old.length;
      }
    }
    return body;
  }
}
