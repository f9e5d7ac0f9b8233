// Stands in for src/monitors/system-clock.ts in a server process started on a test's clock
// (register.mjs): time starts at EVENTDECK_TEST_CLOCK_START_MS and moves to each instant (epoch
// milliseconds, one a line) the test writes to the process's standard input.
import { VirtualClock } from '../virtual-clock';

const start = Number(process.env.EVENTDECK_TEST_CLOCK_START_MS);
if (!Number.isFinite(start)) throw new Error('EVENTDECK_TEST_CLOCK_START_MS must give the start of the test clock');
const clock = new VirtualClock(start);

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  const lines = pending.split('\n');
  pending = lines.pop()!;
  for (const line of lines) {
    const instant = Number(line);
    if (Number.isFinite(instant) && instant > clock.now()) clock.advance(instant - clock.now());
  }
});
// Reading the test's instructions must not keep the process alive.
(process.stdin as { unref?: () => void }).unref?.();

export const systemClock = clock;
