// The words of APL as the engine knows them, for editors that complete and explain queries:
// statements, sources and tabular operators from the operator catalog, the scalar operators the
// parser reads, and the scalar function and aggregation tables (the same tables docs/reference/apl.md is
// generated from). Public, computed once: it only describes the language.
import { AGGREGATE_FUNCTIONS } from '../../apl/semantic/aggregates';
import { SCALAR_FUNCTION_FAMILIES } from '../../apl/semantic/functions';
import { OPERATOR_CATALOG, type OperatorCategory } from '../../apl/syntax/operators';
import { SCALAR_OPERATOR_GROUPS } from '../../apl/syntax/parser';
import { builder } from './builder';

interface VocabularyOperator {
  name: string;
  category: OperatorCategory;
  aliases: string[];
  syntax: string;
  summary: string;
}

interface VocabularyFunction {
  name: string;
  aliases: string[];
  family: string | null;
}

interface Vocabulary {
  operators: VocabularyOperator[];
  scalarOperators: { group: string; operators: string[] }[];
  scalarFunctions: VocabularyFunction[];
  aggregations: VocabularyFunction[];
}

/** One entry per rule of a function table, named by its first name, the other names as aliases. */
function functionsOf(table: Record<string, unknown>, family: string | null): VocabularyFunction[] {
  const namesByRule = new Map<unknown, string[]>();
  for (const [name, rule] of Object.entries(table)) namesByRule.set(rule, [...(namesByRule.get(rule) ?? []), name]);
  return Object.keys(table)
    .sort()
    .map((name) => ({ name, aliases: namesByRule.get(table[name])!.filter((other) => other !== name).sort(), family }));
}

function buildVocabulary(): Vocabulary {
  return {
    operators: OPERATOR_CATALOG.map((entry) => ({
      name: entry.name,
      category: entry.category,
      aliases: entry.aliases ?? [],
      syntax: entry.syntax,
      summary: entry.summary,
    })),
    scalarOperators: SCALAR_OPERATOR_GROUPS.map((group) => ({ group: group.group, operators: [...group.operators] })),
    scalarFunctions: Object.entries(SCALAR_FUNCTION_FAMILIES)
      .flatMap(([family, table]) => functionsOf(table, family))
      .sort((a, b) => a.name.localeCompare(b.name)),
    aggregations: functionsOf(AGGREGATE_FUNCTIONS, null),
  };
}

let vocabulary: Vocabulary | undefined;
const theVocabulary = (): Vocabulary => (vocabulary ??= buildVocabulary());

const OperatorCategoryRef = builder.enumType('AplOperatorCategory', {
  description: 'Where an APL operator stands in a query',
  values: {
    statement: { description: 'A statement before the query (let, set)' },
    source: { description: 'What a query starts with (a dataset, union, print, ...)' },
    tabular: { description: 'An operator after a pipe (|)' },
  } as const,
});

const AplOperatorRef = builder.objectRef<VocabularyOperator>('AplOperator').implement({
  description: 'A statement, query source or tabular operator of APL',
  fields: (t) => ({
    name: t.exposeString('name'),
    category: t.field({ type: OperatorCategoryRef, resolve: (entry) => entry.category }),
    aliases: t.exposeStringList('aliases', { description: 'Other spellings of the same operator' }),
    syntax: t.exposeString('syntax', { description: 'The grammar, in the APL reference notation' }),
    summary: t.exposeString('summary'),
  }),
});

const AplScalarOperatorGroupRef = builder.objectRef<Vocabulary['scalarOperators'][number]>('AplScalarOperatorGroup').implement({
  description: 'Scalar operators of one kind (logical, comparison, string, ...)',
  fields: (t) => ({
    group: t.exposeString('group'),
    operators: t.exposeStringList('operators'),
  }),
});

const AplFunctionRef = builder.objectRef<VocabularyFunction>('AplFunction').implement({
  description: 'A scalar function or an aggregation of APL',
  fields: (t) => ({
    name: t.exposeString('name'),
    aliases: t.exposeStringList('aliases', { description: 'Other names of the same function' }),
    family: t.exposeString('family', { nullable: true, description: 'The family of a scalar function (string, datetime, ...)' }),
  }),
});

const AplVocabularyRef = builder.objectRef<Vocabulary>('AplVocabulary').implement({
  description: 'What the APL engine accepts, as listed in its reference',
  fields: (t) => ({
    operators: t.field({ type: [AplOperatorRef], resolve: (v) => v.operators }),
    scalarOperators: t.field({ type: [AplScalarOperatorGroupRef], resolve: (v) => v.scalarOperators }),
    scalarFunctions: t.field({ type: [AplFunctionRef], resolve: (v) => v.scalarFunctions }),
    aggregations: t.field({ type: [AplFunctionRef], description: 'Used in summarize, make-series and top-nested', resolve: (v) => v.aggregations }),
  }),
});

builder.queryFields((t) => ({
  aplVocabulary: t.field({
    type: AplVocabularyRef,
    description: "APL's operators, scalar operators, scalar functions and aggregations (public)",
    resolve: () => theVocabulary(),
  }),
}));
