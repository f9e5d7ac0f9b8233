// Two to four models side by side (/models/compare?ids=a,b): one column per model, one row per
// documented field, the lowest price of each row marked.
import { Link, useParams, useSearchParams } from 'react-router';
import { getModel, type ModelRecord } from '../../api/models';
import { compareHref, modelHref, modelsHref } from './links';
import { DOCUMENTED_FIELDS, PRICE_FIELDS } from './model-fields';
import { useLoad } from './useLoad';

const PRICE_KEYS = new Set<string>(PRICE_FIELDS.map((field) => field.key));

/** The lowest number of a row when at least two models have one. */
function lowest(records: ModelRecord[], key: string): number | undefined {
  const values = records.map((record) => record[key]).filter((value): value is number => typeof value === 'number');
  return values.length >= 2 ? Math.min(...values) : undefined;
}

export function ComparePage() {
  const { org = '' } = useParams();
  const [search] = useSearchParams();
  const ids = (search.get('ids') ?? '').split(',').map((id) => id.trim()).filter(Boolean).slice(0, 4);
  const models = useLoad((signal) => Promise.all(ids.map((id) => getModel(id, signal))), [ids.join(',')]);
  const records = models.data ?? [];

  return (
    <section className="page models-compare">
      <header className="page-header">
        <h1>Compare models</h1>
        <div className="toolbar">
          <Link className="button" to={modelsHref(org)}>
            All models
          </Link>
        </div>
      </header>
      {ids.length < 2 ? <p className="muted">Choose two to four models in the list to compare them.</p> : null}
      {models.state === 'error' ? <p className="error-box">{models.message}</p> : null}
      {models.state === 'loading' && ids.length > 0 ? <p className="muted">Loading the models…</p> : null}
      {records.length > 0 ? (
        <div className="models-table-wrap">
          <table className="models-compare-table" aria-label="Models side by side">
            <thead>
              <tr>
                <th scope="col">Field</th>
                {records.map((record) => (
                  <th scope="col" key={record.model_id}>
                    <Link to={modelHref(org, record.model_id)} className="mono">
                      {record.model_id}
                    </Link>
                    {records.length > 2 ? (
                      <Link className="button small ghost" to={compareHref(org, ids.filter((id) => id !== record.model_id))} aria-label={`Remove ${record.model_id} from the comparison`}>
                        Remove
                      </Link>
                    ) : null}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {DOCUMENTED_FIELDS.map((field) => {
                const best = PRICE_KEYS.has(field.key) ? lowest(records, field.key) : undefined;
                return (
                  <tr key={field.key}>
                    <th scope="row">{field.label}</th>
                    {records.map((record) => {
                      const value = record[field.key];
                      const isBest = best !== undefined && value === best;
                      return (
                        <td key={record.model_id} className={isBest ? 'compare-best' : undefined}>
                          {field.format(value)}
                          {isBest ? <span className="visually-hidden"> (lowest)</span> : null}
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
