// Completion for APL: datasets, tabular operators, aggregations, scalar functions and
// operators from the server's vocabulary, and the fields (with their types) of the datasets the
// query reads, plus the names the query itself defines. What fits is decided by context.ts.
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete';
import type { EditorView } from '@codemirror/view';
import { cursorContext } from './context';
import { editorOptions } from './options';
import { datasetFields, datasetNames, type FieldInfo } from './schema';
import { scanTokens } from './tokens';
import { type AplVocabulary, loadVocabulary, type VocabularyFunction } from './vocabulary';

/** Keeps the list open while a name (dotted or hyphenated) is being typed. */
const VALID_FOR = /^[\w$.-]*$/;

const IDENTIFIER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

const quoted = (name: string) => `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
/** A name as APL reads it: bare when it can be, else `['name']`. */
const reference = (name: string) => (IDENTIFIER_PATH.test(name) ? name : `[${quoted(name)}]`);

const shorten = (text: string, length = 56) => (text.length > length ? `${text.slice(0, length - 1).trimEnd()}…` : text);

/** Inserts `text` over from..to and puts the cursor `back` characters before its end. */
function insert(text: string, back = 0) {
  return (view: EditorView, _completion: Completion, from: number, to: number) => {
    view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length - back }, userEvent: 'input.complete' });
  };
}

function functionOptions(functions: VocabularyFunction[], detail: (entry: VocabularyFunction) => string, boost = 0): Completion[] {
  return functions.map((entry) => ({
    label: entry.name,
    type: 'function',
    detail: detail(entry),
    ...(entry.aliases.length ? { info: `Also: ${entry.aliases.join(', ')}` } : {}),
    apply: insert(`${entry.name}()`, 1),
    boost,
  }));
}

function tabularOptions(vocabulary: AplVocabulary): Completion[] {
  return vocabulary.operators
    .filter((entry) => entry.category === 'tabular')
    .flatMap((entry) =>
      [entry.name, ...entry.aliases].map((name) => ({
        label: name,
        type: 'keyword',
        detail: shorten(name === entry.name ? entry.summary : `alias of ${entry.name}`),
        info: `${entry.syntax}\n\n${entry.summary}`,
        apply: `${name} `,
      })),
    );
}

function sourceOptions(vocabulary: AplVocabulary): Completion[] {
  return vocabulary.operators
    .filter((entry) => entry.category !== 'tabular' && entry.name !== 'dataset')
    .map((entry) => ({ label: entry.name, type: 'keyword', detail: shorten(entry.summary), info: entry.syntax, apply: `${entry.name} `, boost: -1 }));
}

function scalarOperatorOptions(vocabulary: AplVocabulary): Completion[] {
  return vocabulary.scalarOperators.flatMap((group) =>
    group.operators.filter((op) => /^!?[a-z]/.test(op)).map((op) => ({ label: op, type: 'operator', detail: `${group.group} operator`, apply: `${op} ` })),
  );
}

const CLAUSE_WORDS: Record<string, string[]> = {
  sort: ['asc', 'desc', 'nulls first', 'nulls last'],
  order: ['asc', 'desc', 'nulls first', 'nulls last'],
  top: ['by', 'asc', 'desc'],
  summarize: ['by'],
  'make-series': ['on', 'step', 'by', 'from', 'to', 'default'],
  join: ['on'],
  lookup: ['on'],
  parse: ['with'],
  'parse-where': ['with'],
  'top-nested': ['of', 'by', 'with others'],
  'top-hitters': ['of', 'by'],
  'sample-distinct': ['of'],
};

/** Datasets the text names: quoted in brackets or bare, among those that exist. */
function datasetsRead(text: string, known: string[]): string[] {
  const candidates = new Set(scanTokens(text).filter((token) => token.kind === 'string' || token.kind === 'identifier').map((token) => token.text));
  return known.filter((name) => candidates.has(name));
}

/** Names the query defines: `let` names and `Name =` in extend, project, summarize... */
function definedNames(text: string): string[] {
  const tokens = scanTokens(text).filter((token) => token.kind !== 'comment');
  const names = new Set<string>();
  tokens.forEach((token, index) => {
    const next = tokens[index + 1];
    const before = tokens[index - 1];
    if (token.kind !== 'identifier' || next?.kind !== 'operator' || next.text !== '=') return;
    if (before?.kind === 'operator' && before.text === '.') return;
    names.add(token.text);
  });
  return [...names];
}

async function fieldOptions(text: string, extraDatasets: readonly string[]): Promise<Completion[]> {
  let known: string[] = [];
  try {
    known = await datasetNames();
  } catch {
    // Without the dataset list, only the page's datasets.
  }
  const datasets = [...new Set([...datasetsRead(text, known), ...extraDatasets])];
  const lists = await Promise.all(datasets.map((dataset) => datasetFields(dataset).catch((): FieldInfo[] => [])));
  // Every event has a time, whether or not the field list names it.
  const types = new Map<string, Set<string>>(datasets.length ? [['_time', new Set(['datetime'])]] : []);
  const descriptions = new Map<string, string>();
  lists.flat().forEach((field) => {
    types.set(field.name, (types.get(field.name) ?? new Set()).add(field.type));
    if (field.description) descriptions.set(field.name, field.description);
  });
  const fields: Completion[] = [...types].map(([name, fieldTypes]) => ({
    label: name,
    type: 'property',
    detail: [...fieldTypes].join(' | '),
    ...(descriptions.has(name) ? { info: descriptions.get(name) } : {}),
    apply: reference(name),
    boost: 2,
  }));
  const defined = definedNames(text)
    .filter((name) => !types.has(name))
    .map((name) => ({ label: name, type: 'variable', detail: 'defined in the query', boost: 2 }));
  return [...fields, ...defined];
}

async function datasetOptions(bracketQuote: string | undefined): Promise<Completion[]> {
  const names = await datasetNames().catch((): string[] => []);
  return names.map((name) => ({
    label: name,
    type: 'class',
    detail: 'dataset',
    apply: (view: EditorView, completion: Completion, from: number, to: number) => {
      if (bracketQuote === undefined) return insert(reference(name))(view, completion, from, to);
      // Inside `[` or `['`: complete the reference, over the rest of a name, quote and bracket already there.
      const quote = bracketQuote || "'";
      const closing = new RegExp(`^[\\w.-]*${quote}?\\s*\\]?`).exec(view.state.sliceDoc(to, to + 200))?.[0] ?? '';
      const body = name.replace(/\\/g, '\\\\').replaceAll(quote, `\\${quote}`);
      const text = `${bracketQuote ? '' : quote}${body}${quote}]`;
      view.dispatch({ changes: { from, to: to + closing.length, insert: text }, selection: { anchor: from + text.length }, userEvent: 'input.complete' });
    },
  }));
}

export const aplCompletionSource: CompletionSource = async (context: CompletionContext): Promise<CompletionResult | null> => {
  const { state, pos } = context;
  const options = state.facet(editorOptions);
  const text = state.doc.toString();
  const where = cursorContext(text, pos, options.mode);
  if (where.kind === 'none') return null;
  // Only open by itself once something is typed, or right after `|`, `[` or `['`.
  const typedSomething = where.from < pos;
  if (!context.explicit && !typedSomething && where.kind !== 'tabular' && where.kind !== 'dataset-bracket') return null;

  const vocabulary = await loadVocabulary().catch(() => undefined);
  if (context.aborted) return null;
  let list: Completion[] = [];
  switch (where.kind) {
    case 'dataset-bracket':
      list = await datasetOptions(where.quote);
      break;
    case 'source':
      list = [...(await datasetOptions(undefined)), ...(vocabulary ? sourceOptions(vocabulary) : [])];
      break;
    case 'table':
      list = await datasetOptions(undefined);
      break;
    case 'tabular':
      list = vocabulary ? tabularOptions(vocabulary) : [];
      break;
    case 'aggregation':
      list = [...(vocabulary ? functionOptions(vocabulary.aggregations, () => 'aggregation') : []), ...definedNames(text).map((name) => ({ label: name, type: 'variable', detail: 'defined in the query' }))];
      break;
    case 'after-operand': {
      if (options.mode === 'query' && where.operator === undefined) return null;
      const clauses = where.operator ? (CLAUSE_WORDS[where.operator] ?? []) : [];
      list = [...clauses.map((clause) => ({ label: clause, type: 'keyword', apply: `${clause} `, boost: 1 })), ...(vocabulary ? scalarOperatorOptions(vocabulary) : [])];
      break;
    }
    case 'expression':
      list = [...(await fieldOptions(text, options.datasets)), ...(vocabulary ? functionOptions(vocabulary.scalarFunctions, (entry) => (entry.family ? `${entry.family} function` : 'function')) : [])];
      break;
  }
  if (context.aborted || list.length === 0) return null;
  return { from: where.from, options: list, validFor: VALID_FOR };
};
