// The reference list of what the engine supports (docs/reference/apl.md), rendered from the
// engine's own tables: the operator catalog, the scalar operators the parser reads, and the
// scalar function and aggregation tables. Whatever is added to those tables appears here;
// `npm run docs:apl` rewrites the file and a test fails while it is stale.
import { AGGREGATE_FUNCTIONS } from './semantic/aggregates';
import * as scalarFunctions from './semantic/functions';
import { SCALAR_FUNCTIONS } from './semantic/functions';
import { OPERATOR_CATALOG, type OperatorCategory } from './syntax/operators';
import { SCALAR_OPERATOR_GROUPS } from './syntax/parser';

const code = (text: string) => `\`${text.replace(/`/g, '\\`')}\``;
const cell = (text: string) => text.replace(/\|/g, '\\|');

/** Names of a function table, each with the other names bound to the very same rule. */
function namesWithAliases(table: Record<string, unknown>): { name: string; aliases: string[] }[] {
  const byRule = new Map<unknown, string[]>();
  for (const [name, rule] of Object.entries(table)) byRule.set(rule, [...(byRule.get(rule) ?? []), name]);
  return Object.keys(table)
    .sort()
    .map((name) => ({ name, aliases: byRule.get(table[name])!.filter((other) => other !== name).sort() }));
}

/**
 * The scalar functions by family when the function table files them so (a
 * `SCALAR_FUNCTION_FAMILIES` export: family name → table), else in one list.
 */
function scalarFunctionList(): string[] {
  const families = (scalarFunctions as Record<string, unknown>).SCALAR_FUNCTION_FAMILIES as Record<string, Record<string, unknown>> | undefined;
  if (!families) return nameList(SCALAR_FUNCTIONS);
  return Object.entries(families).flatMap(([family, table]) => [`### ${family[0]!.toUpperCase()}${family.slice(1)} (${Object.keys(table).length})`, '', ...nameList(table)]);
}

/** A compact list, one paragraph per initial letter. */
function nameList(table: Record<string, unknown>): string[] {
  const lines: string[] = [];
  const entries = namesWithAliases(table);
  const letters = [...new Set(entries.map((entry) => entry.name[0]!.toLowerCase()))];
  for (const letter of letters) {
    const items = entries
      .filter((entry) => entry.name[0]!.toLowerCase() === letter)
      .map((entry) => (entry.aliases.length ? `${code(entry.name)} (also ${entry.aliases.map(code).join(', ')})` : code(entry.name)));
    lines.push(`**${letter}**: ${items.join(', ')}`, '');
  }
  return lines;
}

function operatorTable(category: OperatorCategory): string[] {
  const lines = ['| name | syntax | what it does |', '| --- | --- | --- |'];
  for (const entry of OPERATOR_CATALOG.filter((e) => e.category === category)) {
    const name = [entry.name, ...(entry.aliases ?? [])].map(code).join(', ');
    lines.push(`| ${name} | ${code(cell(entry.syntax))} | ${cell(entry.summary)} |`);
  }
  return lines;
}

export function renderAplReference(): string {
  const scalarCount = Object.keys(SCALAR_FUNCTIONS).length;
  const aggregateCount = Object.keys(AGGREGATE_FUNCTIONS).length;
  const lines = [
    '# APL reference',
    '',
    'What this server\'s APL engine accepts, generated from the engine\'s own tables by `npm run docs:apl`',
    '(do not edit by hand: a test fails while this file is stale). The [Queries guide](../guides/queries.md)',
    'describes the endpoints; Axiom\'s APL documentation describes each operator and function.',
    '',
    '## Statements',
    '',
    ...operatorTable('statement'),
    '',
    '## Query sources',
    '',
    'A query starts with one of these, then pipes (`|`) it through tabular operators.',
    '',
    ...operatorTable('source'),
    '',
    '## Tabular operators',
    '',
    ...operatorTable('tabular'),
    '',
    '## Scalar operators',
    '',
    '| kind | operators |',
    '| --- | --- |',
    ...SCALAR_OPERATOR_GROUPS.map((group) => `| ${group.group} | ${group.operators.map((op) => code(cell(op))).join(', ')} |`),
    '',
    `## Scalar functions (${scalarCount})`,
    '',
    ...scalarFunctionList(),
    `## Aggregations (${aggregateCount})`,
    '',
    'Used in `summarize`, `make-series` and `top-nested`.',
    '',
    ...nameList(AGGREGATE_FUNCTIONS),
  ];
  return lines.join('\n').replace(/\n+$/, '\n');
}
