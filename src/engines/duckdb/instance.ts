// Opens an embedded DuckDB database the way every store here wants it: its folder created, a
// memory limit, and freed memory handed back to the system promptly rather than kept cached
// for reuse (the server shares its machine, and ingest frees as much as it allocates).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

export interface DuckDBOptions {
  /** DuckDB's buffer memory limit, e.g. `1GB` or `1048576KiB` (default 256MB; beyond it DuckDB spills to disk). */
  memoryLimit?: string;
  /** Where DuckDB spills what does not fit in memory (default: `<database>.tmp`). */
  tempDirectory?: string;
  /** Most disk the spilled data may take, e.g. `10GB` (default: DuckDB's, 90% of the free space). */
  maxTempDirectorySize?: string;
  /** DuckDB worker threads (default: one per core). */
  threads?: number;
  /** The storage format new database files are created in (DuckDB's default when unset). */
  storageVersion?: string;
}

export async function openDuckDB(databasePath: string, options: DuckDBOptions = {}): Promise<DuckDBInstance> {
  if (databasePath !== ':memory:') mkdirSync(path.dirname(databasePath), { recursive: true });
  const config: Record<string, string> = {
    memory_limit: options.memoryLimit ?? '256MB',
    allocator_background_threads: 'true',
    allocator_flush_threshold: '16MB',
  };
  if (options.tempDirectory) config.temp_directory = options.tempDirectory;
  if (options.maxTempDirectorySize) config.max_temp_directory_size = options.maxTempDirectorySize;
  if (options.threads) config.threads = String(options.threads);
  if (options.storageVersion) config.storage_compatibility_version = options.storageVersion;
  return DuckDBInstance.create(databasePath, config);
}
