// Generates the Prisma clients at install time, offline: one for SQLite from
// prisma/schema.prisma (the one source of truth for the models), and one for PostgreSQL from
// prisma/postgres/schema.prisma, which this script derives from it (same models, another
// provider and output; the file is not checked in). Run it again after editing the schema:
// `npm run prisma:generate`.
//
// The Prisma CLI insists on locating a schema-engine binary before any command, although
// generation never runs it; pointing it at an existing file lets `prisma generate` work without
// downloading one.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { derivePostgresSchema } from './prisma-schemas.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = `${root}node_modules/prisma/build/index.js`;
if (!existsSync(cli)) {
  console.error('prisma CLI not installed; skipping client generation');
  process.exit(0);
}

const source = readFileSync(`${root}prisma/schema.prisma`, 'utf8');
mkdirSync(`${root}prisma/postgres`, { recursive: true });
writeFileSync(`${root}prisma/postgres/schema.prisma`, derivePostgresSchema(source));

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
for (const schema of ['prisma/schema.prisma', 'prisma/postgres/schema.prisma']) {
  const result = spawnSync(process.execPath, [cli, 'generate', '--schema', schema], { cwd: root, env, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
