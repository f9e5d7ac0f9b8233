// How a bench starts the server as users do (`npm start`): node running the compiled server,
// built first when its sources changed. A checkout from before the server was compiled (a
// baseline given with `--root`) runs its sources through tsx instead.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../scripts/server-launch.mjs';

/** Arguments for `node` that start the server of the checkout at `root`, from `root`. */
export function serverArgs(root: string): string[] {
  if (!existsSync(path.join(root, 'scripts', 'build-server.mjs'))) return ['--import', 'tsx', 'src/main.ts'];
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
  return [...SERVER_NODE_FLAGS, 'dist/server/main.mjs'];
}
