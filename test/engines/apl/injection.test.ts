// Values never reach SQL text unescaped: hostile strings, field names, dataset names and table
// names are tried in every place the compiler writes them, and must come back as data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareQuery, parseQuery } from '../../../src/apl';
import { addDataset, createTestDatabase, ON_CHDB, type TestDatabase } from '../../helpers/apl/fixtures';

const EVIL = `x'); DROP TABLE victim; --`;
const EVIL_DOUBLE = `y"); DROP TABLE victim; --`;
const EVIL_FIELD = `f"; DROP TABLE victim; --`;

let db: TestDatabase;

async function victimCount(): Promise<number> {
  return Number(await db.scalar(`SELECT count(*) FROM ${db.quote('victim')}`));
}

beforeAll(async () => {
  db = await createTestDatabase();
  await db.execute(ON_CHDB ? 'CREATE TABLE victim ENGINE = MergeTree ORDER BY i AS SELECT number AS i FROM numbers(3)' : 'CREATE TABLE victim AS SELECT * FROM range(3) t(i)');
  const schema = await addDataset(
    db,
    `evil'] | count; DROP TABLE victim; --`,
    [
      { name: 'msg', type: 'string' },
      { name: EVIL_FIELD, type: 'string' },
      { name: 'obj', type: 'array' },
    ],
    [
      { _time: '2024-04-30T10:00:00Z', msg: EVIL, [EVIL_FIELD]: 'field value', obj: { [EVIL]: 1, plain: EVIL_DOUBLE } },
      { _time: '2024-04-30T11:00:00Z', msg: 'harmless', [EVIL_FIELD]: EVIL_DOUBLE, obj: { plain: 'p' } },
    ],
  );
  // A table name that is itself hostile: the compiler must quote it as an identifier.
  const hostileTable = `t"; DROP TABLE victim; --`;
  await db.execute(
    ON_CHDB
      ? `RENAME TABLE ${db.quote(schema.table)} TO ${db.quote(hostileTable)}`
      : `ALTER TABLE ${db.quote(schema.table)} RENAME TO ${db.quote(hostileTable)}`,
  );
  schema.table = hostileTable;
});

afterAll(() => db.close());

const DATASET = `['evil\\'] | count; DROP TABLE victim; --']`;

describe('SQL injection', () => {
  it('reads a dataset whose name and table name are hostile', async () => {
    const rows = await db.rows(`${DATASET} | count`);
    expect(rows).toEqual([{ count: 2 }]);
    expect(await victimCount()).toBe(3);
  });

  it('compares with hostile strings as plain values', async () => {
    for (const apl of [
      `${DATASET} | where msg == "${EVIL}" | count`,
      `${DATASET} | where msg contains "'); DROP" | count`,
      `${DATASET} | where msg has_cs "DROP" | count`,
      `${DATASET} | where msg in ("${EVIL}", 'other') | count`,
      `${DATASET} | where msg startswith @"x'" | count`,
      `${DATASET} | where msg matches regex "x'\\\\)" | count`,
      `${DATASET} | where msg =~ "X'); drop TABLE victim; --" | count`,
    ]) {
      expect(await db.rows(apl), apl).toEqual([{ count: 1 }]);
    }
    expect(await victimCount()).toBe(3);
  });

  it('keeps hostile text intact through functions that need constants', async () => {
    const [row] = await db.rows(
      `${DATASET} | where msg == "${EVIL}" | project a = replace_regex("'", '"', msg), b = extract("(DROP [a-z]+)", 1, msg), c = format_datetime(_time, "yyyy'); --"), d = obj['${EVIL.replaceAll("'", "\\'")}'], e = obj.plain, f = bag_pack("k'); --", 1), g = trim("'", "'x'")`,
    );
    expect(row).toEqual({
      a: EVIL.replaceAll("'", '"'),
      b: null,
      c: "2024'); --",
      d: 1,
      e: EVIL_DOUBLE,
      f: { "k'); --": 1 },
      g: 'x',
    });
    expect(await victimCount()).toBe(3);
  });

  it('reads, renames and groups by a hostile field name', async () => {
    const field = `['${EVIL_FIELD}']`;
    const rows = await db.rows(`${DATASET} | where ${field} == '${EVIL_DOUBLE}' | project ${field}, ['new"; DROP TABLE victim; --'] = msg`);
    expect(rows).toEqual([{ [EVIL_FIELD]: EVIL_DOUBLE, 'new"; DROP TABLE victim; --': 'harmless' }]);
    const grouped = await db.rows(`${DATASET} | summarize count() by ${field} | project-rename ['a\\' b'] = ${field}`);
    expect(grouped.map((r) => r["a' b"]).sort()).toEqual([EVIL_DOUBLE, 'field value'].sort());
    expect(await victimCount()).toBe(3);
  });

  it('passes request variables and parse patterns as data', async () => {
    const rows = await db.rows(`${DATASET} | where msg == v | parse msg with "x'" rest | project rest`, { variables: { v: EVIL } });
    expect(rows).toEqual([{ rest: `); DROP TABLE victim; --` }]);
    expect(await victimCount()).toBe(3);
  });

  it('writes user strings into the statement only as escaped literals', async () => {
    const prepared = await prepareQuery(parseQuery(`${DATASET} | where msg == "${EVIL}" or msg contains "${EVIL}" or msg matches regex "${EVIL}"`), {}, db.deps);
    expect(prepared.statement.sql).not.toContain(EVIL);
    // DuckDB doubles a quote inside a literal; ClickHouse escapes it with a backslash.
    expect(prepared.statement.sql).toContain(ON_CHDB ? EVIL.replaceAll("'", "\\'") : EVIL.replaceAll("'", "''"));
  });

  it('passes text a literal cannot carry as a statement parameter (DuckDB) or as an escape (ClickHouse)', async () => {
    const prepared = await prepareQuery(parseQuery(`${DATASET} | where msg == "a\u0000b" | count`), {}, db.deps);
    if (ON_CHDB) {
      expect(prepared.statement.params).toEqual([]);
      expect(prepared.statement.sql).toContain("'a\\0b'");
    } else {
      expect(prepared.statement.params).toEqual(['a\u0000b']);
    }
    expect(await db.rows(`${DATASET} | where msg != "a\u0000b" | count`)).toEqual([{ count: 2 }]);
  });
});
