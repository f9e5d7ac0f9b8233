// Which attribute names the OpenTelemetry semantic conventions define, from the registry package
// (@opentelemetry/semantic-conventions, current and deprecated names, and templates such as
// `http.request.header.<key>`). Attributes so named go to `attributes.<name>`; every other one to
// the `attributes.custom` map, as Axiom lays spans and logs out.
import * as conventions from '@opentelemetry/semantic-conventions/incubating';

const NAMES = new Set<string>();
const PREFIXES: string[] = [];
for (const [exportName, value] of Object.entries(conventions)) {
  if (!exportName.startsWith('ATTR_')) continue;
  if (typeof value === 'string') NAMES.add(value);
  else if (typeof value === 'function') {
    const prefix = (value as (key: string) => string)('');
    if (typeof prefix === 'string' && prefix.endsWith('.')) PREFIXES.push(prefix);
  }
}

export function isSemanticConventionAttribute(name: string): boolean {
  if (NAMES.has(name)) return true;
  return PREFIXES.some((prefix) => name.length > prefix.length && name.startsWith(prefix));
}

/** The map field that holds attributes outside the conventions. */
export const CUSTOM_ATTRIBUTES_FIELD = 'attributes.custom';
