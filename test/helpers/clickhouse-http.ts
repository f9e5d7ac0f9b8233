// ClickHouse's HTTP interface, the part @clickhouse/client uses, in front of ClickHouse embedded
// (chdb) in this test process: no ClickHouse server can be installed here, and this lets the
// production executor (`HttpExecutor`, the official client) be tested against ClickHouse's own
// engine, answers and error texts. A request's statement is the `query` parameter followed by
// the body (an INSERT's rows, or the whole statement); every parameter that is not one of the
// interface's own is a setting of that statement; a failure answers 500 with ClickHouse's error
// text and the X-ClickHouse-Exception-Code header, as the server does.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Session } from 'chdb';

/** URL parameters of the HTTP interface itself, not settings. */
const OWN_PARAMETERS = new Set(['query', 'query_id', 'database', 'default_format', 'session_id', 'session_timeout', 'user', 'password', 'role']);

export interface ClickHouseHttp {
  /** `http://user:password@127.0.0.1:port/database`, as CLICKHOUSE_URL takes it. */
  url: string;
  /** Statements received, in order (settings clauses included). */
  statements: string[];
  /**
   * Makes statements matching `pattern` fail with ClickHouse's error `code` (named `name`) and
   * `message`, as a server in trouble answers (out of memory, too many parts...), until the
   * returned function is called.
   */
  inject(pattern: RegExp, error: { code: number; name: string; message: string }): () => void;
  close(): Promise<void>;
}

/** Puts `SETTINGS ...` where ClickHouse reads it: before a trailing FORMAT clause, else at the end. */
function withSettings(sql: string, settings: [string, string][]): string {
  if (settings.length === 0) return sql;
  const clause = ` SETTINGS ${settings.map(([name, value]) => `${name} = ${/^-?\d+(\.\d+)?$/.test(value) ? value : `'${value.replaceAll("'", "\\'")}'`}`).join(', ')}`;
  const format = /\s+FORMAT\s+\w+\s*$/i.exec(sql);
  return format ? `${sql.slice(0, format.index)}${clause}${sql.slice(format.index)}` : `${sql.replace(/;\s*$/, '')}${clause}`;
}

export async function startClickHouseHttp(database = 'eventdeck'): Promise<ClickHouseHttp> {
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-chdb-http-'));
  const session = new Session(dir);
  await session.queryAsync(`CREATE DATABASE IF NOT EXISTS ${database}`, { format: 'Null' });
  await session.queryAsync(`USE ${database}`, { format: 'Null' });
  const statements: string[] = [];
  const faults = new Set<{ pattern: RegExp; error: { code: number; name: string; message: string } }>();
  // chdb runs one statement at a time; requests wait their turn.
  let turn = Promise.resolve();

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      turn = turn.then(async () => {
        const url = new URL(request.url ?? '/', 'http://localhost');
        const body = Buffer.concat(chunks).toString('utf8');
        const head = url.searchParams.get('query');
        // An INSERT names its columns and format in `query` and sends its rows as the body.
        const sql = head ? `${head}${body ? `\n${body}` : ''}` : body;
        const settings = [...url.searchParams].filter(([name]) => !OWN_PARAMETERS.has(name) && !name.startsWith('param_'));
        const isInsert = /^\s*INSERT\b/i.test(head ?? sql);
        const statement = isInsert && head ? `${withSettings(head, settings)}${body ? `\n${body}` : ''}` : withSettings(sql, settings);
        statements.push(statement);
        const fault = [...faults].find((candidate) => candidate.pattern.test(statement));
        if (fault) {
          const { code, name, message } = fault.error;
          response.writeHead(500, { 'Content-Type': 'text/plain; charset=UTF-8', 'X-ClickHouse-Exception-Code': String(code) });
          response.end(`Code: ${code}. DB::Exception: ${message}. (${name}) (version 26.1.1.1 (official build))\n`);
          return;
        }
        try {
          const format = /\s+FORMAT\s+(\w+)\s*$/i.exec(sql)?.[1];
          const result = await session.queryAsync(statement, isInsert || !format ? { format: 'Null' } : { format });
          response.writeHead(200, { 'Content-Type': 'text/plain; charset=UTF-8', 'X-ClickHouse-Summary': '{"read_rows":"0","written_rows":"0"}' });
          response.end(isInsert || !format ? '' : result.text());
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          const code = /Code: (\d+)\./.exec(message)?.[1] ?? '1000';
          // chdb keeps what a failed statement had written and puts it before the next one's.
          await session.queryAsync('SELECT 1', { format: 'TabSeparated' }).catch(() => undefined);
          response.writeHead(500, { 'Content-Type': 'text/plain; charset=UTF-8', 'X-ClickHouse-Exception-Code': code });
          response.end(message.startsWith('Code:') ? message : `Code: ${code}. DB::Exception: ${message}`);
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://default:@127.0.0.1:${port}/${database}`,
    statements,
    inject(pattern, error) {
      const fault = { pattern, error };
      faults.add(fault);
      return () => faults.delete(fault);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await turn;
      session.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
