// Runs the service as its own process, as `npm start` does (the compiled server, dist/server,
// rebuilt first when a source changed), for tests that need real signals: graceful shutdown,
// crashes (SIGKILL) and restarts on the same data.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../scripts/server-launch.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let built = false;

/** Compiles the server unless dist/server already holds a build of the current sources. */
function buildServer() {
  if (built) return;
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  built = true;
}

export interface RunOptions {
  /**
   * Run the TypeScript sources (`node --import tsx src/main.ts`) rather than the compiled server:
   * for tests whose hooks (`imports`) replace source modules.
   */
  fromSource?: boolean;
  /** Modules to load before the service (`node --import`), e.g. test hooks. */
  imports?: string[];
  /** Keep a pipe to the process's standard input (`child.stdin`) instead of none. */
  stdin?: boolean;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote so far. */
  output(): string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
}

export function runMain(
  env: Record<string, string>,
  options: RunOptions = {},
): { child: ChildProcess; output: () => string; exited: Promise<number | string> } {
  const imports = (options.imports ?? []).flatMap((module) => ['--import', module]);
  if (!options.fromSource) buildServer();
  const args = options.fromSource ? ['--import', 'tsx', ...imports, 'src/main.ts'] : [...SERVER_NODE_FLAGS, ...imports, 'dist/server/main.mjs'];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return { child, output: () => output, exited };
}

/** Starts the service and waits until it listens; rejects with its output if it exits first. */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 30_000, options: RunOptions = {}): Promise<ServerProcess> {
  const run = runMain(env, options);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${run.output()}`)), timeoutMs);
    const check = () => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(run.output());
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    run.child.stdout!.on('data', check);
    void run.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${run.output()}`));
    });
  });
  return { url, ...run };
}
