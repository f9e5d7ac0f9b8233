// SqlExecutor over a `pg` pool. Portable `?` placeholders become `$n` once per statement text,
// and each text is a named prepared statement, parsed once per pooled connection. Times are
// read as UTC (the columns are `timestamp(3)` without a zone, as Prisma creates them, which `pg`
// would otherwise read in the process's local zone) and counts as numbers.
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { SqlExecutor, SqlStatement, SqlValue } from './sql';

const TIMESTAMP_OID = 1114;
const INT8_OID = 20;

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMP_OID) return (text: string) => new Date(`${text.replace(' ', 'T')}Z`);
    if (oid === INT8_OID) return (text: string) => Number(text);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** Rewrites `?` placeholders (outside quoted text) as `$1, $2, ...`. */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  let out = '';
  let quote: string | undefined;
  for (const char of sql) {
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === '?') {
      out += `$${++n}`;
      continue;
    }
    out += char;
  }
  return out;
}

interface Prepared {
  name: string;
  text: string;
}

function bind(params: readonly SqlValue[] | undefined): unknown[] {
  if (!params) return [];
  return params.map((value) => (value instanceof Date ? value.toISOString() : value));
}

type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

export class PostgresExecutor implements SqlExecutor {
  readonly dialect = 'postgresql' as const;
  private readonly prepared = new Map<string, Prepared>();

  constructor(private readonly pool: pg.Pool) {}

  private statement(sql: string): Prepared {
    let prepared = this.prepared.get(sql);
    if (!prepared) {
      const text = numberPlaceholders(sql);
      prepared = { name: `ed_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text };
      this.prepared.set(sql, prepared);
    }
    return prepared;
  }

  private query(on: Queryable, sql: string, params?: readonly SqlValue[]) {
    const { name, text } = this.statement(sql);
    return on.query({ name, text, values: bind(params), types });
  }

  async rows<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return (await this.query(this.pool, sql, params)).rows as T[];
  }

  async row<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return (await this.query(this.pool, sql, params)).rows[0] as T | undefined;
  }

  async run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return (await this.query(this.pool, sql, params)).rowCount ?? 0;
  }

  async batch(statements: readonly SqlStatement[]): Promise<void> {
    if (statements.length === 0) return;
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      for (const { sql, params } of statements) await this.query(client, sql, params);
      await client.query('COMMIT');
    } catch (error) {
      // A connection that cannot even roll back is closed rather than handed out again.
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }
}
