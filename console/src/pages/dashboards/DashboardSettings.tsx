// The dashboard's own fields in edit mode: name, description and who it is shared with.
import type { DashboardDocument } from '../../api/dashboards';
import { EVERYONE } from './document';

export interface DashboardSettingsProps {
  document: DashboardDocument;
  currentUserId: string | undefined;
  onChange(document: DashboardDocument): void;
}

export function DashboardSettings({ document, currentUserId, onChange }: DashboardSettingsProps) {
  const owners = [
    { value: EVERYONE, label: 'Everyone in the organization' },
    ...(currentUserId ? [{ value: currentUserId, label: 'Only me' }] : []),
    ...(document.owner !== EVERYONE && document.owner !== currentUserId ? [{ value: document.owner, label: `${document.owner} (as saved)` }] : []),
  ];
  return (
    <fieldset className="dashboard-settings toolbar">
      <legend className="visually-hidden">Dashboard settings</legend>
      <label className="dashboard-filter">
        Name
        <input value={document.name} onChange={(event) => onChange({ ...document, name: event.target.value })} maxLength={100} required />
      </label>
      <label className="dashboard-filter dashboard-description">
        Description
        <input
          value={document.description ?? ''}
          onChange={(event) => {
            const next: DashboardDocument = { ...document, description: event.target.value };
            if (!event.target.value) delete next.description;
            onChange(next);
          }}
          maxLength={1000}
        />
      </label>
      <label className="dashboard-filter">
        Shared with
        <select value={document.owner} onChange={(event) => onChange({ ...document, owner: event.target.value })}>
          {owners.map((owner) => (
            <option key={owner.value} value={owner.value}>
              {owner.label}
            </option>
          ))}
        </select>
      </label>
    </fieldset>
  );
}
