// Values derived from one version of the catalog (rendered response bodies), reused until the
// next sync: the catalog only changes then, so a body rendered once (the full list is megabytes
// of JSON) is served byte for byte afterwards. Bounded by total size, dropping the least
// recently used values first. A version is the catalog's sync id, or any value that changes when
// the values must (a generation that also names the day, say).

export class CatalogVersionCache<T> {
  private version: number | string | undefined;
  private readonly values = new Map<string, T>();
  private size = 0;
  /** The key last used: already in place as the most recently used. */
  private newest: string | undefined;

  constructor(
    private readonly sizeOf: (value: T) => number,
    private readonly maxSize = 64 * 1024 * 1024,
  ) {}

  get(version: number | string, key: string): T | undefined {
    if (version !== this.version) return undefined;
    const value = this.values.get(key);
    if (value !== undefined && key !== this.newest) {
      // Re-insert to mark it as the most recently used.
      this.values.delete(key);
      this.values.set(key, value);
      this.newest = key;
    }
    return value;
  }

  set(version: number | string, key: string, value: T): void {
    if (version !== this.version) {
      this.values.clear();
      this.newest = undefined;
      this.size = 0;
      this.version = version;
    }
    const size = this.sizeOf(value);
    if (size > this.maxSize) return;
    const previous = this.values.get(key);
    if (previous !== undefined) this.size -= this.sizeOf(previous);
    this.values.delete(key);
    this.values.set(key, value);
    this.newest = key;
    this.size += size;
    for (const [oldest, old] of this.values) {
      if (this.size <= this.maxSize) break;
      this.values.delete(oldest);
      this.size -= this.sizeOf(old);
    }
  }

  /** The value for `key`, computing and keeping it on first use. */
  getOrCompute(version: number | string, key: string, compute: () => T): T {
    const cached = this.get(version, key);
    if (cached !== undefined) return cached;
    const value = compute();
    this.set(version, key, value);
    return value;
  }
}
