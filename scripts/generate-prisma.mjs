// Generates the Prisma client at install time, offline. The Prisma CLI insists on locating a
// schema-engine binary before any command, although generation never runs it; pointing it at an
// existing file lets `prisma generate` work without downloading one.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = `${root}node_modules/prisma/build/index.js`;
if (!existsSync(cli)) {
  console.error('prisma CLI not installed; skipping client generation');
  process.exit(0);
}
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
const result = spawnSync(process.execPath, [cli, 'generate', '--schema', 'prisma/schema.prisma'], {
  cwd: root,
  env,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
