// The zstd encoder the tests compress bodies with (WebAssembly). Its module is instantiated once
// per process: test files share a worker's modules, and instantiating it again under a module
// already in use breaks the encoder of the files that came before.
import { compress, init } from '@bokuweb/zstd-wasm';

let ready: Promise<void> | undefined;

/** Resolves when `compress` can be called. */
export function zstdReady(): Promise<void> {
  ready ??= init();
  return ready;
}

export { compress };
