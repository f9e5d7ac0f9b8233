// Choosing a catalog model: a search box narrowing a select of the catalog's priced models
// (id, provider and prices per million tokens).
import { useId, useMemo, useState } from 'react';
import { listModels, type ModelListItem } from '../../api/models';
import { formatPerMillion } from '../models/format';
import { useLoad } from '../models/useLoad';

const SHOWN = 300;

export interface ModelPickerProps {
  label: string;
  value: string;
  onChange(modelId: string, model: ModelListItem | undefined): void;
}

export function ModelPicker({ label, value, onChange }: ModelPickerProps) {
  const id = useId();
  const [needle, setNeedle] = useState('');
  const models = useLoad((signal) => listModels({}, signal), []);
  const priced = useMemo(() => (models.data ?? []).filter((model) => model.input_cost_per_million !== null || model.output_cost_per_million !== null), [models.data]);
  const matches = useMemo(() => {
    const text = needle.trim().toLowerCase();
    const found = text ? priced.filter((model) => `${model.provider_id} ${model.model_id}`.toLowerCase().includes(text)) : priced;
    const shown = found.slice(0, SHOWN);
    const current = priced.find((model) => model.model_id === value);
    return current && !shown.includes(current) ? [current, ...shown] : shown;
  }, [priced, needle, value]);

  return (
    <div className="model-picker" role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`} className="model-picker-label">
        {label}
      </span>
      <label>
        <span className="visually-hidden">Search models</span>
        <input type="search" placeholder="Search models" value={needle} onChange={(event) => setNeedle(event.target.value)} aria-label="Search models" />
      </label>
      <label>
        <span className="visually-hidden">{label}</span>
        <select
          aria-label={label}
          value={value}
          onChange={(event) => onChange(event.target.value, priced.find((model) => model.model_id === event.target.value))}
        >
          <option value="">Choose a model…</option>
          {matches.map((model) => (
            <option key={model.model_id} value={model.model_id}>
              {model.model_id} ({model.provider_id}) · in {formatPerMillion(model.input_cost_per_million)} / out {formatPerMillion(model.output_cost_per_million)} per M
            </option>
          ))}
        </select>
      </label>
      {models.state === 'error' ? <span className="form-error">{models.message}</span> : null}
    </div>
  );
}
