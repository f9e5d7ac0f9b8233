// Finds the runnable snippets of the Markdown docs: a fenced ```sh, ```graphql or ```kusto (APL)
// block whose previous non-blank line is the marker `<!-- test -->` (an HTML comment, invisible
// once rendered). The snippets test runs them against a test server.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface Snippet {
  /** The file, relative to the repository root. */
  file: string;
  /** Line of the opening fence (1-based). */
  line: number;
  language: 'sh' | 'graphql' | 'kusto';
  code: string;
}

export const RUNNABLE_MARKER = '<!-- test -->';

/** Every Markdown file of the docs: README.md, CONTRIBUTING.md and docs/**, relative to the root. */
export function markdownFiles(): string[] {
  const found = ['README.md', 'CONTRIBUTING.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.md')) found.push(relative);
    }
  };
  walk('docs');
  return found;
}

export function runnableSnippets(file: string, markdown = readFileSync(path.join(REPO_ROOT, file), 'utf8')): Snippet[] {
  const lines = markdown.split('\n');
  const snippets: Snippet[] = [];
  let marked = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const fence = /^```(\w*)\s*$/.exec(line);
    if (fence) {
      const start = index;
      const body: string[] = [];
      while (++index < lines.length && !lines[index]!.startsWith('```')) body.push(lines[index]!);
      if (marked) {
        if (fence[1] !== 'sh' && fence[1] !== 'graphql' && fence[1] !== 'kusto') {
          throw new Error(`${file}:${start + 1}: only sh, graphql and kusto blocks can be marked runnable`);
        }
        snippets.push({ file, line: start + 1, language: fence[1], code: body.join('\n') });
      }
      marked = false;
    } else if (line.trim() === RUNNABLE_MARKER) marked = true;
    else if (line.trim() !== '') marked = false;
  }
  return snippets;
}

/** The APL queries of a kusto block: `//` comments dropped, a line starting with `|` continuing the query before it. */
export function aplQueries(code: string): string[] {
  const queries: string[] = [];
  for (const line of code.split('\n')) {
    const text = line.trim();
    if (text === '' || text.startsWith('//')) continue;
    if (text.startsWith('|') && queries.length > 0) queries[queries.length - 1] += ` ${text}`;
    else queries.push(text);
  }
  return queries;
}
