// The clock monitors run on in a server: the system's time, and timers that do not keep the
// process alive.
import type { Clock } from './clock';

export const systemClock: Clock = {
  now: () => Date.now(),
  at(instant, fire) {
    const timer = setTimeout(fire, Math.max(0, instant - Date.now()));
    timer.unref();
    return () => clearTimeout(timer);
  },
};
