// Where the chosen dataset keeps its calls' model, tokens, service, conversation and messages.
// The defaults are the OpenTelemetry GenAI attributes as OTLP ingest stores them; plain events
// name their own fields here.
import { useEffect, useState } from 'react';
import type { GenAiFields } from '../../api/llm';
import { OTEL_FIELDS } from './url-state';

interface Draft {
  model: string;
  inputTokens: string;
  outputTokens: string;
  cacheReadTokens: string;
  service: string;
  conversation: string;
  inputMessages: string;
  outputMessages: string;
}

const draftOf = (fields: GenAiFields): Draft => ({ ...fields, model: fields.model.join(', ') });
const fieldsOf = (draft: Draft): GenAiFields => ({
  ...draft,
  model: draft.model.split(',').map((name) => name.trim()).filter(Boolean),
  inputTokens: draft.inputTokens.trim(),
  outputTokens: draft.outputTokens.trim(),
  cacheReadTokens: draft.cacheReadTokens.trim(),
  service: draft.service.trim(),
  conversation: draft.conversation.trim(),
  inputMessages: draft.inputMessages.trim(),
  outputMessages: draft.outputMessages.trim(),
});

const LABELS: [keyof Draft, string, string][] = [
  ['model', 'Model fields', 'comma list, the first non-empty wins'],
  ['inputTokens', 'Input tokens field', ''],
  ['outputTokens', 'Output tokens field', ''],
  ['cacheReadTokens', 'Cache read tokens field', 'optional; gives the cache savings'],
  ['service', 'Service field', ''],
  ['conversation', 'Conversation id field', 'optional'],
  ['inputMessages', 'Input messages field', 'optional'],
  ['outputMessages', 'Output messages field', 'optional'],
];

export function FieldsForm({ fields, onApply }: { fields: GenAiFields; onApply(fields: GenAiFields): void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(fields));
  useEffect(() => setDraft(draftOf(fields)), [fields]);
  return (
    <details className="costs-fields">
      <summary>Fields</summary>
      <form
        className="costs-fields-form"
        onSubmit={(event) => {
          event.preventDefault();
          onApply(fieldsOf(draft));
        }}
      >
        {LABELS.map(([key, label, hint]) => (
          <label key={key}>
            {label}
            {hint ? <span className="muted"> ({hint})</span> : null}
            <input className="mono" value={draft[key]} onChange={(event) => setDraft({ ...draft, [key]: event.target.value })} />
          </label>
        ))}
        <div className="toolbar">
          <button type="submit" className="button primary">
            Apply fields
          </button>
          <button type="button" className="button" onClick={() => onApply(OTEL_FIELDS)}>
            Use OpenTelemetry fields
          </button>
        </div>
      </form>
    </details>
  );
}
