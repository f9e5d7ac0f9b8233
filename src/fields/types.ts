// The types a field's values can have, as users see them in schemas and queries, whatever engine
// stores the events: one scalar type, or several (a mixed field) each value keeping its own.

/** The type of a field whose values all have one type. */
export type ScalarFieldType = 'string' | 'integer' | 'float' | 'boolean' | 'array' | 'datetime' | 'timespan' | 'map';
/**
 * A field holding values of several types, each kept as its own: the member types joined by "|"
 * in the order of `MEMBER_TYPES` (`string|boolean`), as Axiom reports such fields.
 */
export type MixedFieldType = `${ScalarFieldType}|${string}`;
export type FieldType = ScalarFieldType | MixedFieldType;

const SCALAR_FIELD_TYPES: ReadonlySet<string> = new Set<ScalarFieldType>(['string', 'integer', 'float', 'boolean', 'array', 'datetime', 'timespan', 'map']);

const isScalarFieldType = (value: string): value is ScalarFieldType => SCALAR_FIELD_TYPES.has(value);

/**
 * The types that may be members of a mixed field, in the order a mixed type lists them, so a
 * field's type does not depend on which values came first (a map holds anything itself, and
 * datetimes are system fields).
 */
const MEMBER_TYPES: readonly ScalarFieldType[] = ['string', 'integer', 'float', 'boolean', 'timespan', 'array'];

export function isMixedType(type: FieldType): type is MixedFieldType {
  return type.includes('|');
}

const membersCache = new Map<string, readonly ScalarFieldType[]>();

/** The types a field's values have: one, or the members of a mixed type. */
export function memberTypes(type: FieldType): readonly ScalarFieldType[] {
  if (!isMixedType(type)) return [type];
  let members = membersCache.get(type);
  if (!members) membersCache.set(type, (members = type.split('|') as ScalarFieldType[]));
  return members;
}

/** True for a scalar type, or a mixed type whose members are listed once each in their order. */
export function isFieldType(value: unknown): value is FieldType {
  if (typeof value !== 'string') return false;
  if (!value.includes('|')) return isScalarFieldType(value);
  const members = value.split('|');
  return members.length > 1 && members.join('|') === MEMBER_TYPES.filter((member) => members.includes(member)).join('|');
}

/**
 * The type a column must take to hold both what it holds and incoming values of another type,
 * without losing a value or a value's type: a map holds any JSON value; integer and float meet
 * at float; any other mix is a mixed type with the members of both.
 */
export function widenFieldType(current: FieldType, incoming: FieldType): FieldType {
  if (current === incoming) return current;
  if (current === 'map' || incoming === 'map') return 'map';
  if ((current === 'integer' && incoming === 'float') || (current === 'float' && incoming === 'integer')) return 'float';
  const members = memberTypes(current);
  const added = memberTypes(incoming);
  if (added.every((member) => members.includes(member))) return current;
  return MEMBER_TYPES.filter((member) => members.includes(member) || added.includes(member)).join('|') as MixedFieldType;
}
