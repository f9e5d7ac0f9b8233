// Chooses what to follow: one of the organization's event datasets, or a starred query that
// reads one dataset through a filter (other starred queries are refused with the reason).
import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import { listStarredQueries, type StarredQuery } from '../../api/starred';
import { type DatasetSummary, listEventDatasets } from '../../api/tail-sources';
import { tailQueryOf } from './tail-query';

interface SourcePickerProps {
  dataset: string | undefined;
  onDataset(dataset: string): void;
  onStarred(dataset: string, filter: string): void;
  onRefused(message: string | undefined): void;
}

export function SourcePicker({ dataset, onDataset, onStarred, onRefused }: SourcePickerProps) {
  const [datasets, setDatasets] = useState<DatasetSummary[] | undefined>(undefined);
  const [starred, setStarred] = useState<StarredQuery[]>([]);
  const [loadError, setLoadError] = useState<string | undefined>(undefined);
  const [starredChoice, setStarredChoice] = useState('');

  useEffect(() => {
    const abort = new AbortController();
    listEventDatasets(abort.signal).then(setDatasets, (error: unknown) => {
      if (!abort.signal.aborted) setLoadError(error instanceof ApiError ? error.message : String(error));
    });
    // Starred queries are optional: without the right to read them, the picker just has none.
    listStarredQueries(abort.signal).then((queries) => setStarred([...queries].sort((a, b) => a.name.localeCompare(b.name))), () => undefined);
    return () => abort.abort();
  }, []);

  const chooseStarred = (id: string) => {
    setStarredChoice(id);
    const query = starred.find((candidate) => candidate.id === id);
    if (!query) return;
    const tail = tailQueryOf(typeof query.query.apl === 'string' ? query.query.apl : '');
    if (!tail.ok) {
      onRefused(`"${query.name}" cannot be followed live: ${tail.reason}.`);
      return;
    }
    onRefused(undefined);
    onStarred(tail.dataset, tail.filter);
  };

  const names = datasets?.map((candidate) => candidate.name) ?? [];
  const listed = dataset && !names.includes(dataset) ? [dataset, ...names] : names;

  return (
    <>
      <label className="stream-field-label">
        <span>Dataset</span>
        <select
          aria-label="Dataset"
          value={dataset ?? ''}
          onChange={(event) => {
            setStarredChoice('');
            onRefused(undefined);
            onDataset(event.target.value);
          }}
        >
          <option value="" disabled>
            {datasets === undefined ? 'Loading…' : listed.length === 0 ? 'No datasets' : 'Choose a dataset'}
          </option>
          {listed.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      {starred.length > 0 && (
        <label className="stream-field-label">
          <span>Starred query</span>
          <select aria-label="Starred query" value={starredChoice} onChange={(event) => chooseStarred(event.target.value)}>
            <option value="">None</option>
            {starred.map((query) => (
              <option key={query.id} value={query.id}>
                {query.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {loadError && <span className="form-error">Datasets could not be listed: {loadError}</span>}
    </>
  );
}
