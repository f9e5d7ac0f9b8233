// `replace` and `extend`: series' tags rewritten by regular expressions, renamed, derived from
// other tags, or added (an added tag a series already has fails the query).
import type { RetagNode } from '../semantic/plan';
import type { NodeContext } from './context';
import { anchored } from './filter';
import type { Relation } from './statement';

export function retagSql(context: NodeContext, node: RetagNode): Relation {
  const b = context.builder;
  const sql = b.engine;
  const input = context.relationOf(node.input);
  const op = node.op;
  const tagOf = (key: string) => sql.tagOf('tags', key);
  const rewritten = (value: string, pattern: string, replacement: string, otherwise: string) => {
    const regex = anchored(b, pattern);
    const text = sql.tagText(value);
    return `CASE WHEN coalesce(${sql.regexMatches(text, regex)}, false) THEN ${sql.stringTag(sql.regexReplace(text, regex, b.param(replacement)))} ELSE ${otherwise} END`;
  };
  let tags: string;
  switch (op.kind) {
    case 'rewrite': {
      const key = b.param(op.tag);
      tags = sql.setTags('tags', [{ key, value: rewritten(tagOf(key), op.pattern, op.replacement, tagOf(key)) }]);
      break;
    }
    case 'rename': {
      const source = b.param(op.source);
      const target = b.param(op.target);
      tags = `CASE WHEN ${tagOf(source)} IS NULL THEN tags ELSE ${sql.setTags('tags', [
        { key: source, value: 'NULL' },
        { key: target, value: tagOf(source) },
      ])} END`;
      break;
    }
    case 'derive': {
      const source = b.param(op.source);
      const target = b.param(op.target);
      tags = sql.setTags('tags', [{ key: target, value: rewritten(tagOf(source), op.pattern, op.replacement, tagOf(target)) }]);
      break;
    }
    case 'extend': {
      const entries = op.assignments.map(({ tag, value }) => {
        const key = b.param(tag);
        let assigned: string;
        if (value.kind === 'value') {
          assigned = sql.tagValue(b, value.value);
        } else {
          const parts = value.parts.map((part) => ('text' in part ? b.param(part.text) : `coalesce(${sql.tagText(tagOf(b.param(part.tag)))}, '')`));
          assigned = sql.stringTag(`concat(${parts.join(', ')}, '')`);
        }
        const exists = b.param(`extend: tag "${tag}" already exists on a series; drop it with group by first`);
        return { key, value: sql.failIf(`${tagOf(key)} IS NOT NULL`, exists, assigned) };
      });
      tags = sql.setTags('tags', entries);
      break;
    }
  }
  return { pts: input.pts, tags: b.tagged(`SELECT sid AS _s, ${tags} AS _g FROM ${input.tags}`) };
}
