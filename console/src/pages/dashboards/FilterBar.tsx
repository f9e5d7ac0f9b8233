// The dashboard's filter bar: one control per parameter the charts' APL declares with
// `declare query_parameters(...)`, showing the default until a value is typed. Charts rerun with
// the values bound; a parameter shared by several charts filters them all.
import type { DashboardChart } from '../../api/dashboards';
import { filtersOf } from './charts/SmartFilterPanel';
import { declaredParameters, defaultText, type QueryParameter } from './query-parameters';

/** The parameters declared across the charts, each once (the first declaration wins). */
export function dashboardParameters(charts: DashboardChart[]): QueryParameter[] {
  const seen = new Map<string, QueryParameter>();
  for (const chart of charts) {
    const apl = chart.query?.apl;
    if (typeof apl !== 'string') continue;
    for (const parameter of declaredParameters(apl).parameters) if (!seen.has(parameter.name)) seen.set(parameter.name, parameter);
  }
  return [...seen.values()];
}

/** Parameters a filter chart already offers a control for (the bar leaves them out). */
export function smartFilterIds(charts: DashboardChart[]): Set<string> {
  return new Set(charts.filter((chart) => chart.type === 'SmartFilter').flatMap((chart) => filtersOf(chart.filters).map((filter) => filter.id)));
}

export interface FilterBarProps {
  parameters: QueryParameter[];
  values: Readonly<Record<string, string>>;
  onChange(name: string, value: string): void;
}

export function FilterBar({ parameters, values, onChange }: FilterBarProps) {
  if (parameters.length === 0) return null;
  return (
    <div role="group" aria-label="Filters" className="toolbar dashboard-filter-bar">
      {parameters.map((parameter) => (
        <label key={parameter.name} className="dashboard-filter">
          {parameter.name}
          <input
            value={values[parameter.name] ?? ''}
            placeholder={defaultText(parameter) || parameter.type}
            onChange={(event) => onChange(parameter.name, event.target.value)}
            inputMode={['long', 'int', 'real', 'double', 'decimal'].includes(parameter.type) ? 'decimal' : undefined}
          />
        </label>
      ))}
      {Object.values(values).some(Boolean) ? (
        <button type="button" className="button small" onClick={() => parameters.forEach((parameter) => onChange(parameter.name, ''))}>
          Clear filters
        </button>
      ) : null}
    </div>
  );
}
