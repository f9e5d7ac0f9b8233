// Installation-wide values created once and then kept (`server_settings`): whichever instance
// comes first writes its value, and every instance reads that one.
import type { SqlExecutor } from '../sql';

export class SettingRows {
  constructor(private readonly sql: SqlExecutor) {}

  async getOrCreate(key: string, create: () => string): Promise<string> {
    await this.sql.run('INSERT INTO server_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', [key, create()]);
    const row = await this.sql.row<{ value: string }>('SELECT value FROM server_settings WHERE key = ?', [key]);
    return row!.value;
  }
}
