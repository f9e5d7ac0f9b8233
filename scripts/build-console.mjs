// Builds the web console (console/) into console/dist, which the server serves under /app/.
// `npm install` runs it (postinstall) and `npm start` runs it with `--if-stale`, which rebuilds
// only when the console's sources changed since the last build: a hash of those sources is kept
// in console/dist/.build-stamp. The build goes to a fresh directory that then replaces
// console/dist in one rename, so a running server never reads a half-written build.
//
//   node scripts/build-console.mjs             build now (fails when the build fails)
//   node scripts/build-console.mjs --if-stale  build only when the sources changed; a failed
//                                              build is reported but does not stop `npm start`:
//                                              the previous build (or the 503 page) stays
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourcesHash } from './source-stamp.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const consoleDir = path.join(root, 'console');
const distDir = path.join(consoleDir, 'dist');
const stampFile = path.join(distDir, '.build-stamp');

/** Everything a build depends on besides installed packages, relative to the repository. */
const SOURCES = [
  'console/src',
  'console/index.html',
  'console/vite.config.ts',
  'console/package.json',
  'console/tsconfig.json',
  'console/build',
  'console/public',
  'src/apl/syntax',
  'src/auth/roles.ts',
];

const ifStale = process.argv.includes('--if-stale');

if (!existsSync(path.join(consoleDir, 'index.html'))) {
  // e.g. the dependency layer of the container image, installed before the sources are copied.
  console.log('build-console: console sources not present; skipping');
  process.exit(0);
}
let vite;
try {
  vite = await import('vite');
} catch {
  console.error('build-console: vite is not installed (dev dependencies omitted?); the console is not built');
  process.exit(ifStale ? 0 : 1);
}

const hash = sourcesHash(root, SOURCES);
if (ifStale && existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === hash) {
  console.log('build-console: console/dist is up to date');
  process.exit(0);
}

const started = performance.now();
const stagingDir = path.join(consoleDir, `.dist-${process.pid}`);
const retiredDir = path.join(consoleDir, `.dist-old-${process.pid}`);
let buildError;
try {
  await vite.build({
    configFile: path.join(consoleDir, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: stagingDir, emptyOutDir: true },
  });
  writeFileSync(path.join(stagingDir, '.build-stamp'), `${hash}\n`);
  if (existsSync(distDir)) renameSync(distDir, retiredDir);
  try {
    renameSync(stagingDir, distDir);
  } catch (error) {
    if (existsSync(retiredDir)) renameSync(retiredDir, distDir);
    throw error;
  }
} catch (error) {
  buildError = error;
} finally {
  rmSync(stagingDir, { recursive: true, force: true });
  rmSync(retiredDir, { recursive: true, force: true });
}
if (buildError) {
  console.error(`build-console: the console build failed: ${buildError instanceof Error ? buildError.message : buildError}`);
  if (ifStale) console.error(`build-console: ${existsSync(distDir) ? 'the previous build stays in place' : 'the server will answer /app/ with 503'}`);
  process.exit(ifStale ? 0 : 1);
}
console.log(`build-console: built console/dist in ${Math.round(performance.now() - started)} ms`);
