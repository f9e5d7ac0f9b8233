// The docs stay connected: every relative link and image in README.md, CONTRIBUTING.md and
// docs/**.md points at a file that exists (and at a heading of it when it names one), and every
// repository path the docs name in code spans (`src/...`, `test/...`) exists.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownFiles, REPO_ROOT } from '../../helpers/docs/snippets';

/** The text outside fenced code blocks, with inline code spans blanked, line by line. */
function prose(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (line.startsWith('```')) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, '``');
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(readFileSync(file, 'utf8'))) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const slug = headingSlug(heading[1]!);
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

const files = markdownFiles();

describe('links in the docs', () => {
  it('finds the README and the docs tree', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/reference/configuration.md');
    expect(files.filter((file) => file.startsWith('docs/guides/')).length).toBeGreaterThan(8);
  });

  it('point at files and headings that exist', () => {
    const broken: string[] = [];
    for (const file of files) {
      const lines = prose(readFileSync(path.join(REPO_ROOT, file), 'utf8'));
      lines.forEach((line, index) => {
        for (const match of line.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
          const target = match[1]!;
          if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
          const [linkPath, anchor] = target.split('#') as [string, string | undefined];
          const resolved = linkPath ? path.resolve(path.dirname(path.join(REPO_ROOT, file)), decodeURIComponent(linkPath)) : path.join(REPO_ROOT, file);
          const where = `${file}:${index + 1} → ${target}`;
          if (!existsSync(resolved)) broken.push(`${where} (no such file)`);
          else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${where} (no such heading)`);
        }
      });
    }
    expect(broken).toEqual([]);
  });

  it('name repository paths that exist', () => {
    const missing: string[] = [];
    for (const file of files) {
      readFileSync(path.join(REPO_ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const match of line.matchAll(/`((?:src|test|scripts|bench|deploy|console|prisma|docs)\/[^`\s<>*{}$]+)`/g)) {
            const named = match[1]!.replace(/[.,:;]$/, '');
            if (!existsSync(path.join(REPO_ROOT, named))) missing.push(`${file}:${index + 1} names ${named}`);
          }
        });
    }
    expect(missing).toEqual([]);
  });
});

describe('headingSlug', () => {
  it('makes the anchors GitHub makes', () => {
    expect(headingSlug('OpenTelemetry (OTLP/HTTP)')).toBe('opentelemetry-otlphttp');
    expect(headingSlug('Events in ClickHouse')).toBe('events-in-clickhouse');
    expect(headingSlug('Sign-in, organizations and the console')).toBe('sign-in-organizations-and-the-console');
  });
});
