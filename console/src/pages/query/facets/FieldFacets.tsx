// The sidebar of the Query page listing the result's fields: expanding one counts its ten most
// frequent values over the query's rows, each with a bar and buttons to filter for or out.
// A null value is passed to onFilter as `null` (the page filters it with isnull()/isnotnull()).
import { ChevronDown, ChevronRight, CircleMinus, CirclePlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { type ResultField, runApl } from '../../../api/query';
import { topValuesQuery } from '../charts/derived-queries';
import { displayValue } from '../charts/series';
import './facets.css';

export interface FieldFacetsProps {
  apl: string;
  start: string;
  end: string;
  fields: ResultField[];
  onFilter(field: string, value: unknown, op: '==' | '!='): void;
}

interface TopValue {
  value: unknown;
  count: number;
}

type FacetState = { status: 'loading' } | { status: 'loaded'; values: TopValue[] } | { status: 'failed'; message: string };

/**
 * The fields the user opened, kept for the page's lifetime: the page unmounts the sidebar while
 * a query runs, and a filter reruns the query, after which the same facets should stay open.
 */
let rememberedExpanded: ReadonlySet<string> = new Set();

export function FieldFacets({ apl, start, end, fields, onFilter }: FieldFacetsProps) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(rememberedExpanded);
  const toggle = (name: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      rememberedExpanded = next;
      return next;
    });

  return (
    <section className="field-facets" aria-label="Field values">
      <h2 className="field-facets-title">Field values</h2>
      {fields.length === 0 ? <p className="muted">No fields</p> : null}
      <ul className="field-facets-list">
        {fields.map((field) => {
          const open = expanded.has(field.name);
          return (
            <li key={field.name} className="field-facet">
              <button type="button" className="field-facet-toggle" aria-expanded={open} onClick={() => toggle(field.name)}>
                {open ? <ChevronDown size={14} aria-hidden="true" /> : <ChevronRight size={14} aria-hidden="true" />}
                <span className="field-facet-name mono">{field.name}</span>
                <span className="field-facet-type muted">{field.type}</span>
              </button>
              {open ? <FacetValues apl={apl} start={start} end={end} field={field.name} onFilter={onFilter} /> : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function FacetValues({ apl, start, end, field, onFilter }: { apl: string; start: string; end: string; field: string; onFilter: FieldFacetsProps['onFilter'] }) {
  const [state, setState] = useState<FacetState>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    runApl({ apl: topValuesQuery(apl, field), startTime: start, endTime: end }, controller.signal)
      .then((answer) => {
        const table = answer.tables[0];
        const names = table?.fields.map((one) => one.name) ?? [];
        const valueColumn = table?.columns[names.indexOf(field)] ?? [];
        const countColumn = table?.columns[names.indexOf('count_')] ?? [];
        setState({ status: 'loaded', values: valueColumn.map((value, row) => ({ value: value ?? null, count: Number(countColumn[row] ?? 0) })) });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      });
    return () => controller.abort();
  }, [apl, start, end, field]);

  if (state.status === 'loading') return <p className="muted field-facet-note" aria-busy="true">Counting values…</p>;
  if (state.status === 'failed') return <p className="error-box field-facet-note">{state.message}</p>;
  if (state.values.length === 0) return <p className="muted field-facet-note">No values</p>;
  const highest = Math.max(...state.values.map((one) => one.count), 1);
  return (
    <ul className="facet-values" aria-label={`Top values of ${field}`}>
      {state.values.map((one, index) => {
        const shown = displayValue(one.value);
        return (
          <li key={`${shown}-${index}`} className="facet-value">
            <div className="facet-value-text">
              <span className={`facet-value-name mono${one.value === null ? ' muted' : ''}`} title={shown}>
                {shown}
              </span>
              <span className="facet-value-count">{one.count.toLocaleString()}</span>
              <button type="button" className="facet-filter" aria-label={`Filter for value ${shown}`} title={`Filter for ${shown}`} onClick={() => onFilter(field, one.value, '==')}>
                <CirclePlus size={14} aria-hidden="true" />
              </button>
              <button type="button" className="facet-filter" aria-label={`Filter out value ${shown}`} title={`Filter out ${shown}`} onClick={() => onFilter(field, one.value, '!=')}>
                <CircleMinus size={14} aria-hidden="true" />
              </button>
            </div>
            <div className="facet-value-bar" aria-hidden="true">
              <span style={{ width: `${(one.count / highest) * 100}%` }} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
