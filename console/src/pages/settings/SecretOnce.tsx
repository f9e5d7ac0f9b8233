// A secret the server shows only once (a new token, an invitation link): shown in full, with a
// button that copies it, and a word that it will not be shown again.
import { Check, Copy } from 'lucide-react';
import { useState } from 'react';

export function SecretOnce({ label, value, note, onDone }: { label: string; value: string; note: string; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    navigator.clipboard.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <section className="secret-once" aria-label={label}>
      <p className="secret-note">{note}</p>
      <div className="toolbar">
        <input className="mono secret-value" readOnly value={value} aria-label={label} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" className="button" onClick={copy}>
          {copied ? <Check size={16} aria-hidden="true" /> : <Copy size={16} aria-hidden="true" />}
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className="button ghost" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
