// APL's vocabulary as agents look it up: every operator, scalar operator, scalar function and
// aggregation of the engine's own tables (those docs/reference/apl.md is generated from), each
// with a signature and a line of description, searchable by words. The tables hold no parameter
// lists, so a function's signature shows the number of arguments its type rule accepts, learned
// by calling the rule with a probe that stops at the rule's arity check.
import { AGGREGATE_FUNCTIONS, type AggregateRule } from '../apl/semantic/aggregates';
import { CallSite } from '../apl/semantic/call-site';
import type { ScalarRule } from '../apl/semantic/functions/rule';
import { START } from '../apl/syntax/position';
import { SCALAR_FUNCTION_FAMILIES } from '../apl/semantic/functions';
import { OPERATOR_CATALOG } from '../apl/syntax/operators';
import { SCALAR_OPERATOR_GROUPS } from '../apl/syntax/parser';

export interface ReferenceEntry {
  name: string;
  kind: 'statement' | 'source' | 'tabular operator' | 'scalar operator' | 'scalar function' | 'aggregation';
  signature: string;
  description: string;
  aliases: string[];
}

/** Names of a function table grouped by rule: the first name, the others as aliases. */
function functionNames(table: Record<string, unknown>): { name: string; aliases: string[] }[] {
  const byRule = new Map<unknown, string[]>();
  for (const name of Object.keys(table).sort()) byRule.set(table[name], [...(byRule.get(table[name]) ?? []), name]);
  return [...byRule.values()].map(([name, ...aliases]) => ({ name: name!, aliases }));
}

/** Thrown by the probe's arity check, carrying what the rule accepts. */
class ArityFound {
  constructor(
    readonly min: number,
    readonly max: number,
  ) {}
}

/** A call site with no arguments whose arity check reports instead of checking. */
function probeSite(): CallSite {
  const site = new CallSite('probe', START, [], [], { nowNanos: 0n, autoBinSpan: 1n });
  site.arity = (min: number, max = min) => {
    throw new ArityFound(min, max);
  };
  return site;
}

/** `name(a, b[, c])` from the arity the rule checks, or `name(...)` when it checks none first. */
function signatureOf(name: string, call: (site: CallSite) => unknown): string {
  let found: ArityFound | undefined;
  try {
    call(probeSite());
  } catch (error) {
    if (error instanceof ArityFound) found = error;
  }
  if (!found) return `${name}(...)`;
  const letter = (index: number) => String.fromCharCode(97 + (index % 26));
  const required = Array.from({ length: found.min }, (_, i) => letter(i));
  // Many optional arguments (or no bound) read better as an ellipsis than as nested brackets.
  if (found.max - found.min > 3) return `${name}(${[...required, '...'].join(', ')})`;
  const optional = Array.from({ length: found.max - found.min }, (_, i) => letter(found.min + i));
  const tail = optional.map((arg, i) => `[${required.length || i ? ', ' : ''}${arg}`).join('') + ']'.repeat(optional.length);
  return `${name}(${required.join(', ')}${tail})`;
}

function buildEntries(): ReferenceEntry[] {
  const entries: ReferenceEntry[] = OPERATOR_CATALOG.map((entry) => ({
    name: entry.name,
    kind: entry.category === 'tabular' ? 'tabular operator' : entry.category,
    signature: entry.syntax,
    description: entry.summary,
    aliases: entry.aliases ?? [],
  }));
  for (const group of SCALAR_OPERATOR_GROUPS) {
    for (const operator of group.operators) {
      entries.push({ name: operator, kind: 'scalar operator', signature: `a ${operator} b`, description: `A ${group.group} operator.`, aliases: [] });
    }
  }
  for (const [family, table] of Object.entries(SCALAR_FUNCTION_FAMILIES)) {
    for (const { name, aliases } of functionNames(table)) {
      const rule = table[name] as ScalarRule;
      entries.push({ name, kind: 'scalar function', signature: signatureOf(name, rule), description: `A ${family} function.`, aliases });
    }
  }
  for (const { name, aliases } of functionNames(AGGREGATE_FUNCTIONS)) {
    const rule = AGGREGATE_FUNCTIONS[name] as AggregateRule;
    entries.push({
      name,
      kind: 'aggregation',
      signature: signatureOf(name, (site) => rule({ site } as Parameters<AggregateRule>[0])),
      description: 'An aggregation: use it in summarize, make-series or top-nested.',
      aliases,
    });
  }
  return entries;
}

let entries: ReferenceEntry[] | undefined;

/** Entries holding every word of `search`, exact names first, then names that start with it. */
export function searchReference(search: string): ReferenceEntry[] {
  entries ??= buildEntries();
  const wanted = search.toLowerCase().trim();
  const words = wanted.split(/\s+/).filter(Boolean);
  const rank = (entry: ReferenceEntry) => {
    const names = [entry.name, ...entry.aliases].map((name) => name.toLowerCase());
    if (names.includes(wanted)) return 0;
    if (names.some((name) => name.startsWith(wanted))) return 1;
    if (names.some((name) => name.includes(wanted))) return 2;
    return 3;
  };
  return entries
    .filter((entry) => {
      const text = [entry.name, ...entry.aliases, entry.kind, entry.description, entry.signature].join(' ').toLowerCase();
      return words.every((word) => text.includes(word));
    })
    .map((entry) => ({ entry, rank: rank(entry) }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ entry }) => entry);
}
