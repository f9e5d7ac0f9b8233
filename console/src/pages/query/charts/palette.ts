// The colours of chart series and of the heatmap: a fixed categorical palette readable on the
// console's light surface, and a sequential scale from light to the accent for counts.

const CATEGORICAL = ['#3a5bd9', '#d9822b', '#1a9e77', '#c2185b', '#7b61c9', '#8c6d1f', '#00838f', '#e04f3d', '#5c7c2e', '#6d6f78'];

/** The colour of the n-th series (repeats after ten). */
export function seriesColor(index: number): string {
  return CATEGORICAL[index % CATEGORICAL.length]!;
}

/** The same colour with an alpha, for area fills. */
export function withAlpha(hex: string, alpha: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${alpha})`;
}

/** A heatmap cell's colour for `share` in [0, 1] (0 = lightest, 1 = darkest). */
export function heatColor(share: number): string {
  const t = Math.min(1, Math.max(0, share));
  // From #e8edfb to #1c2f80 through the accent.
  const from = [232, 237, 251];
  const to = [28, 47, 128];
  const mix = from.map((start, i) => Math.round(start + (to[i]! - start) * t));
  return `rgb(${mix[0]}, ${mix[1]}, ${mix[2]})`;
}
