// A build's identity: one hash over the files it is made from, so that `--if-stale` builds
// (the console's and the server's, run by `npm start`) rebuild only when a source changed.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

function filesUnder(root, relative) {
  const full = path.join(root, relative);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) => filesUnder(root, path.posix.join(relative, entry.name)));
}

/** SHA-256 over the paths and contents of every file under `sources` (paths relative to `root`). */
export function sourcesHash(root, sources) {
  const hash = createHash('sha256');
  for (const file of sources.flatMap((source) => filesUnder(root, source)).sort()) {
    hash.update(file).update('\0').update(readFileSync(path.join(root, file))).update('\0');
  }
  return hash.digest('hex');
}
