// Runs the service as its own process (`tsx src/main.ts`), as users start it, for tests that
// need real signals: graceful shutdown, crashes (SIGKILL) and restarts on the same data.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));

export interface RunOptions {
  /**
   * Run the service in this very process (`node --import tsx`) rather than under tsx's CLI,
   * which runs it in a child: needed when a test kills it with SIGKILL.
   */
  singleProcess?: boolean;
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
  const args = options.singleProcess ? ['--import', 'tsx', ...imports, 'src/main.ts'] : [TSX, ...imports, 'src/main.ts'];
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
