// How lengths and offsets of spans read: the unit that fits (ns, µs, ms, s, min), at most two
// decimals ("200 ms", "1.25 s", "12.5 µs"), and counts with their thousands grouped ("10,000
// spans"). Written out by hand rather than with toLocaleString: the trace page formats a few
// numbers before its first waterfall row, and the first use of the browser's number formatting
// costs it tens of milliseconds.

const UNITS: [limit: number, size: number, name: string][] = [
  [1e3, 1, 'ns'],
  [1e6, 1e3, 'µs'],
  [1e9, 1e6, 'ms'],
  [60e9, 1e9, 's'],
];

/** Whole digits grouped by three with commas ("1234567" reads "1,234,567"). */
function grouped(digits: string): string {
  let text = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = text.length; i < digits.length; i += 3) text += `,${digits.slice(i, i + 3)}`;
  return text;
}

/** A non-negative number with at most two decimals, none when they are zeros ("1,234.5"). */
function number(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const hundredths = Math.round(value * 100);
  const whole = Math.floor(hundredths / 100);
  const fraction = String(hundredths % 100).padStart(2, '0').replace(/0+$/, '');
  const digits = whole < 1e21 ? whole.toFixed(0) : String(whole);
  return fraction ? `${grouped(digits)}.${fraction}` : grouped(digits);
}

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
  const sign = count < 0 ? '−' : '';
  return `${sign}${number(Math.abs(count))} ${count === 1 ? one : many}`;
}
