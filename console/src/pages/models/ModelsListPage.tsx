// The catalog browser: the models filtered by provider, type and capabilities (by the catalog
// API), by context window, prices and a text search (here), sorted, a page of 50 at a time; pick
// two to four models to compare them side by side.
import { Columns3 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useSearchWriter } from '../../app/useSearchWriter';
import { catalogFacets, listModels } from '../../api/models';
import { capabilityLabel, formatPerMillion, formatTokens } from './format';
import { capabilitiesOf, type ListState, listStateFrom, PAGE_SIZE, refine, searchFrom, SORTS, sortModels } from './model-list';
import { compareHref, modelHref } from './links';
import { useLoad } from './useLoad';

const MAX_COMPARE = 4;

export function ModelsListPage() {
  const { org = '' } = useParams();
  const [search, writeSearch] = useSearchWriter();
  const state = useMemo(() => listStateFrom(search), [search]);
  const navigate = useNavigate();
  const [selected, setSelected] = useState<string[]>([]);
  const facets = useLoad((signal) => catalogFacets(signal), []);
  const models = useLoad(
    (signal) => listModels({ ...(state.provider ? { providers: [state.provider] } : {}), ...(state.type ? { types: [state.type] } : {}), capabilities: state.capabilities }, signal),
    [state.provider, state.type, state.capabilities.join(',')],
  );

  // A filter or sort change goes back to the first page.
  const update = (next: Partial<ListState> | ((current: ListState) => Partial<ListState>)) =>
    writeSearch(
      (from) => {
        const current = listStateFrom(from);
        return searchFrom({ ...current, page: 0, ...(typeof next === 'function' ? next(current) : next) });
      },
      { replace: true },
    );
  const shown = useMemo(() => (models.data ? sortModels(refine(models.data, state), state.sort) : []), [models.data, state]);
  const pageCount = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const page = Math.min(state.page, pageCount - 1);
  const rows = shown.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);

  const toggleSelected = (id: string) =>
    setSelected((current) => (current.includes(id) ? current.filter((one) => one !== id) : current.length >= MAX_COMPARE ? current : [...current, id]));
  const toggleCapability = (field: string) =>
    update((current) => ({ capabilities: current.capabilities.includes(field) ? current.capabilities.filter((one) => one !== field) : [...current.capabilities, field] }));

  return (
    <section className="page models-page">
      <header className="page-header">
        <h1>Models</h1>
        <span className="muted">{facets.data ? `${facets.data.modelCount.toLocaleString('en-US')} models in the catalog` : null}</span>
        <div className="toolbar">
          <span className="muted" aria-live="polite">
            {selected.length > 0 ? `${selected.length} selected` : 'Select 2 to 4 models to compare'}
          </span>
          <button
            type="button"
            className="button primary"
            disabled={selected.length < 2}
            onClick={() => navigate(compareHref(org, selected))}
          >
            <Columns3 size={16} aria-hidden="true" />
            Compare selected
          </button>
        </div>
      </header>

      <form className="models-filters" role="search" aria-label="Filter models" onSubmit={(event) => event.preventDefault()}>
        <label>
          Search
          <input type="search" value={state.search} placeholder="Model id or name" onChange={(event) => update({ search: event.target.value })} />
        </label>
        <label>
          Provider
          <select aria-label="Provider" value={state.provider} onChange={(event) => update({ provider: event.target.value })}>
            <option value="">All providers</option>
            {(facets.data?.providers ?? []).map((provider) => (
              <option key={provider.name} value={provider.name}>
                {provider.name} ({provider.count})
              </option>
            ))}
          </select>
        </label>
        <label>
          Type
          <select aria-label="Type" value={state.type} onChange={(event) => update({ type: event.target.value })}>
            <option value="">All types</option>
            {(facets.data?.types ?? []).map((type) => (
              <option key={type.name} value={type.name}>
                {type.name} ({type.count})
              </option>
            ))}
          </select>
        </label>
        <label>
          Min context window (tokens)
          <input type="number" min={0} inputMode="numeric" value={state.minContext} onChange={(event) => update({ minContext: event.target.value })} />
        </label>
        <label>
          Max input price ($/M tokens)
          <input type="number" min={0} step="any" value={state.maxInputPrice} onChange={(event) => update({ maxInputPrice: event.target.value })} />
        </label>
        <label>
          Max output price ($/M tokens)
          <input type="number" min={0} step="any" value={state.maxOutputPrice} onChange={(event) => update({ maxOutputPrice: event.target.value })} />
        </label>
        <label>
          Sort by
          <select aria-label="Sort by" value={state.sort} onChange={(event) => update({ sort: event.target.value as ListState['sort'] })}>
            {SORTS.map((sort) => (
              <option key={sort.value} value={sort.value}>
                {sort.label}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="models-capabilities">
          <legend>Capabilities (all required)</legend>
          {(facets.data?.capabilities ?? []).map((capability) => (
            <label key={capability.name} className="checkbox">
              <input type="checkbox" checked={state.capabilities.includes(capability.name)} onChange={() => toggleCapability(capability.name)} />
              {capabilityLabel(capability.name)}
            </label>
          ))}
        </fieldset>
      </form>

      {facets.state === 'error' ? <p className="error-box">{facets.message}</p> : null}
      {models.state === 'error' ? <p className="error-box">{models.message}</p> : null}
      <p className="muted" role="status">
        {models.state === 'loading' && !models.data ? 'Loading models…' : `${shown.length.toLocaleString('en-US')} models match`}
      </p>

      {rows.length > 0 ? (
        <div className="models-table-wrap">
          <table className="models-table" aria-label="Models">
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Compare</span>
                </th>
                <th scope="col">Model</th>
                <th scope="col">Provider</th>
                <th scope="col">Type</th>
                <th scope="col" className="number">Context window</th>
                <th scope="col" className="number">Max output</th>
                <th scope="col" className="number">Input $/M</th>
                <th scope="col" className="number">Output $/M</th>
                <th scope="col" className="number">Cache read $/M</th>
                <th scope="col">Capabilities</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((model) => (
                <tr key={model.model_id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select ${model.model_id} to compare`}
                      checked={selected.includes(model.model_id)}
                      disabled={!selected.includes(model.model_id) && selected.length >= MAX_COMPARE}
                      onChange={() => toggleSelected(model.model_id)}
                    />
                  </td>
                  <th scope="row">
                    <Link to={modelHref(org, model.model_id)} className="mono">
                      {model.model_id}
                    </Link>
                    {model.deprecation_date ? <span className="models-badge">deprecated {model.deprecation_date}</span> : null}
                  </th>
                  <td>{model.provider_name || model.provider_id}</td>
                  <td>{model.model_type}</td>
                  <td className="number">{formatTokens(model.max_input_tokens)}</td>
                  <td className="number">{formatTokens(model.max_output_tokens)}</td>
                  <td className="number">{formatPerMillion(model.input_cost_per_million)}</td>
                  <td className="number">{formatPerMillion(model.output_cost_per_million)}</td>
                  <td className="number">{formatPerMillion(model.cache_read_cost_per_million)}</td>
                  <td className="models-caps">{capabilitiesOf(model).map(capabilityLabel).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : models.state === 'done' ? (
        <p className="muted">No model matches these filters.</p>
      ) : null}

      {pageCount > 1 ? (
        <nav className="toolbar models-pager" aria-label="Pages of models">
          <button type="button" className="button" disabled={page === 0} onClick={() => update({ page: page - 1 })}>
            Previous page
          </button>
          <span>
            Page {page + 1} of {pageCount} ({page * PAGE_SIZE + 1}–{Math.min(shown.length, (page + 1) * PAGE_SIZE)})
          </span>
          <button type="button" className="button" disabled={page >= pageCount - 1} onClick={() => update({ page: page + 1 })}>
            Next page
          </button>
        </nav>
      ) : null}
    </section>
  );
}
