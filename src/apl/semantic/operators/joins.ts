// join (every kind) and lookup: keys bound on each side, output fields as Kusto names them (the
// right side's clashing names get a number), semi and anti joins keeping one side's rows as
// they were.
import type { Expr, JoinCondition, JoinKind, Operator } from '../../syntax/ast';
import { type Position } from '../../syntax/position';
import type { Analyzer, Stage } from '../analyzer';
import { columnRef, findColumn, type Scope } from '../binder';
import type { Rel, RelColumn, TExpr } from '../plan';
import { convert } from '../typed';

interface BoundKey {
  left: TExpr;
  right: TExpr;
  /** The right side's field when the condition names one plainly (lookup leaves it out). */
  rightField?: string;
}

function bindKeys(analyzer: Analyzer, left: Stage, right: Stage, on: JoinCondition[]): BoundKey[] {
  const leftVisible = analyzer.visible(left);
  const rightVisible = analyzer.visible(right);
  const leftScope = analyzer.scope(leftVisible);
  const rightScope = analyzer.scope(rightVisible);
  const key = (l: TExpr, r: TExpr, pos: Position, rightField?: string): BoundKey => {
    const type = analyzer.binder.comparisonType([l, r], pos, 'join');
    return { left: convert(l, type, pos, 'the left join key'), right: convert(r, type, pos, 'the right join key'), ...(rightField ? { rightField } : {}) };
  };
  return on.map((condition) => {
    if (condition.kind === 'same') {
      const l = findColumn(leftVisible, condition.name);
      const r = findColumn(rightVisible, condition.name);
      if (!l) throw analyzer.unknownField(condition.pos, condition.name, leftVisible);
      if (!r) throw analyzer.unknownField(condition.pos, condition.name, rightVisible);
      return key(columnRef(l), columnRef(r), condition.pos, r.name);
    }
    const side = (expr: Expr, fallback: 'left' | 'right'): { scope: Scope; expr: Expr; side: 'left' | 'right' } => {
      if (expr.kind === 'member' && expr.target.kind === 'name' && (expr.target.name === '$left' || expr.target.name === '$right')) {
        const which = expr.target.name === '$left' ? 'left' : 'right';
        return { scope: which === 'left' ? leftScope : rightScope, expr: { kind: 'name', pos: expr.pos, name: expr.name, bracketed: true }, side: which };
      }
      return { scope: fallback === 'left' ? leftScope : rightScope, expr, side: fallback };
    };
    let l = side(condition.left, 'left');
    let r = side(condition.right, 'right');
    // `$right.a == $left.b` names the sides the other way round.
    if (l.side === 'right' && r.side === 'left') [l, r] = [r, l];
    const rightField = r.expr.kind === 'name' ? r.expr.name : undefined;
    return key(analyzer.binder.bind(l.expr, l.scope), analyzer.binder.bind(r.expr, r.scope), condition.pos, rightField);
  });
}

/** Output columns of the right side: every visible one but `skip`, renamed when a name is taken. */
function rightColumns(analyzer: Analyzer, right: Stage, taken: Set<string>, skip: Set<string> = new Set()): { column: RelColumn; source: string }[] {
  return analyzer
    .visible(right)
    .filter((c) => !skip.has(c.name))
    .map((c) => {
      let name = c.name;
      for (let n = 1; taken.has(name); n++) name = `${c.name}${n}`;
      taken.add(name);
      return { column: analyzer.column(name, c.type, c.stored ? { stored: c.stored } : {}), source: c.id };
    });
}

function combined(analyzer: Analyzer, left: Stage, right: Stage, kind: JoinKind, keys: BoundKey[], skipRight: Set<string>): Stage {
  const leftVisible = analyzer.visible(left);
  const taken = new Set(leftVisible.map((c) => c.name));
  const rights = rightColumns(analyzer, right, taken, skipRight);
  // The left side's implicit columns (its _rowId) stay addressable after the join.
  const leftImplicit = left.rel.columns.filter((c) => c.implicit && !taken.has(c.name));
  const rel: Rel = {
    op: 'join',
    kind,
    columns: [...leftVisible.map((c) => ({ ...c })), ...rights.map((r) => r.column), ...leftImplicit.map((c) => ({ ...c }))],
    left: left.rel,
    right: right.rel,
    keys: keys.map(({ left: l, right: r }) => ({ left: l, right: r })),
    sources: [
      ...leftVisible.map((c) => ({ side: 'left' as const, id: c.id })),
      ...rights.map((r) => ({ side: 'right' as const, id: r.source })),
      ...leftImplicit.map((c) => ({ side: 'left' as const, id: c.id })),
    ],
  };
  return { rel, order: [], explicitOrder: false, datasets: new Set([...left.datasets, ...right.datasets]) };
}

/** Semi and anti joins: the kept side's rows, unchanged (event identity included). */
function oneSided(left: Stage, right: Stage, kind: JoinKind, keys: BoundKey[]): Stage {
  const keptSide = kind === 'leftsemi' || kind === 'leftanti' ? 'left' : 'right';
  const kept = keptSide === 'left' ? left : right;
  const rel: Rel = {
    op: 'join',
    kind,
    columns: kept.rel.columns.map((c) => ({ ...c })),
    left: left.rel,
    right: right.rel,
    keys: keys.map(({ left: l, right: r }) => ({ left: l, right: r })),
    sources: kept.rel.columns.map((c) => ({ side: keptSide, id: c.id })),
  };
  return { ...kept, rel, order: [], explicitOrder: false, datasets: new Set([...left.datasets, ...right.datasets]) };
}

export function joinOperator(analyzer: Analyzer, left: Stage, op: Extract<Operator, { kind: 'join' }>): Stage {
  const right = analyzer.tabular(op.right);
  const keys = bindKeys(analyzer, left, right, op.on);
  if (['leftsemi', 'leftanti', 'rightsemi', 'rightanti'].includes(op.joinKind)) return oneSided(left, right, op.joinKind, keys);
  return combined(analyzer, left, right, op.joinKind, keys, new Set());
}

/** lookup: a left outer (or inner) join whose key fields appear once, from the left side. */
export function lookupOperator(analyzer: Analyzer, left: Stage, op: Extract<Operator, { kind: 'lookup' }>): Stage {
  const right = analyzer.tabular(op.right);
  const keys = bindKeys(analyzer, left, right, op.on);
  const skip = new Set(keys.flatMap((key) => (key.rightField ? [key.rightField] : [])));
  return combined(analyzer, left, right, op.lookupKind, keys, skip);
}
