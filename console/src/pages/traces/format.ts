// How lengths and offsets of spans read: the unit that fits (ns, µs, ms, s, min), at most two
// decimals ("200 ms", "1.25 s", "12.5 µs").

const UNITS: [limit: number, size: number, name: string][] = [
  [1e3, 1, 'ns'],
  [1e6, 1e3, 'µs'],
  [1e9, 1e6, 'ms'],
  [60e9, 1e9, 's'],
];

const number = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 2 });

export function formatNanos(nanos: number): string {
  const sign = nanos < 0 ? '−' : '';
  const size = Math.abs(nanos);
  for (const [limit, unit, name] of UNITS) {
    // Rounding may carry into the next unit (999.999 µs reads as 1 ms).
    if (size < limit && Number((size / unit).toFixed(2)) < 1000) return `${sign}${number(size / unit)} ${name}`;
  }
  if (size < 3600e9) return `${sign}${number(size / 60e9)} min`;
  return `${sign}${number(size / 3600e9)} h`;
}

export function formatCount(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}
