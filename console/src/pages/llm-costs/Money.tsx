// A cost in USD as text people read, carrying the exact figure in a <data> element's value.
import { formatUsd } from '../models/format';

export function Money({ value, signed = false }: { value: number | null | undefined; signed?: boolean }) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return <span>–</span>;
  const text = formatUsd(value);
  return <data value={String(value)}>{signed && value > 0 ? `+${text}` : text}</data>;
}
