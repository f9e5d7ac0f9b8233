// The built console as the server sees it: the page template (index.html split around its nonce
// placeholder) and the files beside it with their precompressed copies. The folder's file list is
// read once, on first use, and again only when a build has replaced the folder (index.html is a
// new file then); file contents are read on first request and kept, so the hot path is memory.
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { contentTypeOf } from './content-types';
import type { ContentCoding } from './encoding';

export const NONCE_PLACEHOLDER = '__CSP_NONCE__';
const ASSETS_DIR = 'assets';
const SUFFIX: Record<Exclude<ContentCoding, 'identity'>, string> = { br: '.br', gzip: '.gz' };

export interface FileVariant {
  body: Buffer;
  etag: string;
}

export interface StaticFile {
  contentType: string;
  /** Hashed build output (under assets/): its name changes whenever its content does. */
  immutable: boolean;
  /** Codings this file has a smaller precompressed copy for, `identity` always. */
  codings: ReadonlySet<ContentCoding>;
  read(coding: ContentCoding): Promise<FileVariant>;
}

interface Snapshot {
  /** Identity of index.html (inode, time, size): it changes when a build replaces the folder. */
  version: string;
  /** index.html cut at each nonce placeholder. */
  pageParts: string[];
  files: Map<string, StaticFile>;
}

async function listFiles(directory: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(path.join(directory, prefix), { withFileTypes: true });
  const lists = await Promise.all(
    entries.map(async (entry) => {
      if (entry.name.startsWith('.')) return [];
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return listFiles(directory, relative);
      return entry.isFile() ? [relative] : [];
    }),
  );
  return lists.flat();
}

function versionOf(stats: { ino: number; mtimeMs: number; size: number }): string {
  return `${stats.ino}:${stats.mtimeMs}:${stats.size}`;
}

function staticFile(directory: string, relative: string, sizes: Map<string, number>): StaticFile {
  const identitySize = sizes.get(relative) ?? 0;
  const codings = new Set<ContentCoding>(['identity']);
  for (const coding of ['br', 'gzip'] as const) {
    const size = sizes.get(relative + SUFFIX[coding]);
    if (size !== undefined && size < identitySize) codings.add(coding);
  }
  const loaded = new Map<ContentCoding, Promise<FileVariant>>();
  const load = async (coding: ContentCoding): Promise<FileVariant> => {
    const body = await readFile(path.join(directory, coding === 'identity' ? relative : relative + SUFFIX[coding]));
    const digest = createHash('sha256').update(body).digest('base64url').slice(0, 27);
    return { body, etag: `"${digest}${coding === 'identity' ? '' : `-${coding}`}"` };
  };
  return {
    contentType: contentTypeOf(relative),
    immutable: relative.startsWith(`${ASSETS_DIR}/`),
    codings,
    read(coding) {
      let variant = loaded.get(coding);
      if (!variant) {
        variant = load(coding);
        variant.catch(() => loaded.delete(coding));
        loaded.set(coding, variant);
      }
      return variant;
    },
  };
}

export class ConsoleBundle {
  private snapshot: Promise<Snapshot | undefined> | undefined;

  constructor(readonly directory: string) {}

  /** The page with `nonce` in place of the placeholder; undefined when the console is not built. */
  async page(nonce: string): Promise<string | undefined> {
    const snapshot = await this.current();
    return snapshot?.pageParts.join(nonce);
  }

  /** A file of the build by its path under the folder (`assets/index-1a2b.js`), if it exists. */
  async file(relative: string): Promise<StaticFile | undefined> {
    const snapshot = await this.current();
    return snapshot?.files.get(relative);
  }

  /** The last snapshot, after checking (one stat of index.html) that no build replaced it. */
  private async current(): Promise<Snapshot | undefined> {
    const indexPath = path.join(this.directory, 'index.html');
    const stats = await stat(indexPath).catch(() => undefined);
    if (!stats) {
      this.snapshot = undefined;
      return undefined;
    }
    const known = await this.snapshot;
    if (known?.version === versionOf(stats)) return known;
    this.snapshot = this.load(indexPath).catch(() => undefined);
    return this.snapshot;
  }

  private async load(indexPath: string): Promise<Snapshot> {
    const stats = await stat(indexPath);
    const page = await readFile(indexPath, 'utf8');
    const names = await listFiles(this.directory);
    const sizes = new Map(await Promise.all(names.map(async (name) => [name, (await stat(path.join(this.directory, name))).size] as const)));
    const files = new Map<string, StaticFile>();
    for (const name of names) {
      if (name === 'index.html' || name.endsWith('.br') || name.endsWith('.gz')) continue;
      files.set(name, staticFile(this.directory, name, sizes));
    }
    return { version: versionOf(stats), pageParts: page.split(NONCE_PLACEHOLDER), files };
  }
}
