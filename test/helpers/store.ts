// A freshly migrated relational store for tests of src/db: a temporary SQLite file, or (with
// TEST_DATABASE=postgres, as in the `postgres` test project) a fresh PostgreSQL database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openRelationalStore, type RelationalStore } from '../../src/db/store';
import { freshPostgresDatabase, ON_POSTGRES } from './server';

export interface TestStore {
  store: RelationalStore;
  /** Opens another store over the same database, as a second server instance would. */
  another(): Promise<RelationalStore>;
  destroy(): Promise<void>;
}

export async function openTestStore(): Promise<TestStore> {
  const opened: RelationalStore[] = [];
  if (ON_POSTGRES) {
    const database = await freshPostgresDatabase();
    const open = async () => {
      const store = await openRelationalStore({ provider: 'postgresql', url: database.url, poolSize: 4 });
      opened.push(store);
      return store;
    };
    return {
      store: await open(),
      another: open,
      async destroy() {
        await Promise.all(opened.map((store) => store.close()));
        await database.drop();
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-store-'));
  const file = path.join(dir, 'eventdeck.db');
  const open = async () => {
    const store = await openRelationalStore(file);
    opened.push(store);
    return store;
  };
  return {
    store: await open(),
    another: open,
    async destroy() {
      await Promise.all(opened.map((store) => store.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
