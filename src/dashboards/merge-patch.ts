// JSON Merge Patch (RFC 7396): an object patch merges into the target key by key, recursively;
// `null` removes a key; anything else (arrays included) replaces the target whole.
type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: JsonObject = {};
  if (isObject(target)) {
    for (const [key, value] of Object.entries(target)) define(result, key, value);
  }
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else define(result, key, mergePatch(Object.hasOwn(result, key) ? result[key] : undefined, value));
  }
  return result;
}

/** Sets an own property, even one named `__proto__`, without touching any prototype. */
function define(object: JsonObject, key: string, value: unknown) {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}
