// Editing a capability set (a custom role's, an API token's) as grids of capabilities × actions:
// one for the organization, and one per dataset scope and per view scope (a name, or "*" for
// every one). Only the actions the API allows for a capability get a checkbox.
import { useId, useState } from 'react';
import type { Action, CapabilitySet } from '../../api/settings';
import { ACTIONS, capabilityLabel, DATASET_CAPABILITIES, ORG_CAPABILITIES, VIEW_CAPABILITIES } from './capability-catalog';

type Grants = Partial<Record<string, Action[]>>;

function toggled(grants: Grants, capability: string, action: Action, on: boolean): Grants {
  const current = new Set(grants[capability] ?? []);
  if (on) current.add(action);
  else current.delete(action);
  const next = { ...grants };
  if (current.size === 0) delete next[capability];
  else next[capability] = ACTIONS.filter((candidate) => current.has(candidate));
  return next;
}

function Grid({ caption, catalog, grants, onChange, labelPrefix }: { caption: string; catalog: Record<string, Action[]>; grants: Grants; onChange(next: Grants): void; labelPrefix: string }) {
  return (
    <table className="capability-grid">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Capability</th>
          {ACTIONS.map((action) => (
            <th key={action} scope="col">
              {action}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {Object.entries(catalog).map(([capability, allowed]) => (
          <tr key={capability}>
            <th scope="row">{capabilityLabel(capability)}</th>
            {ACTIONS.map((action) => (
              <td key={action}>
                {allowed.includes(action) ? (
                  <input
                    type="checkbox"
                    aria-label={`${labelPrefix}${capabilityLabel(capability)} ${action}`}
                    checked={grants[capability]?.includes(action) ?? false}
                    onChange={(event) => onChange(toggled(grants, capability, action, event.target.checked))}
                  />
                ) : null}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ScopedGrids({
  kind,
  catalog,
  scopes,
  suggestions,
  onChange,
}: {
  kind: 'dataset' | 'view';
  catalog: Record<string, Action[]>;
  scopes: Record<string, Grants>;
  suggestions: string[];
  onChange(next: Record<string, Grants>): void;
}) {
  const [adding, setAdding] = useState('');
  const listId = useId();
  const everyOne = kind === 'dataset' ? 'Every dataset' : 'Every view';
  const scopeName = (scope: string) => (scope === '*' ? everyOne : `${kind === 'dataset' ? 'Dataset' : 'View'} ${scope}`);
  const add = () => {
    const name = adding.trim();
    if (!name || scopes[name]) return;
    onChange({ ...scopes, [name]: {} });
    setAdding('');
  };
  return (
    <div className="capability-scopes">
      {Object.entries(scopes).map(([scope, grants]) => (
        <div key={scope} className="capability-scope">
          <Grid
            caption={scopeName(scope)}
            catalog={catalog}
            grants={grants}
            labelPrefix={`${scope === '*' ? everyOne : scope} `}
            onChange={(next) => onChange({ ...scopes, [scope]: next })}
          />
          <button
            type="button"
            className="button small ghost"
            onClick={() => {
              const next = { ...scopes };
              delete next[scope];
              onChange(next);
            }}
          >
            Remove {scopeName(scope).toLowerCase()}
          </button>
        </div>
      ))}
      <div className="toolbar">
        <label>
          <span className="visually-hidden">{kind === 'dataset' ? 'Dataset name or *' : 'View name or *'}</span>
          <input
            list={listId}
            placeholder={kind === 'dataset' ? 'dataset name or *' : 'view name or *'}
            value={adding}
            onChange={(event) => setAdding(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                add();
              }
            }}
          />
        </label>
        <datalist id={listId}>
          <option value="*" />
          {suggestions.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        <button type="button" className="button small" onClick={add}>
          {kind === 'dataset' ? 'Add dataset scope' : 'Add view scope'}
        </button>
      </div>
    </div>
  );
}

/** Drops scopes left without any action, which the API would store as empty objects. */
export function withoutEmptyScopes(set: CapabilitySet): CapabilitySet {
  const prune = (scopes: Record<string, Grants>) => Object.fromEntries(Object.entries(scopes).filter(([, grants]) => Object.keys(grants).length > 0));
  return { datasetCapabilities: prune(set.datasetCapabilities), orgCapabilities: set.orgCapabilities, viewCapabilities: prune(set.viewCapabilities) };
}

export function CapabilityGrid({ value, onChange, datasets }: { value: CapabilitySet; onChange(next: CapabilitySet): void; datasets: string[] }) {
  return (
    <fieldset className="capability-editor">
      <legend>Capabilities</legend>
      <h3>Datasets</h3>
      <ScopedGrids kind="dataset" catalog={DATASET_CAPABILITIES} scopes={value.datasetCapabilities} suggestions={datasets} onChange={(datasetCapabilities) => onChange({ ...value, datasetCapabilities })} />
      <h3>Organization</h3>
      <Grid caption="Capabilities on the organization" catalog={ORG_CAPABILITIES} grants={value.orgCapabilities} labelPrefix="" onChange={(orgCapabilities) => onChange({ ...value, orgCapabilities })} />
      <h3>Views</h3>
      <ScopedGrids kind="view" catalog={VIEW_CAPABILITIES} scopes={value.viewCapabilities} suggestions={[]} onChange={(viewCapabilities) => onChange({ ...value, viewCapabilities })} />
    </fieldset>
  );
}

/** A short line for lists: how many capabilities the set holds, and on which datasets. */
export function capabilitySummary(set: CapabilitySet): string {
  const datasets = Object.keys(set.datasetCapabilities ?? {});
  const org = Object.keys(set.orgCapabilities ?? {}).length;
  const views = Object.keys(set.viewCapabilities ?? {});
  const parts: string[] = [];
  if (datasets.length) parts.push(`datasets: ${datasets.map((name) => (name === '*' ? 'all' : name)).join(', ')}`);
  if (org) parts.push(`${org} organization capabilit${org === 1 ? 'y' : 'ies'}`);
  if (views.length) parts.push(`views: ${views.map((name) => (name === '*' ? 'all' : name)).join(', ')}`);
  return parts.join(' · ') || 'no capabilities';
}
