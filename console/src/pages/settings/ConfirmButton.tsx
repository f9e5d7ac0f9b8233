// A button for something that cannot be undone (remove, delete, revoke): the first press asks,
// the second does it, so nothing ends by a slip of the mouse and no browser dialog is needed.
import { useState } from 'react';

/** `subject` names what the button acts on, for its accessible name ("Revoke laptop"). */
export function ConfirmButton({ label, confirmLabel, subject, onConfirm, disabled }: { label: string; confirmLabel: string; subject: string; onConfirm(): void; disabled?: boolean }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="button small" aria-label={`${label} ${subject}`.trim()} disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="toolbar">
      <button
        type="button"
        className="button small danger"
        aria-label={`${confirmLabel} ${subject}`.trim()}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="button small ghost" aria-label={subject ? `Cancel: keep ${subject}` : "Cancel"} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
