// The test's side of a server process on a test clock: starts the process with the clock
// swapped in (register.mjs) and tells it each new time over its standard input.
import { fileURLToPath } from 'node:url';
import { type RunOptions, type ServerProcess, startServerProcess } from '../../process';
import { MINUTE } from '../virtual-clock';

const REGISTER = fileURLToPath(new URL('./register.mjs', import.meta.url));

export class ProcessClock {
  private server: ServerProcess | undefined;

  constructor(private current = Date.now()) {}

  now(): number {
    return this.current;
  }

  /** Starts the service as a process whose monitors run on this clock, from its current time. */
  async start(env: Record<string, string>, timeoutMs = 30_000, options: RunOptions = {}): Promise<ServerProcess> {
    const server = await startServerProcess(
      { ...env, EVENTDECK_TEST_CLOCK_START_MS: String(this.current) },
      timeoutMs,
      { ...options, imports: [...(options.imports ?? []), REGISTER], stdin: true },
    );
    this.server = server;
    return server;
  }

  /** Moves the time forward; the running process acts on what fell due soon after. */
  advance(ms: number): void {
    this.current += ms;
    if (this.server?.child.exitCode === null && this.server.child.signalCode === null) this.server.child.stdin!.write(`${this.current}\n`);
  }

  minutes(count: number): void {
    this.advance(count * MINUTE);
  }
}
