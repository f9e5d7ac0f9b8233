// Hot-path reads of the relational store: a token lookup, a dataset resolution and the roles a
// member holds (base role, groups, custom role definitions) through the repository layer, beside the same read through Prisma and through the bare driver (a
// better-sqlite3 prepared statement; a `pg` pool query), on SQLite and, when it is installed, on
// a throwaway PostgreSQL cluster on this machine. One read at a time, as a request does.
//
//   npm run bench:relational -- [--iterations 20000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openRelationalStore, type RelationalStore } from '../src/db/store';
import { createTestDatabase, findPostgresBinDir, startPostgresCluster } from '../test/helpers/postgres';

const { values } = parseArgs({ options: { iterations: { type: 'string', default: '20000' } } });
const ITERATIONS = Number(values.iterations);

async function seed(store: RelationalStore) {
  const { prisma } = store;
  await prisma.organization.create({ data: { id: 'org', name: 'Org' } });
  await prisma.token.createMany({
    data: Array.from({ length: 1000 }, (_, i) => ({ id: `t${i}`, orgId: 'org', kind: 'api', name: `t${i}`, secretHash: `hash-${i}` })),
  });
  await prisma.dataset.createMany({
    data: Array.from({ length: 200 }, (_, i) => ({ id: `d${i}`, orgId: 'org', name: `logs-${i}`, tableName: `ds_${i}`, createdBy: 'u' })),
  });
  // 200 members: every other one with a custom base role, all in two groups of two roles each.
  await prisma.role.createMany({
    data: ['r1', 'r2', 'r3'].map((id) => ({ id, orgId: 'org', name: id, datasetCapabilities: '{"*":{"query":["read"]}}', orgCapabilities: '{"users":["read"]}' })),
  });
  await prisma.user.createMany({ data: Array.from({ length: 200 }, (_, i) => ({ id: `u${i}`, name: `u${i}`, email: `u${i}@example.com` })) });
  await prisma.membership.createMany({ data: Array.from({ length: 200 }, (_, i) => ({ userId: `u${i}`, orgId: 'org', role: i % 2 ? 'r1' : 'user' })) });
  for (const [id, roles] of [['g1', ['r2', 'read-only']], ['g2', ['r3', 'user']]] as const) {
    await prisma.group.create({ data: { id, orgId: 'org', name: id, roles: { create: roles.map((role) => ({ role })) } } });
    await prisma.groupMember.createMany({ data: Array.from({ length: 200 }, (_, i) => ({ groupId: id, userId: `u${i}` })) });
  }
}

/** The roles of a member, as an ORM would read them: the membership, the groups with their roles, the custom roles. */
async function grantsThroughPrisma(store: RelationalStore, userId: string) {
  const { prisma } = store;
  const membership = await prisma.membership.findUnique({ where: { userId_orgId: { userId, orgId: 'org' } } });
  const groups = await prisma.groupMember.findMany({ where: { userId, group: { orgId: 'org' } }, include: { group: { include: { roles: true } } } });
  const ids = [membership!.role, ...groups.flatMap((link) => link.group.roles.map((role) => role.role))];
  return prisma.role.findMany({ where: { orgId: 'org', id: { in: ids } } });
}

const grantsSql = (p: (n: number) => string) => `SELECT 'base' AS via, m.role AS role, r.dataset_capabilities, r.org_capabilities, r.view_capabilities
    FROM memberships m LEFT JOIN roles r ON r.id = m.role AND r.org_id = m.org_id WHERE m.user_id = ${p(1)} AND m.org_id = ${p(2)}
  UNION ALL
  SELECT 'group' AS via, gr.role AS role, r.dataset_capabilities, r.org_capabilities, r.view_capabilities
    FROM group_members gm JOIN groups g ON g.id = gm.group_id JOIN memberships m ON m.user_id = gm.user_id AND m.org_id = g.org_id
    JOIN group_roles gr ON gr.group_id = g.id LEFT JOIN roles r ON r.id = gr.role AND r.org_id = g.org_id
   WHERE gm.user_id = ${p(3)} AND g.org_id = ${p(4)}`;

/** Microseconds per call, the median of five rounds. */
async function measure(iterations: number, call: (i: number) => Promise<unknown> | unknown): Promise<number> {
  for (let i = 0; i < Math.min(iterations, 2000); i++) await call(i);
  const rounds: number[] = [];
  for (let round = 0; round < 5; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) await call(i);
    rounds.push(Number(process.hrtime.bigint() - started) / 1000 / iterations);
  }
  return rounds.sort((a, b) => a - b)[2]!;
}

interface Row {
  provider: string;
  read: string;
  driver: number;
  repository: number;
  prisma: number;
}

type DriverRead = (sql: string, params: unknown[]) => Promise<unknown> | unknown;

async function run(provider: string, store: RelationalStore, driverRead: DriverRead, driverReadAll: DriverRead, iterations: number): Promise<Row[]> {
  await seed(store);
  const placeholder = (n: number) => (provider === 'SQLite' ? '?' : `$${n}`);
  const token = {
    driver: await measure(iterations, (i) => driverRead(`SELECT * FROM tokens WHERE secret_hash = ${placeholder(1)}`, [`hash-${i % 1000}`])),
    repository: await measure(iterations, (i) => store.repository.tokens.bySecretHash(`hash-${i % 1000}`)),
    prisma: await measure(iterations, (i) => store.prisma.token.findUnique({ where: { secretHash: `hash-${i % 1000}` } })),
  };
  const dataset = {
    driver: await measure(iterations, (i) => driverRead(`SELECT * FROM datasets WHERE org_id = ${placeholder(1)} AND name = ${placeholder(2)}`, ['org', `logs-${i % 200}`])),
    repository: await measure(iterations, (i) => store.repository.datasets.byName('org', `logs-${i % 200}`)),
    prisma: await measure(iterations, (i) => store.prisma.dataset.findUnique({ where: { orgId_name: { orgId: 'org', name: `logs-${i % 200}` } } })),
  };
  const grantsQuery = grantsSql(placeholder);
  const grants = {
    driver: await measure(iterations, (i) => driverReadAll(grantsQuery, [`u${i % 200}`, 'org', `u${i % 200}`, 'org'])),
    repository: await measure(iterations, (i) => store.repository.access.grantsOf('org', `u${i % 200}`)),
    prisma: await measure(iterations, (i) => grantsThroughPrisma(store, `u${i % 200}`)),
  };
  return [
    { provider, read: 'token by secret hash', ...token },
    { provider, read: 'dataset by name', ...dataset },
    { provider, read: "a member's roles", ...grants },
  ];
}

const rows: Row[] = [];
const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-relational-'));
try {
  const sqlite = await openRelationalStore(path.join(dir, 'eventdeck.db'));
  const statements = new Map<string, ReturnType<typeof sqlite.sqlite.prepare>>();
  const sqliteRead = (sql: string, params: unknown[]) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = sqlite.sqlite.prepare(sql)));
    return (statement.get as (...args: unknown[]) => unknown).apply(statement, params);
  };
  const sqliteReadAll = (sql: string, params: unknown[]) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = sqlite.sqlite.prepare(sql)));
    return (statement.all as (...args: unknown[]) => unknown).apply(statement, params);
  };
  rows.push(...(await run('SQLite', sqlite, sqliteRead, sqliteReadAll, ITERATIONS)));
  await sqlite.close();

  if (findPostgresBinDir()) {
    const cluster = await startPostgresCluster();
    try {
      const database = await createTestDatabase(cluster.adminUrl);
      const store = await openRelationalStore({ provider: 'postgresql', url: database.url });
      const pool = new pg.Pool({ connectionString: database.url, max: 2 });
      const query = (sql: string, params: unknown[]) => pool.query(sql, params);
      rows.push(...(await run('PostgreSQL', store, query, query, Math.ceil(ITERATIONS / 10))));
      await pool.end();
      await store.close();
    } finally {
      await cluster.stop();
    }
  } else {
    console.log('PostgreSQL is not installed: measuring SQLite only');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const us = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} µs`;
console.log('| store | read | bare driver | repository | Prisma | Prisma / repository |');
console.log('| --- | --- | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  console.log(`| ${row.provider} | ${row.read} | ${us(row.driver)} | ${us(row.repository)} | ${us(row.prisma)} | ${(row.prisma / row.repository).toFixed(1)}× |`);
}
