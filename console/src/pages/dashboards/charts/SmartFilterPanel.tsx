// A filter chart: one control per filter it defines, bound to the dashboard's filter values by
// the filter's `id` (the name of a `declare query_parameters` parameter in the charts' APL).
// A filter lists fixed `options`, or takes them from its own `query` (the first column of its
// answer): that query may declare the other filters' parameters, so its choices depend on them.
import { useEffect, useState } from 'react';
import { runApl } from '../../../api/query';
import { displayValue } from '../../query/charts/series';
import { bindParameters } from '../query-parameters';
import type { DashboardContext, PanelProps } from './panel-types';

export interface FilterDefinition {
  id: string;
  name: string;
  options: string[];
  apl?: string;
}

export function filtersOf(raw: unknown): FilterDefinition[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry) => {
    const filter = entry as Record<string, unknown>;
    const id = typeof filter.id === 'string' ? filter.id : undefined;
    if (!id) return [];
    const options = Array.isArray(filter.options)
      ? filter.options.map((option) => (typeof option === 'object' && option !== null ? String((option as { value?: unknown }).value ?? '') : String(option)))
      : [];
    const apl = (filter.query as { apl?: unknown } | undefined)?.apl;
    return [{ id, name: typeof filter.name === 'string' && filter.name ? filter.name : id, options, ...(typeof apl === 'string' && apl ? { apl } : {}) }];
  });
}

/** The choices of a filter whose options come from a query, rerun when the other filters change. */
function useQueryOptions(filter: FilterDefinition, context: DashboardContext): { options: string[]; problem?: string } {
  const others = Object.fromEntries(Object.entries(context.filterValues).filter(([name]) => name !== filter.id));
  const othersKey = JSON.stringify(others);
  const [state, setState] = useState<{ options: string[]; problem?: string }>({ options: filter.options });
  useEffect(() => {
    if (!filter.apl) return;
    const controller = new AbortController();
    runApl({ apl: bindParameters(filter.apl, JSON.parse(othersKey) as Record<string, string>), startTime: context.window.start, endTime: context.window.end }, controller.signal).then(
      (answer) => {
        const column = answer.tables[0]?.columns[0] ?? [];
        setState({ options: [...new Set(column.filter((value) => value !== null && value !== undefined).map(displayValue))] });
      },
      (error: unknown) => !controller.signal.aborted && setState({ options: [], problem: error instanceof Error ? error.message : String(error) }),
    );
    return () => controller.abort();
  }, [filter.apl, othersKey, context.window.start, context.window.end]);
  return filter.apl ? state : { options: filter.options };
}

function FilterControl({ filter, context }: { filter: FilterDefinition; context: DashboardContext }) {
  const { options, problem } = useQueryOptions(filter, context);
  const value = context.filterValues[filter.id] ?? '';
  return (
    <label className="dashboard-filter">
      {filter.name}
      {options.length > 0 || filter.apl ? (
        <select value={value} onChange={(event) => context.onFilterChange(filter.id, event.target.value)}>
          <option value="">Any</option>
          {value && !options.includes(value) ? <option value={value}>{value}</option> : null}
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      ) : (
        <input value={value} onChange={(event) => context.onFilterChange(filter.id, event.target.value)} />
      )}
      {problem ? <span className="form-error">{problem}</span> : null}
    </label>
  );
}

export function SmartFilterPanel({ chart, context }: PanelProps) {
  const filters = filtersOf(chart.filters);
  if (filters.length === 0) return <p className="muted">No filters defined</p>;
  return (
    <div className="toolbar dashboard-smart-filter">
      {filters.map((filter) => (
        <FilterControl key={filter.id} filter={filter} context={context} />
      ))}
    </div>
  );
}
