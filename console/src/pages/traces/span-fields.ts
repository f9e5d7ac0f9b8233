// A span's stored fields sorted for its details: its attributes (semantic-convention fields
// `attributes.*` and the `attributes.custom` map, by their own names), its resource and scope,
// and any other field, leaving out what the details show on their own.

export interface SpanFieldGroups {
  attributes: [string, unknown][];
  resource: [string, unknown][];
  other: [string, unknown][];
}

const CUSTOM_ATTRIBUTES = 'attributes.custom';
const SHOWN_APART = new Set(['_time', '_sysTime', '_rowId', 'trace_id', 'span_id', 'parent_span_id', 'name', 'kind', 'duration', 'error', 'status.code', 'status.message', 'events', 'links', 'service.name']);
const RESOURCE = /^(resource\.|scope\.|telemetry\.sdk\.)/;

const byName = (a: [string, unknown], b: [string, unknown]) => a[0].localeCompare(b[0]);

/** The fields of a span's whole event (as read when it is opened), in groups. */
export function spanFieldGroups(event: Record<string, unknown>): SpanFieldGroups {
  const groups: SpanFieldGroups = { attributes: [], resource: [], other: [] };
  for (const [name, value] of Object.entries(event)) {
    if (value === null || value === undefined || SHOWN_APART.has(name)) continue;
    if (name === CUSTOM_ATTRIBUTES && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value as Record<string, unknown>)) groups.attributes.push([key, inner]);
    } else if (name.startsWith('attributes.')) groups.attributes.push([name.slice('attributes.'.length), value]);
    else if (RESOURCE.test(name)) groups.resource.push([name, value]);
    else groups.other.push([name, value]);
  }
  groups.attributes.sort(byName);
  groups.resource.sort(byName);
  groups.other.sort(byName);
  return groups;
}
