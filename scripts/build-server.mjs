// Compiles the server (src/, TypeScript) into plain JavaScript under dist/server, which
// `npm start` runs with node. Running compiled code rather than compiling each module as it loads
// keeps the compiler, its per-module caches and inline source maps out of the server's memory.
// `npm install` runs it (postinstall) and `npm start` runs it with `--if-stale`, which rebuilds
// only when a source changed (a hash of the sources is kept in dist/server/.build-stamp).
//
// Modules keep finding files beside their sources (migrations, protobuf definitions, workers,
// the console build): every `import.meta.url` in src/ is rewritten to the URL of the source file
// it was written in, relative to the output, so the output can move with the repository.
// The application is split from the entry point: main sets the process up (NODE_ENV, V8 flags)
// before the chunk holding the application, and the packages it imports, is loaded.
//
//   node scripts/build-server.mjs             build now
//   node scripts/build-server.mjs --if-stale  build only when the sources changed
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourcesHash } from './source-stamp.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = path.join(root, 'dist', 'server');
const stampFile = path.join(outDir, '.build-stamp');
const SOURCES = ['src', 'tsconfig.json', 'scripts/build-server.mjs'];

if (!existsSync(path.join(root, 'src', 'main.ts'))) {
  // e.g. the dependency layer of the container image, installed before the sources are copied.
  console.log('build-server: server sources not present; skipping');
  process.exit(0);
}

const ifStale = process.argv.includes('--if-stale');
const hash = sourcesHash(root, SOURCES);
if (ifStale && existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === hash) process.exit(0);

const { build } = await import('esbuild');
const started = performance.now();
const stagingDir = path.join(root, 'dist', `.server-${process.pid}`);
const retiredDir = path.join(root, 'dist', `.server-old-${process.pid}`);

/** `import.meta.url` in a source file → the URL of that source file, found from the output. */
const sourceRelativeUrls = {
  name: 'source-relative-urls',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'ts' };
      const fromOutput = path.relative(outDir, args.path).split(path.sep).join('/');
      return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromOutput)}, import.meta.url).href`), loader: 'ts' };
    });
  },
};

try {
  await build({
    entryPoints: { main: path.join(root, 'src', 'main.ts') },
    outdir: stagingDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    plugins: [sourceRelativeUrls],
  });
  writeFileSync(path.join(stagingDir, '.build-stamp'), `${hash}\n`);
  if (existsSync(outDir)) renameSync(outDir, retiredDir);
  renameSync(stagingDir, outDir);
} catch (error) {
  if (!existsSync(outDir) && existsSync(retiredDir)) renameSync(retiredDir, outDir);
  console.error(`build-server: the build failed: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  rmSync(stagingDir, { recursive: true, force: true });
  rmSync(retiredDir, { recursive: true, force: true });
}
if (!process.exitCode) console.log(`build-server: built dist/server in ${Math.round(performance.now() - started)} ms`);
