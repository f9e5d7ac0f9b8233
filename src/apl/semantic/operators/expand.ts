// mv-expand: one row per element of dynamic arrays (or property of bags), several columns
// expanded in parallel, optionally typed (`to typeof(long)`), numbered (`with_itemindex`) and
// capped per row (`limit`). Expanded rows are no longer single events, so the event identity
// ends here; rows that came newest first stay in that order, elements in array order.
import { ROW_ID_FIELD, SYS_TIME_FIELD, TIME_FIELD } from '../../../fields/system-fields';
import type { Operator } from '../../syntax/ast';
import { semanticError } from '../../syntax/position';
import type { Analyzer, Stage } from '../analyzer';
import { columnRef, displayName } from '../binder';
import type { AplType, ExpandOutput, Rel, RelColumn, SortKeyPlan, TExpr } from '../plan';
import { article, call } from '../typed';
import { constantCount, typeFromName } from './common';

export function mvExpand(analyzer: Analyzer, stage: Stage, op: Extract<Operator, { kind: 'mv-expand' }>): Stage {
  const scope = analyzer.scope(stage.rel.columns);
  const visible = analyzer.visible(stage);
  const expansions = op.items.map((item, i) => {
    const bound = analyzer.binder.bind(item.expr, scope);
    let value: TExpr;
    if (bound.type === 'dynamic') value = bound;
    else if (bound.type === 'string' || bound.type === 'null') value = call('convert', [bound], 'dynamic');
    else throw semanticError(item.pos, `mv-expand expands dynamic arrays and property bags, found ${article(bound.type)}`);
    const name = item.name ?? displayName(item.expr) ?? `Column${i + 1}`;
    const type: AplType = item.toType ? typeFromName(item.toType, item.pos) : 'dynamic';
    return { name, value, type };
  });
  const limit = op.limit ? constantCount(analyzer.binder.bind(op.limit, analyzer.scope([])), op.limit.pos, 'the limit of mv-expand') : undefined;

  const columns: RelColumn[] = [];
  const outputs: ExpandOutput[] = [];
  const expandedColumns: RelColumn[] = [];
  const add = (column: RelColumn, output: ExpandOutput) => {
    columns.push(column);
    outputs.push(output);
  };
  // Expanded fields take the place of the fields they replace; new ones come last.
  for (const column of visible) {
    const at = expansions.findIndex((expansion) => expansion.name === column.name);
    if (at < 0) {
      add(analyzer.column(column.name, column.type, column.stored ? { stored: column.stored } : {}), { kind: 'input', expr: columnRef(column) });
      continue;
    }
    const element = analyzer.column(column.name, 'dynamic');
    expandedColumns[at] = element;
    add(element, { kind: 'element', expansion: at });
  }
  expansions.forEach((expansion, i) => {
    if (expandedColumns[i]) return;
    const element = analyzer.column(expansion.name, 'dynamic');
    expandedColumns[i] = element;
    add(element, { kind: 'element', expansion: i });
  });
  // Implicit fields (_rowId) stay addressable.
  for (const column of stage.rel.columns.filter((c) => c.implicit && !c.hidden && !columns.some((o) => o.name === c.name))) {
    add(analyzer.column(column.name, column.type, { implicit: true }), { kind: 'input', expr: columnRef(column) });
  }
  let index: RelColumn | undefined;
  if (op.itemIndex !== undefined) {
    index = analyzer.column(op.itemIndex, 'int');
    add(index, { kind: 'position' });
  }
  analyzer.checkUnique(columns, op.pos);

  // Rows that had the default order (newest event first) keep it: identity and position ride along hidden.
  const keepOrder = stage.identity !== undefined && !stage.explicitOrder;
  let sortKeys: SortKeyPlan[] = [];
  if (keepOrder) {
    const identity = stage.identity!;
    const hidden = (id: string, name: string, type: AplType) => {
      const column = analyzer.column(name, type, { hidden: true });
      add(column, { kind: 'input', expr: { kind: 'column', id, type } });
      return column;
    };
    const time = hidden(identity.timeId, TIME_FIELD, 'datetime');
    const rowId = hidden(identity.rowIdId, ROW_ID_FIELD, 'int');
    hidden(identity.sysTimeId, SYS_TIME_FIELD, 'datetime');
    const position = index ?? analyzer.column('__position', 'int', { hidden: true });
    if (!index) add(position, { kind: 'position' });
    sortKeys = [
      { expr: columnRef(time), desc: true, nullsFirst: false },
      { expr: columnRef(rowId), desc: true, nullsFirst: false },
      { expr: columnRef(position), desc: false, nullsFirst: false },
    ];
  }

  let rel: Rel = {
    op: 'expand',
    columns,
    input: stage.rel,
    outputs,
    expansions: expansions.map((expansion) => ({ expr: expansion.value, bagExpansion: op.bagExpansion })),
    ...(limit !== undefined ? { limit } : {}),
  };
  if (keepOrder) rel = { op: 'sort', columns, input: rel, keys: sortKeys };
  let result: Stage = { rel, order: [], explicitOrder: keepOrder || stage.explicitOrder, datasets: stage.datasets };

  // `to typeof(T)` converts each element the way to<T>() would (null where it cannot).
  if (expansions.some((expansion) => expansion.type !== 'dynamic')) {
    const items = result.rel.columns
      .filter((column) => !column.hidden)
      .map((column) => {
        const at = expandedColumns.indexOf(column);
        const type = at >= 0 ? expansions[at]!.type : column.type;
        if (at < 0 || type === 'dynamic') return { column, expr: columnRef(column) };
        return { column: analyzer.column(column.name, type), expr: call('convert', [columnRef(column)], type) };
      });
    result = analyzer.projectStage(result, items);
  }
  return result;
}
