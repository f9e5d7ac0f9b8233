// Tag filters (`where`) as predicates over a series' tag map. A comparison holds only for a tag
// of the literal's kind (numbers compare with int and float tags, strings with string tags,
// booleans with bool tags); a missing tag satisfies no comparison, so `!=` and `not` hold for
// it. Regular expressions fully match the value's text, whatever its type.
import type { TagFilter } from '../semantic/plan';
import type { StatementBuilder } from './statement';

const SQL_OP = { '==': '=', '!=': '=', '<': '<', '<=': '<=', '>': '>', '>=': '>=' } as const;

/** A regular expression of the query, anchored so that it matches a whole text. */
export function anchored(builder: StatementBuilder, pattern: string): string {
  return builder.param(`^(?:${pattern})$`);
}

export function filterSql(filter: TagFilter, tags: string, builder: StatementBuilder): string {
  const sql = builder.engine;
  switch (filter.kind) {
    case 'and':
    case 'or':
      return `(${filter.items.map((item) => filterSql(item, tags, builder)).join(` ${filter.kind.toUpperCase()} `)})`;
    case 'not':
      return `(NOT ${filterSql(filter.item, tags, builder)})`;
    case 'is':
      return `coalesce(${sql.tagIs(sql.tagOf(tags, builder.param(filter.tag)), filter.type)}, false)`;
    case 'regex': {
      const value = sql.tagOf(tags, builder.param(filter.tag));
      const match = `coalesce(${sql.regexMatches(sql.tagText(value), anchored(builder, filter.pattern))}, false)`;
      return filter.negate ? `(NOT ${match})` : match;
    }
    case 'compare': {
      const value = sql.tagOf(tags, builder.param(filter.tag));
      const op = SQL_OP[filter.op];
      const literal = filter.value;
      let test: string;
      switch (literal.type) {
        case 'string':
          test = `${sql.member(value, 'string')} ${op} ${builder.param(literal.value)}`;
          break;
        case 'bool':
          test = `${sql.member(value, 'bool')} ${op} ${literal.value}`;
          break;
        case 'int':
          test = `(${sql.member(value, 'int')} ${op} ${sql.int(literal.value)}) OR (${sql.member(value, 'float')} ${op} ${sql.double(Number(literal.value))})`;
          break;
        case 'float':
          test = `(${sql.toDouble(sql.member(value, 'int'))} ${op} ${sql.double(literal.value)}) OR (${sql.member(value, 'float')} ${op} ${sql.double(literal.value)})`;
          break;
      }
      const holds = `coalesce(${test}, false)`;
      return filter.op === '!=' ? `(NOT ${holds})` : holds;
    }
  }
}
