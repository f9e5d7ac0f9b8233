// Picks the precompressed copy of a file a client accepts (Accept-Encoding with q-values):
// Brotli before gzip when weighed equally, the file itself when neither is accepted.
export type ContentCoding = 'br' | 'gzip' | 'identity';

function weights(header: string): Map<string, number> {
  const result = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let weight = 1;
    for (const parameter of parameters) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(parameter);
      if (match) weight = Number(match[1]);
    }
    if (Number.isFinite(weight)) result.set(name.trim(), weight);
  }
  return result;
}

/** The best coding of `available` for this Accept-Encoding header; `identity` when none fits. */
export function chooseCoding(acceptEncoding: string | undefined, available: ReadonlySet<ContentCoding>): ContentCoding {
  if (!acceptEncoding) return 'identity';
  const accepted = weights(acceptEncoding);
  const wildcard = accepted.get('*') ?? 0;
  const weightOf: Record<'br' | 'gzip', number> = {
    br: accepted.get('br') ?? wildcard,
    gzip: accepted.get('gzip') ?? accepted.get('x-gzip') ?? wildcard,
  };
  let best: ContentCoding = 'identity';
  for (const coding of ['br', 'gzip'] as const) {
    if (!available.has(coding) || weightOf[coding] <= 0) continue;
    if (best === 'identity' || weightOf[coding] > weightOf[best]) best = coding;
  }
  return best;
}
