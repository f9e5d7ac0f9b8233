// The LLM costs page: pick a dataset of GenAI calls and a time range, and read what they cost:
// totals, spend over time split by model, provider or service (stacked, with the catalog's price
// changes on the time axis), tokens, cache savings, the traffic repriced on another model, and
// the most expensive conversations with their messages. llmUsage answers the series; APL over
// the tabular query API the rest.
import { X } from 'lucide-react';
import { useCallback, useEffect, useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { useSearchWriter } from '../../app/useSearchWriter';
import { fetchUsage, listDatasets, runCostQuery, type UsageGroup } from '../../api/llm';
import { formatTokens, formatUsd } from '../models/format';
import { modelHref } from '../models/links';
import { useLoad } from '../models/useLoad';
import { TimeSeriesChart } from '../query/charts/TimeSeriesChart';
import { TimeRangeControl } from '../query/TimeRangeControl';
import { FieldsForm } from './FieldsForm';
import { type CostScope, savingsApl } from './genai-apl';
import { boundMillis, intervalFor } from './interval';
import './llm-costs.css';
import { Money } from './Money';
import { GROUP_NAMES, SpendBreakdown } from './SpendBreakdown';
import { SpendChart } from './SpendChart';
import { TopConversations } from './TopConversations';
import { type CostsState, costsStateFrom, searchFromCosts } from './url-state';
import { costSeries, priceChangeMarks, tokenSeries, unpricedCalls } from './usage-series';
import { WhatIf } from './WhatIf';

export function LlmCostsPage() {
  const { org = '' } = useParams();
  const [search, writeSearch] = useSearchWriter();
  const state = useMemo(() => costsStateFrom(search), [search]);
  const update = useCallback((next: Partial<CostsState>) => writeSearch((current) => searchFromCosts({ ...costsStateFrom(current), ...next }), { replace: true }), [writeSearch]);

  const datasets = useLoad((signal) => listDatasets(signal), []);
  // Without a dataset in the URL, the first one (traces first: OpenTelemetry GenAI spans live there).
  useEffect(() => {
    if (state.dataset || !datasets.data?.length) return;
    const first = datasets.data.find((dataset) => dataset.kind === 'otel:traces:v1') ?? datasets.data[0]!;
    update({ dataset: first.name });
  }, [state.dataset, datasets.data, update]);

  const interval = useMemo(() => intervalFor(state.start, state.end), [state.start, state.end]);
  const scope = useMemo<CostScope>(() => ({ dataset: state.dataset, fields: state.fields, ...(state.model ? { modelId: state.model } : {}) }), [state.dataset, state.fields, state.model]);
  const fieldsKey = JSON.stringify(state.fields);

  const usage = useLoad(
    (signal) =>
      state.dataset
        ? fetchUsage({ dataset: state.dataset, start: state.start, end: state.end, groupBy: state.by, interval, fields: state.fields, ...(state.model ? { modelId: state.model } : {}) }, signal)
        : Promise.resolve(undefined),
    [state.dataset, state.start, state.end, state.by, interval, fieldsKey, state.model],
  );
  const savingsQuery = state.dataset ? savingsApl(scope) : undefined;
  const savings = useLoad((signal) => (savingsQuery ? runCostQuery(savingsQuery, state.start, state.end, signal) : Promise.resolve(undefined)), [savingsQuery, state.start, state.end]);
  const saved = savings.data?.tables[0]?.columns[0]?.[0];

  const data = usage.data;
  const spend = useMemo(() => (data ? costSeries(data, state.by) : undefined), [data, state.by]);
  const tokens = useMemo(() => (data ? tokenSeries(data) : undefined), [data]);
  const marks = useMemo(() => {
    if (!data) return [];
    const now = Date.now();
    return priceChangeMarks(data, boundMillis(state.start, now) / 1000, boundMillis(state.end, now) / 1000);
  }, [data, state.start, state.end]);
  const zoom = useCallback((startSeconds: number, endSeconds: number) => update({ start: new Date(startSeconds * 1000).toISOString(), end: new Date(endSeconds * 1000).toISOString() }), [update]);
  const groupName = GROUP_NAMES[state.by];

  return (
    <section className="page costs-page">
      <header className="page-header">
        <h1>LLM costs</h1>
        <div className="toolbar">
          <label className="inline-label">
            Dataset
            <select aria-label="Dataset" value={state.dataset} onChange={(event) => update({ dataset: event.target.value, conversation: '' })}>
              {!state.dataset ? <option value="">Choose a dataset…</option> : null}
              {state.dataset && !datasets.data?.some((dataset) => dataset.name === state.dataset) ? <option value={state.dataset}>{state.dataset}</option> : null}
              {(datasets.data ?? []).map((dataset) => (
                <option key={dataset.name} value={dataset.name}>
                  {dataset.name}
                </option>
              ))}
            </select>
          </label>
          <label className="inline-label">
            Split by
            <select aria-label="Split by" value={state.by} onChange={(event) => update({ by: event.target.value as UsageGroup })}>
              <option value="MODEL">Model</option>
              <option value="PROVIDER">Provider</option>
              <option value="SERVICE">Service</option>
            </select>
          </label>
          <TimeRangeControl start={state.start} end={state.end} timeZone={state.tz} onChange={(range) => update(range)} onTimeZoneChange={(tz) => update({ tz })} />
        </div>
      </header>

      {state.model ? (
        <p className="costs-filter">
          Only calls priced as{' '}
          <Link className="mono" to={modelHref(org, state.model)}>
            {state.model}
          </Link>
          <button type="button" className="button small ghost" onClick={() => update({ model: '' })}>
            <X size={14} aria-hidden="true" />
            Show all models
          </button>
        </p>
      ) : null}
      <FieldsForm fields={state.fields} onApply={(fields) => update({ fields })} />

      {datasets.state === 'error' ? <p className="error-box">{datasets.message}</p> : null}
      {datasets.state === 'done' && datasets.data.length === 0 ? <p className="muted">There is no dataset yet: send GenAI calls (OpenTelemetry spans or events) to one first.</p> : null}
      {usage.state === 'error' ? <p className="error-box">{usage.message}</p> : null}
      {state.dataset && usage.state === 'loading' && !data ? <p className="muted">Loading usage…</p> : null}

      {data ? (
        <>
          <dl className="costs-totals" aria-label="Totals">
            <div>
              <dt>Cost</dt>
              <dd>
                <Money value={data.cost ?? 0} />
              </dd>
            </div>
            <div>
              <dt>Calls</dt>
              <dd>{formatTokens(data.calls)}</dd>
            </div>
            <div>
              <dt>Input tokens</dt>
              <dd>{formatTokens(data.inputTokens)}</dd>
            </div>
            <div>
              <dt>Output tokens</dt>
              <dd>{formatTokens(data.outputTokens)}</dd>
            </div>
            <div>
              <dt>Unpriced calls</dt>
              <dd>{formatTokens(unpricedCalls(data))}</dd>
            </div>
            <div>
              <dt>Cache savings</dt>
              <dd>{savingsQuery ? typeof saved === 'number' ? <Money value={saved} /> : savings.state === 'error' ? 'error' : '–' : <span className="muted">no cache field</span>}</dd>
            </div>
          </dl>
          {savings.state === 'error' ? <p className="error-box">{savings.message}</p> : null}

          <section className="costs-section" aria-labelledby="spend-title">
            <h2 id="spend-title">Spend over time by {groupName}</h2>
            {spend && spend.times.length > 0 ? (
              <SpendChart
                data={spend}
                marks={marks}
                timeZone={state.tz}
                description={`Stacked cost per ${interval} by ${groupName}: ${spend.series.length} series over ${spend.times.length} time bins, ${formatUsd(data.cost ?? 0)} in all${marks.length ? `, ${marks.length} price changes marked` : ''}`}
                onSelectRange={zoom}
              />
            ) : (
              <p className="muted">No LLM call in this range.</p>
            )}
            {data.series.length > 0 ? <SpendBreakdown usage={data} by={state.by} /> : null}
          </section>

          {tokens && tokens.times.length > 0 ? (
            <section className="costs-section" aria-labelledby="tokens-title">
              <h2 id="tokens-title">Tokens</h2>
              <TimeSeriesChart
                data={tokens}
                marks={marks}
                timeZone={state.tz}
                description={`Input and output tokens per ${interval}: ${formatTokens(data.inputTokens)} in, ${formatTokens(data.outputTokens)} out`}
                onSelectRange={zoom}
              />
            </section>
          ) : null}

          <WhatIf
            scope={scope}
            start={state.start}
            end={state.end}
            interval={interval}
            target={state.whatIf}
            timeZone={state.tz}
            onTargetChange={(whatIf) => update({ whatIf })}
            onSelectRange={zoom}
          />
          <TopConversations scope={scope} start={state.start} end={state.end} open={state.conversation} timeZone={state.tz} onOpen={(conversation) => update({ conversation })} />
        </>
      ) : null}
    </section>
  );
}
