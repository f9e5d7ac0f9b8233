// Reference data that lives beside the project (not shipped with it). Tests that read it run
// whenever the folder exists, fail loudly when CI lacks it, and are skipped elsewhere.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SHARED_DIR = fileURLToPath(new URL('../../../shared', import.meta.url));
export const LITELLM_SNAPSHOT = `${SHARED_DIR}/data/litellm/model_prices_and_context_window.json`;
export const AXIOM_OPENAPI_DIR = `${SHARED_DIR}/reference/axiom-openapi`;

/**
 * True when `path` can be used. In CI (CI set) a missing path throws so the gap is seen;
 * elsewhere it prints why the dependent tests are skipped and returns false.
 */
export function sharedDataAvailable(path: string): boolean {
  if (existsSync(path)) return true;
  if (process.env.CI) {
    throw new Error(`reference data missing in CI: ${path} (expected the shared folder beside the project)`);
  }
  console.warn(`skipping tests that need ${path}: not present on this machine`);
  return false;
}
