// Which fields the table view shows: a checkbox per field of the answer.
import { Columns3 } from 'lucide-react';
import type { ResultField } from '../../api/query';

export function FieldToggles({ fields, hidden, onChange }: { fields: ResultField[]; hidden: ReadonlySet<string>; onChange(hidden: Set<string>): void }) {
  const toggle = (name: string, shown: boolean) => {
    const next = new Set(hidden);
    if (shown) next.delete(name);
    else next.add(name);
    onChange(next);
  };
  return (
    <details className="menu">
      <summary className="button">
        <Columns3 size={16} aria-hidden="true" />
        Fields
      </summary>
      <fieldset className="popover menu-list field-toggles">
        <legend className="visually-hidden">Shown fields</legend>
        <div className="toolbar">
          <button type="button" className="button small" onClick={() => onChange(new Set())}>
            Show all
          </button>
          <button type="button" className="button small" onClick={() => onChange(new Set(fields.map((field) => field.name)))}>
            Hide all
          </button>
        </div>
        {fields.map((field) => (
          <label key={field.name} className="field-toggle">
            <input type="checkbox" checked={!hidden.has(field.name)} onChange={(event) => toggle(field.name, event.target.checked)} />
            <span className="mono">{field.name}</span>
            <span className="muted">{field.type}</span>
          </label>
        ))}
      </fieldset>
    </details>
  );
}
