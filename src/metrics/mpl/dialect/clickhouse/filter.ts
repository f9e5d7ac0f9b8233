// Tag filters (`where`) as ClickHouse predicates over a series' tag map, with the meaning of the
// DuckDB dialect's: a comparison holds only for a tag of the literal's kind (numbers compare
// with int and float tags, strings with string tags, booleans with bool tags); a missing tag
// satisfies no comparison, so `!=` and `not` hold for it. Regular expressions fully match the
// value's text, whatever its type.
import type { TagFilter } from '../../semantic/plan';
import { TAG_LETTER } from '../../../store/clickhouse/layout';
import { double, int, member, type StatementBuilder, tagOf, tagText } from './sql';

const SQL_OP = { '==': '=', '!=': '=', '<': '<', '<=': '<=', '>': '>', '>=': '>=' } as const;

export function filterSql(filter: TagFilter, tags: string, builder: StatementBuilder): string {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return `(${filter.items.map((item) => filterSql(item, tags, builder)).join(` ${filter.kind.toUpperCase()} `)})`;
    case 'not':
      return `(NOT ${filterSql(filter.item, tags, builder)})`;
    case 'is':
      return `startsWith(${tags}[${builder.param(filter.tag)}], '${TAG_LETTER[filter.type]}')`;
    case 'regex': {
      const value = tagOf(tags, builder.param(filter.tag));
      const match = `coalesce(match(${tagText(value)}, ${builder.param(`^(?:${filter.pattern})$`)}), false)`;
      return filter.negate ? `(NOT ${match})` : match;
    }
    case 'compare': {
      const value = tagOf(tags, builder.param(filter.tag));
      const op = SQL_OP[filter.op];
      const literal = filter.value;
      let test: string;
      switch (literal.type) {
        case 'string':
          test = `${member(value, 'string')} ${op} ${builder.param(literal.value)}`;
          break;
        case 'bool':
          test = `${member(value, 'bool')} ${op} ${literal.value}`;
          break;
        case 'int':
          test = `(${member(value, 'int')} ${op} ${int(literal.value)}) OR (${member(value, 'float')} ${op} ${double(Number(literal.value))})`;
          break;
        case 'float':
          test = `(toFloat64(${member(value, 'int')}) ${op} ${double(literal.value)}) OR (${member(value, 'float')} ${op} ${double(literal.value)})`;
          break;
      }
      const holds = `coalesce(${test}, false)`;
      return filter.op === '!=' ? `(NOT ${holds})` : holds;
    }
  }
}
