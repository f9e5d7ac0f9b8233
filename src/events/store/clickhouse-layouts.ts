// Table layouts of a ClickHouse engine that only this process reaches (chdb: one engine process,
// its own data directory), kept between statements as the DuckDB store keeps its own, so that a
// query or an ingest request does not read `system.columns` first. Every store over the same
// executor shares one set (tests run two stores over one engine as two instances over one
// server), and each change of a table through any of them forgets that table's layout. A layout
// read while a change was under way is not kept: a counter moves when a change starts and when it
// ends, and a read keeps what it found only when the counter did not move meanwhile.
import type { ClickHouseExecutor } from '../../engines/clickhouse/executor';
import type { StoredColumn } from './store';

export class KeptLayouts {
  private readonly layouts = new Map<string, readonly StoredColumn[]>();
  private changes = 0;

  get(table: string): readonly StoredColumn[] | undefined {
    return this.layouts.get(table);
  }

  /** Reads a layout with `read`, keeping it unless a change ran meanwhile. */
  async read(table: string, read: () => Promise<readonly StoredColumn[] | undefined>): Promise<readonly StoredColumn[] | undefined> {
    const before = this.changes;
    const layout = await read();
    if (layout && this.changes === before) this.layouts.set(table, layout);
    return layout;
  }

  /** Runs a change of `table`'s layout; its layout is read afresh after it (and while it runs). */
  async change<T>(table: string, run: () => Promise<T>): Promise<T> {
    this.changes++;
    this.layouts.delete(table);
    try {
      return await run();
    } finally {
      this.changes++;
      this.layouts.delete(table);
    }
  }

  forget(table: string): void {
    this.changes++;
    this.layouts.delete(table);
  }
}

const byExecutor = new WeakMap<ClickHouseExecutor, KeptLayouts>();

/** The kept layouts of an executor's engine, shared by every store over it. */
export function keptLayoutsOf(executor: ClickHouseExecutor): KeptLayouts {
  let kept = byExecutor.get(executor);
  if (!kept) byExecutor.set(executor, (kept = new KeptLayouts()));
  return kept;
}
