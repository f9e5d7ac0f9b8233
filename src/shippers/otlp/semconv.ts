// Which attribute names the OpenTelemetry semantic conventions define, from the registry package
// (@opentelemetry/semantic-conventions, current and deprecated names, and templates such as
// `http.request.header.<key>`). Attributes so named go to `attributes.<name>`; every other one to
// the `attributes.custom` map, as Axiom lays spans and logs out. The package (some megabytes of
// names) is read on the first OTLP request.
import { onFirstUse } from '../../lib/on-first-use';

const conventionsPackage = onFirstUse<Record<string, unknown>>('@opentelemetry/semantic-conventions/incubating');
let known: { names: Set<string>; prefixes: string[] } | undefined;

function knownNames() {
  if (known) return known;
  const names = new Set<string>();
  const prefixes: string[] = [];
  for (const [exportName, value] of Object.entries(conventionsPackage())) {
    if (!exportName.startsWith('ATTR_')) continue;
    if (typeof value === 'string') names.add(value);
    else if (typeof value === 'function') {
      const prefix = (value as (key: string) => string)('');
      if (typeof prefix === 'string' && prefix.endsWith('.')) prefixes.push(prefix);
    }
  }
  return (known = { names, prefixes });
}

export function isSemanticConventionAttribute(name: string): boolean {
  const { names, prefixes } = knownNames();
  if (names.has(name)) return true;
  return prefixes.some((prefix) => name.length > prefix.length && name.startsWith(prefix));
}

/** The map field that holds attributes outside the conventions. */
export const CUSTOM_ATTRIBUTES_FIELD = 'attributes.custom';
