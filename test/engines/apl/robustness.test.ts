// Mutated queries (tokens inserted, dropped and moved, with a fixed seed) must fail as client
// errors with a position, never as internal errors from the compiler or invalid SQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenize } from '../../../src/apl';
import { SCALAR_FUNCTIONS } from '../../../src/apl/semantic/functions';
import { AGGREGATE_FUNCTIONS } from '../../../src/apl/semantic/aggregates';
import { DomainError } from '../../../src/errors';
import { HTTP_EVENTS, HTTP_FIELDS, USER_EVENTS, USER_FIELDS } from '../../helpers/apl/conformance-data';
import { addDataset, createTestDatabase, type TestDatabase } from '../../helpers/apl/fixtures';

const BASE = [
  "['http'] | where status >= 500 and uri contains 'api' | project uri, status",
  "['http'] | summarize count(), avg(duration), percentile(duration, 90) by bin(_time, 1h), method",
  "['http'] | extend d = datetime_diff('minute', now(), _time), s = strcat(method, ' ', uri) | top 3 by d",
  "['http'] | parse uri with * '/v' version:int '/' rest | where isnotnull(version)",
  "['http'] | join kind=leftouter (['users'] | project user, team) on user | summarize dcount(team) by method",
  "['http'] | search \"error\" or method:\"get\" | project-away tags, meta",
  "['http'] | where meta.region == 'eu' and tags[0] in ('web', 'api') | project r = meta['region'], t = tostring(tags)",
  "let limit_ = 10; union ['http'], ['users'] | sort by _time asc nulls last | take limit_",
  "['http'] | summarize arg_max(duration, uri), make_set(user), topk(method, 2), histogram(resp_bytes, 1000) by is_tls",
  "['http'] | project-rename path = uri | project-reorder path | distinct path, method | count",
  "['http'] | extend x = iff(status > 300, format_bytes(resp_bytes), 'small'), y = case(duration > 10, 1, duration > 1, 2, 3)",
  "['http'] | where _time between (datetime(2024-04-30) .. datetime(2024-04-30T06:00:00Z)) | summarize rate(resp_bytes) by bin_auto(_time)",
  "['http'] | mv-expand with_itemindex=i tags to typeof(string), meta limit 2 | where i >= 0 | project tags, meta",
  "['http'] | make-series n = count(), avg(duration) default = 0 on _time from datetime(2024-04-30) to datetime(2024-04-30T10:00:00Z) step 2h by method",
  "['http'] | join kind=fullouter (['users'] | project user, level) on user | lookup kind=inner (['users'] | project team, who = user) on $left.user == $right.who",
  "['http'] | parse-kv message as (user, id:long) with (pair_delimiter=' ', kv_delimiter=':', quote='\"') | parse-where uri with '/' a '/' b:int",
  "['http'] | extend-valid d = duration * 2, m = method | redact replaceToken='#' redactGroups=true @'/(api)/' on uri",
  "['http'] | top-nested 2 of method with others = 'x' by count(), top-nested 1 of ['geo.city'] by sum(resp_bytes) | top-hitters 1 of method by aggregated_method",
  "let f = (x:real, y:real = 2.0) { x * y }; let t = (n:long) { ['http'] | where status > n }; t(300) | extend z = f(duration) | where user in (['users'] | project user)",
  "union withsource=src isfuzzy=true http, users, ht* | search kind=case_sensitive \"GET\" | where * has 'api'",
  "find in (http, users) where status > 300 or level > 2 project user, status, pack_all()",
  "print a = 1, b = 'x' | union (datatable(a:long, c:dynamic) [2, dynamic([1]), 3, dynamic({})]) | sample-distinct 2 of a",
];
const PIECES = ['|', '(', ')', ',', '"', "'", 'by', 'where', 'on', 'with', 'of', 'default', 'step', 'to typeof(long)', 'kind=array', '$left.', 'limit 1', 'others =', '==', '!=', 'summarize', 'count()', '1h', 'null', '[', ']', '.', 'dynamic({"a": [1]})', 'datetime(2024-01-01)', '*', '-', 'project', 'extend x =', 'and', 'not(', 'bin(_time, 1h)', 'tostring(', 'uri', 'status', '_time', 'tags[0]', 'meta.region', 'arg_max(', 'take 0', 'sort by', 'in~', '!has', 'toint(', '5m', '1e9', '@"\\d"'];

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await addDataset(db, 'http', HTTP_FIELDS, HTTP_EVENTS as never);
  await addDataset(db, 'users', USER_FIELDS, USER_EVENTS as never);
});

afterAll(() => db.close());

/** Queries in flight at once: the engine runs one while the compiler works on the next. */
const CONCURRENCY = 4;

/**
 * Runs every query (a few at a time; a query generated more than once runs once, its outcome
 * the same each time) and returns those that failed with anything but a client error, in the
 * order given, and how many of the given queries ran.
 */
async function runAll(queries: string[]): Promise<{ internal: string[]; ran: number }> {
  const distinct = [...new Set(queries)];
  const outcomes = new Map<string, 'ran' | 'client error' | string>();
  let next = 0;
  const worker = async () => {
    while (next < distinct.length) {
      const apl = distinct[next++]!;
      try {
        await db.query(apl);
        outcomes.set(apl, 'ran');
      } catch (error) {
        outcomes.set(apl, error instanceof DomainError ? 'client error' : `${apl} -> ${(error as Error).message.split('\n')[0]}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const internal = queries.map((apl) => outcomes.get(apl)!).filter((outcome) => outcome !== 'ran' && outcome !== 'client error');
  return { internal, ran: queries.filter((apl) => outcomes.get(apl) === 'ran').length };
}

describe('robustness', () => {
  it('every base query runs', async () => {
    for (const apl of BASE) await expect(db.query(apl), apl).resolves.toBeDefined();
  });

  it('numbers past what a type holds, and functions over fields a dataset lacks, run or fail as client errors', async () => {
    const queries = [
      "['http'] | extend t = tags[1e400] | take 3",
      "['http'] | extend t = tags[-1e400] | take 3",
      "['http'] | extend t = tags[1.5e300] | take 3",
      "['http'] | take 1.7976931348623157e308",
      "['http'] | extend x = 1 | take 1.7976931348623157e308",
      "['http'] | join kind=inner (['users'] | project user, team) on user | take 1.7976931348623157e308",
      "['http'] | extend j = parse_json('{\"a\": 1}') | take 1.7976931348623157e308",
      "['http'] | extend r = replace_regex(uri, '/', '-') | take 1.7976931348623157e308",
      "['http'] | extend x = extract('(a+)', 1, no_such_field) | take 3",
      "['http'] | extend x = extract('(a+)', 1, uri) | where isnotnull(no_such_field) | take 3",
      "['http'] | take 1e400",
      "['http'] | top 1e19 by status",
    ];
    const { internal } = await runAll(queries);
    expect(internal).toEqual([]);
  });

  it('queries with names and literals swapped for others run or fail as client errors', async () => {
    // Swapping a token for another of its kind keeps the syntax valid and sends odd type
    // combinations through the analyzer, the dialect and DuckDB.
    const names = [...HTTP_FIELDS.map((f) => f.name.includes('.') ? `['${f.name}']` : f.name), '_time', ...Object.keys(SCALAR_FUNCTIONS), ...Object.keys(AGGREGATE_FUNCTIONS)];
    const literals = ['0', '-1', '2.5', '"text"', "''", 'true', 'null', '1h', '100ms', 'datetime(2024-04-30T01:00:00Z)', 'dynamic([1, "a"])', 'dynamic({"k": 2})', '9223372036854775807'];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
    const queries: string[] = [];
    for (let i = 0; i < 1500; i++) {
      let apl = pick(BASE);
      for (let k = 1 + Math.floor(random() * 2); k > 0; k--) {
        let tokens;
        try {
          tokens = tokenize(apl).filter((t) => t.kind !== 'end');
        } catch {
          break;
        }
        const token = pick(tokens);
        const replacement = token.kind === 'identifier' ? pick(names) : token.kind === 'operator' ? token.raw : pick(literals);
        apl = apl.slice(0, token.pos.offset) + replacement + apl.slice(token.pos.offset + token.raw.length);
      }
      queries.push(apl);
    }
    const { internal, ran } = await runAll(queries);
    expect(internal).toEqual([]);
    expect(ran).toBeGreaterThan(100);
  }, 120_000);

  it('mutated queries fail only with client errors', async () => {
    let seed = 20240430;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const queries: string[] = [];
    for (let i = 0; i < 1500; i++) {
      let apl = BASE[Math.floor(random() * BASE.length)]!;
      for (let k = 1 + Math.floor(random() * 3); k > 0; k--) {
        const at = Math.floor(random() * (apl.length + 1));
        const choice = random();
        if (choice < 0.4) apl = `${apl.slice(0, at)} ${PIECES[Math.floor(random() * PIECES.length)]} ${apl.slice(at)}`;
        else if (choice < 0.7) apl = apl.slice(0, at) + apl.slice(at + 1 + Math.floor(random() * 6));
        else {
          const from = Math.floor(random() * apl.length);
          apl = apl.slice(0, at) + apl.slice(from, from + 8) + apl.slice(at);
        }
      }
      queries.push(apl);
    }
    const { internal } = await runAll(queries);
    expect(internal).toEqual([]);
  }, 120_000);
});
