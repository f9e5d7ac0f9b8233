// Installation-wide values that are created once and then kept (server_settings table).
import type Database from 'better-sqlite3';

export function settingOrCreate(sqlite: Database.Database, key: string, create: () => string): string {
  sqlite.prepare('INSERT INTO server_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING').run(key, create());
  return (sqlite.prepare('SELECT value FROM server_settings WHERE key = ?').get(key) as { value: string }).value;
}
