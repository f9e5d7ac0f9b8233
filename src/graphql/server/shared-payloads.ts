// Subscription payloads share their events: a live tail hands the same event objects to every one
// of its subscribers, and each message would otherwise turn them into JSON again, once per
// subscriber. This plugin gives every subscription payload a serializer that writes each plain
// object found as an element of an array once and reuses that text while the object lives (a
// WeakMap, so nothing is kept past the events themselves). The output is JSON.stringify's text.
import type { Plugin } from 'graphql-yoga';

/** JSON text of array elements already written, by object. */
const written = new WeakMap<object, string>();

const isPlain = (value: object) => {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

function write(value: unknown, inArray: boolean): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return '[' + value.map((element) => write(element, true) ?? 'null').join(',') + ']';
  // Dates, errors and class instances: exactly as JSON.stringify writes them, never remembered.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function' || !isPlain(value)) return JSON.stringify(value);
  if (inArray) {
    // An element (a shared event): written whole by the engine's own serializer, then remembered.
    let text = written.get(value);
    if (text === undefined) written.set(value, (text = JSON.stringify(value)));
    return text;
  }
  const parts: string[] = [];
  for (const key of Object.keys(value)) {
    const field = write((value as Record<string, unknown>)[key], false);
    if (field !== undefined) parts.push(JSON.stringify(key) + ':' + field);
  }
  return '{' + parts.join(',') + '}';
}

/** JSON.stringify's text for `value`, reusing the text of array elements written before. */
export const stringifySharing = (value: unknown): string => write(value, false) ?? 'null';

/** Sets the sharing serializer on every payload of every subscription. */
export function sharedPayloads(): Plugin {
  return {
    onSubscribe: () => ({
      onSubscribeResult: () => ({
        onNext: ({ result }) => {
          (result as { stringify?: (value: unknown) => string }).stringify = stringifySharing;
        },
      }),
    }),
  };
}
