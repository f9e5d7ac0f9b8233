// A table chart: the answer's first table as rows and columns (up to 1,000 rows).
import type { ResultTable } from '../../../api/query';
import { displayValue } from '../../query/charts/series';
import type { PanelProps } from './panel-types';

const MAX_ROWS = 1000;

export function TablePanel({ chart, result, height }: PanelProps) {
  const table: ResultTable | undefined = result?.answer?.tables[0];
  if (!table || table.fields.length === 0) return <p className="muted">No rows</p>;
  const rows = Math.min(table.columns[0]?.length ?? 0, MAX_ROWS);
  return (
    <div className="dashboard-table-wrap" style={{ maxHeight: height }} tabIndex={0} role="region" aria-label={`${chart.name ?? 'Table'} rows`}>
      <table className="dashboard-table">
        <thead>
          <tr>
            {table.fields.map((field) => (
              <th key={field.name} scope="col">
                {field.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: rows }, (_, row) => (
            <tr key={row}>
              {table.fields.map((field, column) => (
                <td key={field.name}>{displayValue(table.columns[column]?.[row])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows === 0 ? <p className="muted">No rows</p> : null}
    </div>
  );
}
