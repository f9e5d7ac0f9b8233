// One model of the catalog: its prices, limits and capabilities as the catalog API gives them,
// every further property LiteLLM has for it, its price history, and a link to what it cost in a
// dataset (the LLM costs page filtered to it).
import { CircleDollarSign } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { getModel, type ModelRecord, priceHistory, type PricePeriod } from '../../api/models';
import { formatPerMillion, formatTime } from './format';
import { modelsHref, usageHref } from './links';
import { CAPABILITY_FIELDS, type FieldRow, IDENTITY_FIELDS, LIMIT_FIELDS, otherProperties, PRICE_FIELDS } from './model-fields';
import { useLoad } from './useLoad';

function FieldTable({ caption, fields, record }: { caption: string; fields: FieldRow[]; record: ModelRecord }) {
  return (
    <table className="model-fields">
      <caption>{caption}</caption>
      <tbody>
        {fields
          .filter((field) => field.key in record)
          .map((field) => (
            <tr key={field.key}>
              <th scope="row">{field.label}</th>
              <td>{field.format(record[field.key])}</td>
            </tr>
          ))}
      </tbody>
    </table>
  );
}

function PriceHistoryTable({ periods }: { periods: PricePeriod[] }) {
  if (periods.length === 0) return <p className="muted">The catalog holds no price history for this model.</p>;
  return (
    <table className="model-history" aria-label="Price history">
      <thead>
        <tr>
          <th scope="col">From</th>
          <th scope="col">Until</th>
          <th scope="col" className="number">Input $/M</th>
          <th scope="col" className="number">Output $/M</th>
          <th scope="col" className="number">Cache read $/M</th>
          <th scope="col" className="number">Cache write $/M</th>
        </tr>
      </thead>
      <tbody>
        {[...periods].reverse().map((period, index) => (
          <tr key={`${period.validFrom ?? 'start'}-${index}`}>
            <td>{formatTime(period.validFrom, 'the beginning')}</td>
            <td>{formatTime(period.validTo, 'now (current)')}</td>
            <td className="number">{formatPerMillion(period.inputCostPerMillion)}</td>
            <td className="number">{formatPerMillion(period.outputCostPerMillion)}</td>
            <td className="number">{formatPerMillion(period.cacheReadCostPerMillion)}</td>
            <td className="number">{formatPerMillion(period.cacheWriteCostPerMillion)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ModelPage({ id }: { id: string }) {
  const { org = '' } = useParams();
  const model = useLoad((signal) => getModel(id, signal), [id]);
  const history = useLoad((signal) => priceHistory(id, signal), [id]);
  const record = model.data;

  return (
    <section className="page model-page">
      <header className="page-header">
        <h1 className="model-title">{id}</h1>
        <div className="toolbar">
          <Link className="button" to={modelsHref(org)}>
            All models
          </Link>
          <Link className="button primary" to={usageHref(org, id)}>
            <CircleDollarSign size={16} aria-hidden="true" />
            Usage in dataset…
          </Link>
        </div>
      </header>
      {model.state === 'error' ? <p className="error-box">{model.message}</p> : null}
      {model.state === 'loading' ? <p className="muted">Loading the model…</p> : null}
      {record ? (
        <>
          <div className="model-sections">
            <FieldTable caption="Prices" fields={PRICE_FIELDS} record={record} />
            <FieldTable caption="Model" fields={IDENTITY_FIELDS} record={record} />
            <FieldTable caption="Limits" fields={LIMIT_FIELDS} record={record} />
            <FieldTable caption="Capabilities" fields={CAPABILITY_FIELDS} record={record} />
          </div>
          <h2>Price history</h2>
          {history.state === 'error' ? <p className="error-box">{history.message}</p> : null}
          {history.data ? <PriceHistoryTable periods={history.data} /> : null}
          <h2>Other properties</h2>
          {otherProperties(record).length === 0 ? (
            <p className="muted">The catalog has no further properties for this model.</p>
          ) : (
            <table className="model-fields model-other" aria-label="Other properties">
              <tbody>
                {otherProperties(record).map(([key, value]) => (
                  <tr key={key}>
                    <th scope="row" className="mono">
                      {key}
                    </th>
                    <td className="mono">{value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      ) : null}
    </section>
  );
}
