// The dataset's fields: the tree, and the picked field's metadata form and quick chart (events
// datasets only: APL does not read metrics).
import { useState } from 'react';
import { type DatasetField, listFields } from '../../../api/datasets';
import { ErrorBox } from '../ErrorBox';
import { useLoaded } from '../useLoaded';
import { buildFieldTree } from './field-tree';
import { FieldEditor } from './FieldEditor';
import { FieldTree } from './FieldTree';
import { QuickChart } from './QuickChart';

export function FieldsTab({ dataset, metrics }: { dataset: string; metrics: boolean }) {
  const [fields, reload] = useLoaded((signal) => listFields(dataset, signal), [dataset]);
  const [selectedName, setSelectedName] = useState<string>();

  if (fields.phase === 'loading') return <p className="muted">Loading fields…</p>;
  if (fields.phase === 'error') return <ErrorBox message={fields.message} />;
  const list = fields.value;
  const selected: DatasetField | undefined = list.find((field) => field.name === selectedName) ?? list.find((field) => field.name === '_time') ?? list[0];
  return (
    <section aria-label="Fields">
      <h2 className="visually-hidden">Fields</h2>
      <p className="muted">
        {list.length.toLocaleString('en-US')} {list.length === 1 ? 'field' : 'fields'}
      </p>
      {list.length === 0 ? (
        <p className="muted">No fields yet: they appear as events arrive (see Upload and Send data).</p>
      ) : (
        <div className="fields-layout">
          <FieldTree nodes={buildFieldTree(list)} selected={selected?.name} onSelect={(field) => setSelectedName(field.name)} />
          {selected && (
            <div className="field-detail">
              <FieldEditor dataset={dataset} field={selected} onSaved={reload} />
              {metrics ? <p className="muted">A metrics dataset is queried with MPL, so its fields get no quick chart here.</p> : <QuickChart dataset={dataset} field={selected} />}
            </div>
          )}
        </div>
      )}
    </section>
  );
}
