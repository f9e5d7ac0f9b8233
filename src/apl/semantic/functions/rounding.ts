// Rounding functions: bin (and floor with a size), bin_auto, floor, ceiling, round.
import type { AplType, TExpr } from '../plan';
import type { CallSite } from '../call-site';
import { NANOS_PER_DAY } from '../../time';
import { call, convert, intLiteral, literal } from '../typed';
import type { ScalarFamily } from './rule';

export const ROUNDING_FUNCTIONS: ScalarFamily = {
  bin: (site) => binRule(site),
  bin_auto: (site) => {
    site.arity(1);
    const arg = site.arg(0, 'datetime');
    return call('bin_datetime', [arg, literal({ type: 'timespan', nanos: site.context.autoBinSpan })], 'datetime');
  },
  floor: (site) => {
    site.arity(1, 2);
    if (site.count === 2) return binRule(site);
    return call('floor', [site.number(0)], site.number(0).type);
  },
  ceiling: (site) => {
    site.arity(1);
    return call('ceiling', [site.number(0)], site.number(0).type);
  },
  round: (site) => {
    site.arity(1, 2);
    return call('round', [site.arg(0, 'real'), site.count > 1 ? site.arg(1, 'int') : intLiteral(0)], 'real');
  },
};

/** bin(value, size): datetimes by timespans, numbers by numbers, timespans by timespans. */
export function binRule(site: CallSite): TExpr {
  site.arity(2);
  const value = site.raw(0);
  if (value.type === 'datetime' || (value.type === 'string' && site.raw(1).type === 'timespan')) {
    const span = site.arg(1, 'timespan');
    if (span.kind === 'literal' && span.value.type === 'timespan' && span.value.nanos <= 0n) throw site.error('the bin size must be positive', 1);
    return call('bin_datetime', [site.arg(0, 'datetime'), span], 'datetime');
  }
  if (value.type === 'timespan') return call('bin_number', [value, site.arg(1, 'timespan')], 'timespan');
  const number = site.number(0);
  const size = site.number(1);
  const type: AplType = number.type === 'int' && size.type === 'int' ? 'int' : 'real';
  return call('bin_number', [convert(number, type, site.pos, 'the value'), convert(size, type, site.pos, 'the bin size')], type);
}

/** The span `bin_auto` picks: a round span giving at most about 100 bins over the window. */
export function autoBinSpan(windowNanos: bigint | undefined): bigint {
  const steps = [1n, 5n, 10n, 15n, 30n, 60n, 300n, 600n, 900n, 1800n, 3600n, 10800n, 21600n, 43200n, 86400n, 604800n].map((s) => s * 1_000_000_000n);
  const window = windowNanos && windowNanos > 0n ? windowNanos : NANOS_PER_DAY;
  const wanted = window / 100n;
  return steps.find((step) => step >= wanted) ?? 30n * NANOS_PER_DAY;
}
