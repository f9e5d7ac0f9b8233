// How the console writes catalog figures: prices in USD per million tokens, token counts with
// thousands separators, and costs in USD with enough digits for small amounts. Shared by the
// models pages and the LLM costs page.

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** `1,048,576`, or an en dash when unknown. */
export function formatTokens(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? integer.format(value) : '–';
}

/** A price per million tokens: `$2.50`, `$0.075`, or an en dash when the catalog has none. */
export function formatPerMillion(value: number | null | undefined): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '–';
  return formatUsd(value);
}

/** A cost in USD: cents for amounts of a dollar or more, four significant digits below. */
export function formatUsd(value: number | null | undefined): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '–';
  const sign = value < 0 ? '−' : '';
  const amount = Math.abs(value);
  if (amount >= 1) return `${sign}$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  if (amount === 0) return '$0';
  return `${sign}$${Number(amount.toPrecision(4)).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 12 })}`;
}

/** A price per token, which is tiny: in scientific notation. */
export function formatPerToken(value: number | null | undefined): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '–';
  return value === 0 ? '$0' : `$${value.toExponential(3).replace(/\.?0+e/, 'e')}`;
}

/** A capability field's label: `supports_function_calling` → `function calling`. */
export function capabilityLabel(field: string): string {
  return field.replace(/^supports_/, '').replaceAll('_', ' ');
}

/** A date or time from the server as the user reads it. */
export function formatTime(value: string | null | undefined, fallback: string): string {
  if (!value) return fallback;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}
