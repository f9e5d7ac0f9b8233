// /datasets/:name: one dataset, its tabs (fields, virtual fields, map fields, views, upload,
// "Send data", settings), each at its own address so a link opens the same tab.
import { ArrowLeft, Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, NavLink, Route, Routes, useNavigate, useParams } from 'react-router';
import { type Dataset, getDataset, METRICS_KIND } from '../../api/datasets';
import { handOffSearch } from '../query/hand-off';
import { datasetRef } from '../query/apl-text';
import { ErrorBox } from './ErrorBox';
import { EventCount } from './list/EventCount';
import { FieldsTab } from './fields/FieldsTab';
import { MapFieldsTab } from './objects/MapFieldsTab';
import { ViewsTab } from './objects/ViewsTab';
import { VirtualFieldsTab } from './objects/VirtualFieldsTab';
import { SendDataTab } from './send/SendDataTab';
import { SettingsTab } from './settings/SettingsTab';
import { UploadTab } from './upload/UploadTab';
import { useLoaded } from './useLoaded';
import './datasets.css';

const TABS = [
  { path: '', label: 'Fields' },
  { path: 'virtual-fields', label: 'Virtual fields' },
  { path: 'map-fields', label: 'Map fields' },
  { path: 'views', label: 'Views' },
  { path: 'upload', label: 'Upload' },
  { path: 'send', label: 'Send data' },
  { path: 'settings', label: 'Settings' },
];

export function DatasetPage() {
  const { org, name } = useParams();
  const navigate = useNavigate();
  const [loaded] = useLoaded((signal) => getDataset(name!, signal), [name]);
  const [dataset, setDataset] = useState<Dataset>();
  useEffect(() => setDataset(loaded.phase === 'done' ? loaded.value : undefined), [loaded]);
  const list = `/${encodeURIComponent(org!)}/datasets`;
  const base = `${list}/${encodeURIComponent(name!)}`;

  if (loaded.phase === 'error') {
    return (
      <section className="page">
        <h1>{name}</h1>
        <ErrorBox message={loaded.message} />
        <Link to={list}>All datasets</Link>
      </section>
    );
  }
  const metrics = dataset?.kind === METRICS_KIND;
  const queryLink = `/${encodeURIComponent(org!)}/query?${handOffSearch({ apl: datasetRef(name!), start: 'now-1h', end: 'now' })}`;
  return (
    <section className="page" aria-labelledby="dataset-title">
      <header className="page-header">
        <Link to={list} className="button ghost" aria-label="All datasets">
          <ArrowLeft size={16} aria-hidden="true" />
        </Link>
        <h1 id="dataset-title">{name}</h1>
        {!metrics && (
          <div className="toolbar">
            <Link className="button" to={queryLink}>
              <Search size={16} aria-hidden="true" />
              Query
            </Link>
          </div>
        )}
      </header>
      {dataset && (
        <p className="dataset-meta muted">
          <span className="mono">{dataset.kind}</span>
          {dataset.description && <span>{dataset.description}</span>}
          <span>{dataset.useRetentionPeriod ? `Kept ${dataset.retentionDays} days` : 'Kept until trimmed'}</span>
          {!metrics && (
            <span>
              Events: <EventCount dataset={dataset.name} />
            </span>
          )}
        </p>
      )}
      <nav className="datasets-tabs" aria-label="Dataset">
        {TABS.map((tab) => (
          <NavLink key={tab.path} to={tab.path ? `${base}/${tab.path}` : base} end className={({ isActive }) => (isActive ? 'active' : '')}>
            {tab.label}
          </NavLink>
        ))}
      </nav>
      {!dataset ? (
        <p className="muted">Loading…</p>
      ) : (
        <Routes>
          <Route index element={<FieldsTab dataset={dataset.name} metrics={metrics} />} />
          <Route path="virtual-fields" element={<VirtualFieldsTab dataset={dataset.name} />} />
          <Route path="map-fields" element={<MapFieldsTab dataset={dataset.name} />} />
          <Route path="views" element={<ViewsTab dataset={dataset.name} />} />
          <Route path="upload" element={<UploadTab dataset={dataset.name} />} />
          <Route path="send" element={<SendDataTab dataset={dataset.name} metrics={metrics} />} />
          <Route path="settings" element={<SettingsTab dataset={dataset} onChanged={setDataset} onDeleted={() => navigate(list)} />} />
          <Route path="*" element={<ErrorBox message="This dataset has no such tab." />} />
        </Routes>
      )}
    </section>
  );
}
