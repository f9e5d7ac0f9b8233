// How a bench starts the server as users do (`npm start`): node running the compiled server,
// built first when its sources changed. A checkout from before the server was compiled (a
// baseline given with `--root`) runs its sources through tsx instead. BENCH_SERVER_NODE_ARGS adds
// flags for the server's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../scripts/server-launch.mjs';

/** The flags BENCH_SERVER_NODE_ARGS asks for (none when unset). */
export const benchNodeArgs = (): string[] => process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];

/** Arguments for `node` that start the server of the checkout at `root`, from `root`. */
export function serverArgs(root: string): string[] {
  if (!existsSync(path.join(root, 'scripts', 'build-server.mjs'))) return [...benchNodeArgs(), '--import', 'tsx', 'src/main.ts'];
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
  return [...benchNodeArgs(), ...SERVER_NODE_FLAGS, 'dist/server/main.mjs'];
}
