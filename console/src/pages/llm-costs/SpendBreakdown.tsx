// The range's totals per group (model, provider or service): calls, tokens, cost and share.
import type { Usage, UsageGroup } from '../../api/llm';
import { formatTokens } from '../models/format';
import { Money } from './Money';
import { groupLabel } from './usage-series';

export const GROUP_NAMES: Record<UsageGroup, string> = { MODEL: 'model', PROVIDER: 'provider', SERVICE: 'service' };

export function SpendBreakdown({ usage, by }: { usage: Usage; by: UsageGroup }) {
  const total = usage.cost ?? 0;
  const rows = [...usage.series].sort((a, b) => (b.cost ?? 0) - (a.cost ?? 0));
  const name = GROUP_NAMES[by];
  return (
    <table className="costs-table" aria-label={`Spend by ${name}`}>
      <thead>
        <tr>
          <th scope="col">{name[0]!.toUpperCase() + name.slice(1)}</th>
          {by === 'MODEL' ? <th scope="col">Catalog model</th> : null}
          <th scope="col" className="number">Calls</th>
          <th scope="col" className="number">Input tokens</th>
          <th scope="col" className="number">Output tokens</th>
          <th scope="col" className="number">Cost</th>
          <th scope="col" className="number">Share</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((series, index) => (
          <tr key={`${groupLabel(series, by)}-${index}`}>
            <th scope="row" className={by === 'MODEL' ? 'mono' : undefined}>
              {groupLabel(series, by)}
            </th>
            {by === 'MODEL' ? <td className="mono">{series.model ? series.model.modelId : <span className="muted">unknown</span>}</td> : null}
            <td className="number">{formatTokens(series.calls)}</td>
            <td className="number">{formatTokens(series.inputTokens)}</td>
            <td className="number">{formatTokens(series.outputTokens)}</td>
            <td className="number">
              <Money value={series.cost} />
            </td>
            <td className="number">{total > 0 && series.cost !== null ? `${((series.cost / total) * 100).toFixed(1)}%` : '–'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
