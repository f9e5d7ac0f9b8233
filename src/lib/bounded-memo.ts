// Remembers the results of computations that every request repeats with the same inputs (what
// a set of role grants allows, a parsed query text, a compiled plan, a relational read while the
// store is unchanged), keyed by a string that stands for all of the inputs. Bounded: past
// `capacity` keys the one used least recently is forgotten, so whatever clients send, memory
// stays small. Values are shared between callers: store only values nobody mutates (freeze them).
export class BoundedMemo<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  get(key: string, compute: () => V): V {
    const known = this.find(key);
    if (known !== undefined) return known;
    const value = compute();
    this.set(key, value);
    return value;
  }

  /** The value remembered for `key`, now the most recently used; undefined when there is none. */
  find(key: string): V | undefined {
    const known = this.entries.get(key);
    if (known !== undefined) {
      // Most recently used last, so eviction takes the least recently used.
      this.entries.delete(key);
      this.entries.set(key, known);
    }
    return known;
  }

  /** Remembers a value computed elsewhere (for callers that decide afterwards whether to keep it). */
  set(key: string, value: V): void {
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Forgets everything (the inputs the keys stand for have changed). */
  clear(): void {
    this.entries.clear();
  }
}

/** Freezes a plain value and everything it holds (objects and arrays), so a shared copy cannot change. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as object)) deepFreeze(child);
  }
  return value;
}
