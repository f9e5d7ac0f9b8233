// Operators that rewrite field values in place: extend-valid (assign only valid values) and
// redact (mask or hash what regular expressions match in string fields).
import type { Operator } from '../../syntax/ast';
import { type Position, semanticError } from '../../syntax/position';
import type { Analyzer, Stage } from '../analyzer';
import { columnRef, displayName, findColumn } from '../binder';
import type { RelColumn, TExpr } from '../plan';
import { call, convert, nullOf } from '../typed';

/**
 * extend-valid: each field gets the expression's value where that value is valid (a non-empty
 * string, a bag or array with entries, a non-zero finite number, true, any datetime) and keeps
 * its previous value (null for a new field) elsewhere.
 */
export function extendValid(analyzer: Analyzer, stage: Stage, op: Extract<Operator, { kind: 'extend-valid' }>): Stage {
  const scope = analyzer.scope(stage.rel.columns);
  const outputs: { column: RelColumn; expr: TExpr }[] = analyzer.visible(stage).map((column) => ({ column, expr: columnRef(column) }));
  let unnamed = 0;
  for (const item of op.items) {
    const value = analyzer.binder.bind(item.expr, scope);
    const type = value.type === 'null' ? 'string' : value.type;
    const name = item.name ?? displayName(item.expr) ?? `Column${++unnamed}`;
    const previous = findColumn(analyzer.visible(stage), name);
    const fallback = previous ? convert(columnRef(previous), type, item.pos, `the previous value of ${name}`) : nullOf(type);
    const entry = { column: analyzer.column(name, type), expr: call('valid_or', [convert(value, type, item.pos, name), fallback], type) };
    const at = outputs.findIndex((output) => output.column.name === name);
    if (at >= 0) outputs[at] = entry;
    else outputs.push(entry);
  }
  return analyzer.projectStage(stage, outputs);
}

export interface RedactRule {
  /** The regex as written, or rewritten so that each top-level part is a capturing group. */
  pattern: string;
  /** With redactGroups: which of the pattern's groups to redact. */
  groups?: boolean[];
}

/** The regexes given to redact: strings, or arrays and bags of strings. */
function regexesOf(analyzer: Analyzer, op: Extract<Operator, { kind: 'redact' }>): string[] {
  const scope = analyzer.scope([]);
  return op.regexes.flatMap((expr) => {
    const bound = analyzer.binder.bind(expr, scope);
    if (bound.kind === 'literal' && bound.value.type === 'string') return [bound.value.value];
    if (bound.kind === 'literal' && bound.value.type === 'dynamic') {
      const value = bound.value.value;
      const items = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : [value];
      if (items.length && items.every((item): item is string => typeof item === 'string')) return items;
    }
    throw semanticError(expr.pos, 'redact takes regular expressions as string literals, or arrays or bags of them');
  });
}

/**
 * Splits a regex at its top level so that redactGroups can keep what lies outside the capturing
 * groups: `a(b)c` becomes `(a)(b)(c)` with only the middle group redacted. Groups inside groups
 * become non-capturing; top-level alternation and quantified groups cannot be split.
 */
export function splitAtGroups(regex: string, pos: Position): RedactRule {
  const parts: { text: string; redact: boolean }[] = [];
  let literal = '';
  const flush = () => {
    if (literal) parts.push({ text: literal, redact: false });
    literal = '';
  };
  const nonCapturing = (text: string) => text.replace(/\\.|\[(?:\\.|[^\]])*\]|\((?!\?)|\(\?P?<(?![=!])[^>]*>/g, (m) => (m === '(' || m.startsWith('(?') ? '(?:' : m));
  for (let i = 0; i < regex.length; ) {
    const c = regex[i]!;
    if (c === '\\') {
      literal += regex.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === '[') {
      const end = classEnd(regex, i);
      literal += regex.slice(i, end);
      i = end;
      continue;
    }
    if (c === '|') throw semanticError(pos, 'redactGroups cannot split a regex with | at its top level; wrap the alternatives in (?:...)');
    if (c !== '(') {
      literal += c;
      i++;
      continue;
    }
    const end = groupEnd(regex, i, pos);
    const capturing = regex[i + 1] !== '?' || regex[i + 2] === 'P' || regex[i + 2] === '<';
    const quantified = /^[*+?{]/.test(regex.slice(end));
    if (!capturing || quantified) {
      literal += regex.slice(i, end);
      i = end;
      continue;
    }
    flush();
    const inner = regex.slice(regex[i + 1] === '?' ? regex.indexOf('>', i) + 1 : i + 1, end - 1);
    parts.push({ text: inner, redact: true });
    i = end;
  }
  flush();
  if (!parts.some((part) => part.redact)) throw semanticError(pos, 'redactGroups needs capturing groups in the regex, such as @".*/(.*)"');
  return { pattern: parts.map((part) => `(${nonCapturing(part.text)})`).join(''), groups: parts.map((part) => part.redact) };
}

function classEnd(regex: string, start: number): number {
  let i = start + 1;
  if (regex[i] === '^') i++;
  if (regex[i] === ']') i++;
  while (i < regex.length && regex[i] !== ']') i += regex[i] === '\\' ? 2 : 1;
  return i + 1;
}

function groupEnd(regex: string, start: number, pos: Position): number {
  let depth = 0;
  for (let i = start; i < regex.length; ) {
    const c = regex[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '[') {
      i = classEnd(regex, i);
      continue;
    }
    if (c === '(') depth++;
    if (c === ')' && --depth === 0) return i + 1;
    i++;
  }
  throw semanticError(pos, `the regex "${regex}" has an unclosed group`);
}

/** redact: masks (or hashes) the matches of the regexes in the given fields, or in every string field. */
export function redact(analyzer: Analyzer, stage: Stage, op: Extract<Operator, { kind: 'redact' }>): Stage {
  if (op.replaceHash && op.replaceToken !== undefined) throw semanticError(op.pos, 'redact takes replaceToken or replaceHash, not both');
  const regexes = regexesOf(analyzer, op);
  const rules: RedactRule[] = regexes.map((regex) => (op.redactGroups ? splitAtGroups(regex, op.pos) : { pattern: regex }));
  const visible = analyzer.visible(stage);
  let targets: RelColumn[];
  if (op.fields) {
    targets = op.fields.map((field) => {
      const column = findColumn(visible, field.name);
      if (!column) throw analyzer.unknownField(field.pos, field.name, visible);
      if (column.type !== 'string') throw semanticError(field.pos, `redact works on string fields; ${field.name} is not one`);
      return column;
    });
  } else targets = visible.filter((column) => column.type === 'string');
  const options = { rules, hash: op.replaceHash, token: op.replaceToken ?? '*' };
  const outputs = visible.map((column) =>
    targets.includes(column)
      ? { column: analyzer.column(column.name, 'string'), expr: call('redact', [columnRef(column)], 'string', options) }
      : { column, expr: columnRef(column) },
  );
  return analyzer.projectStage(stage, outputs);
}
