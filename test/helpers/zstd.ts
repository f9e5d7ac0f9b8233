// The zstd encoder the tests compress bodies with (WebAssembly). Its module is instantiated once
// per process: workers keep modules between test files, and the encoder package is loaded once
// per process while this file may be evaluated again (once per test project), so the promise is
// kept on the process itself. Instantiating it a second time breaks the encoder already in use.
import { compress, init } from '@bokuweb/zstd-wasm';

const READY = Symbol.for('eventdeck.test.zstd-ready');
const holder = globalThis as typeof globalThis & { [READY]?: Promise<void> };

/** Resolves when `compress` can be called. */
export function zstdReady(): Promise<void> {
  holder[READY] ??= init();
  return holder[READY];
}

export { compress };
