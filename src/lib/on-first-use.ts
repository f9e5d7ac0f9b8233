// Packages the server needs only for some requests (a protocol, a function, an optional store)
// are loaded when first used rather than at start, so an idle server does not hold their code.
// `onFirstUse` loads a CommonJS package synchronously, for callers that cannot await.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A getter that `require`s `specifier` on its first call and returns the same module after. */
export function onFirstUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}
