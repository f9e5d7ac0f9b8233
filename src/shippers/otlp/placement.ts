// Where the parts of an OTLP item land in an event, the same for spans and log records (and,
// later, metric points): `service.name` and `telemetry.sdk.*` at the top, other resource
// attributes under `resource.`, the instrumentation scope under `scope.`, attributes named by the
// semantic conventions under `attributes.`, all others in the `attributes.custom` map.
import type { RawEvent } from '../../ingest/parse-body';
import type { OtlpKeyValue, OtlpResource, OtlpScope } from './model';
import { CUSTOM_ATTRIBUTES_FIELD, isSemanticConventionAttribute } from './semconv';
import { invalidInput } from '../../errors';
import { anyValue, forEachAttribute } from './values';

const TOP_LEVEL_RESOURCE = /^(service\.name|telemetry\.sdk\.[a-z_]+)$/;

/** The fields a resource and a scope give every item under them, computed once per group. */
export function sharedFields(resource: OtlpResource | null | undefined, scope: OtlpScope | null | undefined): [string, unknown][] {
  const top: [string, unknown][] = [];
  const nested: [string, unknown][] = [];
  forEachAttribute(resource?.attributes, (key, value) => {
    if (TOP_LEVEL_RESOURCE.test(key)) top.push([key, value]);
    else nested.push([`resource.${key}`, value]);
  });
  if (scope?.name) top.push(['scope.name', scope.name]);
  if (scope?.version) top.push(['scope.version', scope.version]);
  forEachAttribute(scope?.attributes, (key, value) => nested.push([`scope.attributes.${key}`, value]));
  return [...top, ...nested];
}

export function addFields(event: RawEvent, fields: [string, unknown][]): void {
  for (const [name, value] of fields) event[name] = value;
}

// The field each attribute name goes to (`attributes.<name>`), or null for the custom map; names
// repeat from item to item, so each is decided once (bounded).
const fieldOfAttribute = new Map<string, string | null>();
const MAX_REMEMBERED = 10_000;

function attributeField(key: string): string | null {
  let field = fieldOfAttribute.get(key);
  if (field === undefined) {
    field = isSemanticConventionAttribute(key) ? `attributes.${key}` : null;
    if (fieldOfAttribute.size < MAX_REMEMBERED) fieldOfAttribute.set(key, field);
  }
  return field;
}

/** Adds an item's attributes: convention names as `attributes.<name>`, the rest in the map. */
export function addAttributes(event: RawEvent, attributes: OtlpKeyValue[] | null | undefined): void {
  if (!attributes) return;
  if (!Array.isArray(attributes)) throw invalidInput('attributes must be a list of {key, value}');
  let custom: RawEvent | undefined;
  for (const pair of attributes) {
    if (typeof pair?.key !== 'string') throw invalidInput('every attribute needs a string key');
    const value = anyValue(pair.value);
    if (value === undefined) continue;
    const field = attributeField(pair.key);
    if (field !== null) event[field] = value;
    else (custom ??= {})[pair.key] = value;
  }
  if (custom) event[CUSTOM_ATTRIBUTES_FIELD] = custom;
}
