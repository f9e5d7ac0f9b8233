// What-if: the same calls (same tokens, same times) priced on another catalog model, beside what
// they cost: totals, the difference, and both over time.
import { useMemo } from 'react';
import { runCostQuery } from '../../api/llm';
import type { ResultTable } from '../../api/query';
import { formatUsd } from '../models/format';
import { useLoad } from '../models/useLoad';
import type { TimeZone } from '../query/charts/plot-options';
import { epochSeconds } from '../query/charts/time-column';
import type { TimeSeriesData } from '../query/charts/series';
import { TimeSeriesChart } from '../query/charts/TimeSeriesChart';
import { type CostScope, whatIfApl } from './genai-apl';
import { ModelPicker } from './ModelPicker';
import { Money } from './Money';

export interface WhatIfProps {
  scope: CostScope;
  start: string;
  end: string;
  interval: string;
  target: string;
  timeZone: TimeZone;
  onTargetChange(modelId: string): void;
  onSelectRange(startSeconds: number, endSeconds: number): void;
}

const column = (table: ResultTable, name: string) => table.columns[table.fields.findIndex((field) => field.name === name)] ?? [];
const numberAt = (values: unknown[], index: number) => (typeof values[index] === 'number' ? (values[index] as number) : null);

function comparisonOf(table: ResultTable | undefined, target: string): { data: TimeSeriesData; actual: number; repriced: number } | undefined {
  if (!table) return undefined;
  const times = column(table, '_time');
  const actual = column(table, 'actual');
  const repriced = column(table, 'repriced');
  const data: TimeSeriesData = {
    times: times.map((time) => epochSeconds(time) ?? 0),
    series: [
      { label: 'Actual', aggregate: 'cost', group: {}, values: times.map((_, index) => numberAt(actual, index) ?? 0) },
      { label: `On ${target}`, aggregate: 'cost', group: {}, values: times.map((_, index) => numberAt(repriced, index) ?? 0) },
    ],
  };
  const sum = (values: (number | null)[]) => values.reduce<number>((total, value) => total + (value ?? 0), 0);
  return { data, actual: sum(data.series[0]!.values), repriced: sum(data.series[1]!.values) };
}

export function WhatIf({ scope, start, end, interval, target, timeZone, onTargetChange, onSelectRange }: WhatIfProps) {
  const answer = useLoad(
    (signal) => (target && scope.dataset ? runCostQuery(whatIfApl(scope, target, interval), start, end, signal) : Promise.resolve(undefined)),
    [target, scope.dataset, JSON.stringify(scope.fields), scope.modelId, start, end, interval],
  );
  const comparison = useMemo(() => comparisonOf(answer.data?.tables[0], target), [answer.data, target]);
  const difference = comparison ? comparison.repriced - comparison.actual : undefined;

  return (
    <section className="costs-section" aria-labelledby="what-if-title">
      <h2 id="what-if-title">What if</h2>
      <p className="muted">The same calls (their tokens, at their times) priced on another model of the catalog. Calls whose model the catalog does not know are repriced too.</p>
      <ModelPicker label="Reprice on model" value={target} onChange={(id) => onTargetChange(id)} />
      {answer.state === 'error' ? <p className="error-box">{answer.message}</p> : null}
      {target && answer.state === 'loading' ? <p className="muted">Repricing…</p> : null}
      {target && comparison ? (
        <>
          <dl className="costs-totals" aria-label="What-if totals">
            <div>
              <dt>Actual</dt>
              <dd>
                <Money value={comparison.actual} />
              </dd>
            </div>
            <div>
              <dt>On {target}</dt>
              <dd>
                <Money value={comparison.repriced} />
              </dd>
            </div>
            <div>
              <dt>Difference</dt>
              <dd>
                <Money value={difference!} signed />
                {comparison.actual > 0 ? <span className="muted"> ({((difference! / comparison.actual) * 100).toFixed(1)}%)</span> : null}
              </dd>
            </div>
          </dl>
          {comparison.data.times.length > 0 ? (
            <TimeSeriesChart
              data={comparison.data}
              marks={[]}
              timeZone={timeZone}
              description={`Cost over time, actual and on ${target}: ${formatUsd(comparison.actual)} against ${formatUsd(comparison.repriced)} over ${comparison.data.times.length} time bins`}
              onSelectRange={onSelectRange}
            />
          ) : null}
        </>
      ) : null}
    </section>
  );
}
