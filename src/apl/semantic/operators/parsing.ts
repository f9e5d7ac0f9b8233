// parse-where (parse that drops the rows its pattern does not match, typed values included) and
// parse-kv (the values of named keys in key/value text: given delimiters with optional quotes,
// escapes and greedy values, any non-alphanumeric delimiter, or a regex of key and value).
import type { Operator } from '../../syntax/ast';
import { semanticError } from '../../syntax/position';
import type { Analyzer, Stage } from '../analyzer';
import { parsePattern } from '../parse-pattern';
import { columnRef } from '../binder';
import type { RelColumn, TExpr } from '../plan';
import { call, convert, literal } from '../typed';
import { typeFromName } from './common';

export function parseWhere(analyzer: Analyzer, stage: Stage, op: Extract<Operator, { kind: 'parse-where' }>): Stage {
  const source = convert(analyzer.binder.bind(op.source, analyzer.scope(stage.rel.columns)), 'string', op.source.pos, 'the parsed expression');
  const { regex, columns } = parsePattern(op.parts, op.mode);
  const conditions: TExpr[] = [call('regex_match', [source, literal({ type: 'string', value: regex })], 'bool', { negated: false })];
  // A typed value that does not convert fails the match as well.
  columns.forEach((part, i) => {
    const type = part.type ? typeFromName(part.type, part.pos) : 'string';
    if (type === 'string') return;
    const group = call('parse_group', [source], 'string', { regex, group: i + 1 });
    conditions.push(call('isnotnull', [call('convert', [group], type)], 'bool'));
  });
  const predicate = conditions.reduce((a, b) => call('and', [a, b], 'bool'));
  const filtered: Stage = { ...stage, rel: { op: 'filter', columns: stage.rel.columns, input: stage.rel, predicate } };
  return analyzer.parse(filtered, { ...op, kind: 'parse' });
}

/** Adds the extracted fields, replacing fields of the same name in place. */
function withFields(analyzer: Analyzer, stage: Stage, fields: { name: string; value: TExpr }[]): Stage {
  const outputs: { column: RelColumn; expr: TExpr }[] = analyzer.visible(stage).map((column) => ({ column, expr: columnRef(column) }));
  for (const field of fields) {
    const entry = { column: analyzer.column(field.name, field.value.type), expr: field.value };
    const at = outputs.findIndex((output) => output.column.name === field.name);
    if (at >= 0) outputs[at] = entry;
    else outputs.push(entry);
  }
  return analyzer.projectStage(stage, outputs);
}

export function parseKv(analyzer: Analyzer, stage: Stage, op: Extract<Operator, { kind: 'parse-kv' }>): Stage {
  const source = convert(analyzer.binder.bind(op.source, analyzer.scope(stage.rel.columns)), 'string', op.source.pos, 'the parsed expression');
  const { pairDelimiter, kvDelimiter, quotes, escapes, greedy, regex } = op.options;
  if ((pairDelimiter === undefined) !== (kvDelimiter === undefined)) throw semanticError(op.pos, 'parse-kv needs both pair_delimiter and kv_delimiter, or neither');
  if (regex !== undefined && (pairDelimiter !== undefined || quotes.length || escapes.length || greedy)) {
    throw semanticError(op.pos, 'parse-kv takes either regex or delimiters, not both');
  }
  if (regex !== undefined && countGroups(regex) !== 2) throw semanticError(op.pos, 'the regex of parse-kv needs exactly two capturing groups: the key and the value');
  const seen = new Set<string>();
  const fields = op.keys.map((key) => {
    if (seen.has(key.name)) throw semanticError(key.pos, `the key "${key.name}" is listed twice`);
    seen.add(key.name);
    const type = typeFromName(key.type, key.pos);
    const options = regex !== undefined ? { key: key.name, regex } : { key: key.name, pairDelimiter, kvDelimiter, quotes, escapes, greedy };
    const text = call('kv_extract', [source], 'string', options);
    return { name: key.name, value: type === 'string' ? text : call('convert', [text], type) };
  });
  return withFields(analyzer, stage, fields);
}

/** Capturing groups of a regex: `(` not escaped, not in a class, not `(?:`/`(?=`/... unless named. */
export function countGroups(regex: string): number {
  let count = 0;
  let inClass = false;
  for (let i = 0; i < regex.length; i++) {
    const c = regex[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(' && (regex[i + 1] !== '?' || regex[i + 2] === 'P' || regex[i + 2] === '<')) count++;
  }
  return count;
}
