// The public aplVocabulary query lists what the APL reference (docs/reference/apl.md) lists: the
// operators of each table with their syntax, every scalar operator, every scalar function with its family and
// every aggregation, aliases included. The expectations are read from the reference's text here.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

const reference = readFileSync(new URL('../../../docs/reference/apl.md', import.meta.url), 'utf8');

/** The lines of a `## title` section, up to the next `## ` heading. */
function section(title: string): string[] {
  const lines = reference.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`## ${title}`));
  expect(start, `the APL reference has a "${title}" section`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** Backticked words of a markdown fragment, with the table's escaped pipes restored. */
const codeSpans = (text: string) => [...text.matchAll(/`((?:[^`\\]|\\.)+)`/g)].map((match) => match[1]!.replace(/\\\|/g, '|'));

/** Names in the first column of a section's table, with the syntax of the row. */
function operatorRows(title: string): { names: string[]; syntax: string }[] {
  return section(title)
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
      return { names: codeSpans(cells[1]!), syntax: codeSpans(cells[2]!)[0]! };
    });
}

/** The names of a `**a**: ...` list, each name once, without the "(also ...)" repetitions. */
function listedNames(lines: string[]): string[] {
  return lines.filter((line) => /^\*\*.\*\*:/.test(line)).flatMap((line) => codeSpans(line.replace(/\(also [^)]*\)/g, '')));
}

interface VocabularyFunction {
  name: string;
  aliases: string[];
  family: string | null;
}

interface Vocabulary {
  operators: { name: string; category: string; aliases: string[]; syntax: string; summary: string }[];
  scalarOperators: { group: string; operators: string[] }[];
  scalarFunctions: VocabularyFunction[];
  aggregations: VocabularyFunction[];
}

const QUERY = `{ aplVocabulary {
  operators { name category aliases syntax summary }
  scalarOperators { group operators }
  scalarFunctions { name aliases family }
  aggregations { name aliases family }
} }`;

let server: TestServer;
let vocabulary: Vocabulary;
beforeAll(async () => {
  server = await startTestServer();
  const answer = await server.graphql<{ aplVocabulary: Vocabulary }>(QUERY, {}, false);
  expect(answer.errors).toBeUndefined();
  vocabulary = answer.data!.aplVocabulary;
});
afterAll(() => server?.close());

describe('aplVocabulary', () => {
  it('answers without a token', () => {
    expect(vocabulary.operators.length).toBeGreaterThan(0);
  });

  it.each([
    ['Statements', 'statement'],
    ['Query sources', 'source'],
    ['Tabular operators', 'tabular'],
  ])('lists the operators of "%s" with their aliases and syntax', (title, category) => {
    const rows = operatorRows(title);
    expect(rows.length).toBeGreaterThan(1);
    const served = vocabulary.operators.filter((entry) => entry.category === category);
    expect(served.map((entry) => [entry.name, ...entry.aliases])).toEqual(rows.map((row) => row.names));
    expect(served.map((entry) => entry.syntax)).toEqual(rows.map((row) => row.syntax));
    for (const entry of served) expect(entry.summary.length).toBeGreaterThan(0);
  });

  it('includes well-known tabular operators and the aliases of sort and take', () => {
    const tabular = vocabulary.operators.filter((entry) => entry.category === 'tabular');
    const byName = new Map(tabular.map((entry) => [entry.name, entry]));
    for (const name of ['where', 'summarize', 'project-away', 'mv-expand', 'join', 'lookup', 'top-nested']) expect(byName.has(name), name).toBe(true);
    expect(byName.get('sort')!.aliases).toEqual(['order']);
    expect(byName.get('take')!.aliases).toEqual(['limit']);
    expect(byName.get('where')!.aliases).toEqual(['filter']);
  });

  it('lists every scalar operator of the reference, by group', () => {
    const rows = section('Scalar operators')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| kind') && !line.startsWith('| ---'))
      .map((line) => {
        const [, group, operators] = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
        return { group: group!, operators: codeSpans(operators!) };
      });
    expect(rows.map((row) => row.group)).toEqual(['logical', 'arithmetic', 'comparison', 'string', 'set membership']);
    expect(vocabulary.scalarOperators).toEqual(rows);
    const all = vocabulary.scalarOperators.flatMap((group) => group.operators);
    for (const op of ['contains', '!has', '=~', 'in', 'in~', 'between', 'matches regex']) expect(all, op).toContain(op);
  });

  it('lists every scalar function of the reference with its family', () => {
    const lines = section('Scalar functions');
    const total = Number(/\((\d+)\)/.exec(reference.split('\n').find((line) => line.startsWith('## Scalar functions'))!)![1]);
    const names = listedNames(lines);
    expect(names).toHaveLength(total);
    expect(vocabulary.scalarFunctions.map((entry) => entry.name).sort()).toEqual([...names].sort());

    // Families: each `### Family (n)` heading and the names under it.
    let family = '';
    const expectedFamily = new Map<string, string>();
    for (const line of lines) {
      const heading = /^### (.+) \(\d+\)$/.exec(line);
      if (heading) family = heading[1]!.toLowerCase();
      else for (const name of listedNames([line])) expectedFamily.set(name, family);
    }
    for (const entry of vocabulary.scalarFunctions) expect(entry.family?.toLowerCase(), entry.name).toBe(expectedFamily.get(entry.name));
    const byName = new Map(vocabulary.scalarFunctions.map((entry) => [entry.name, entry]));
    expect(byName.get('strlen')?.family).toBe('string');
    expect(byName.get('bin')?.family).toBe('rounding');
  });

  it('lists every aggregation of the reference, each with the other names of the same rule', () => {
    const lines = section('Aggregations');
    const total = Number(/\((\d+)\)/.exec(reference.split('\n').find((line) => line.startsWith('## Aggregations'))!)![1]);
    const names = listedNames(lines);
    expect(names).toHaveLength(total);
    expect(vocabulary.aggregations.map((entry) => entry.name).sort()).toEqual([...names].sort());
    const byName = new Map(vocabulary.aggregations.map((entry) => [entry.name, entry]));
    for (const name of ['count', 'dcount', 'avg', 'percentile', 'make_list']) expect(byName.has(name), name).toBe(true);
    // "`arg_max` (also `argmax`)" in the reference.
    const argMax = lines.find((line) => line.includes('`arg_max` (also '))!;
    const expectedAliases = codeSpans(/`arg_max` \(also ([^)]*)\)/.exec(argMax)![1]!);
    expect(byName.get('arg_max')!.aliases).toEqual(expectedAliases);
    expect(byName.get('count')!.family).toBeNull();
  });
});
