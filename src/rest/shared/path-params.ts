// The schema of a route's path parameters (all required strings), for validation and for the
// OpenAPI document, from their names and descriptions.
export function pathParams<const K extends string>(descriptions: Record<K, string>) {
  const names = Object.keys(descriptions) as K[];
  return {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, { type: 'string', description: descriptions[name] }])),
    required: names,
  } as const;
}
