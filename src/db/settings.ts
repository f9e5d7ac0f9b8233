// Installation-wide values that are created once and then kept (server_settings table), such
// as the key that signs query cursors: the first instance to start writes it, all read it.
import type { RelationalStore } from './store';

export function settingOrCreate(store: RelationalStore, key: string, create: () => string): Promise<string> {
  return store.repository.settings.getOrCreate(key, create);
}
