// What a save that met someone else's newer version shows: nothing is lost until the user
// chooses to load the stored version (dropping these changes) or to write these changes over it.
import { Modal } from './Modal';

export interface ConflictDialogProps {
  loadedVersion: number;
  currentVersion: number | undefined;
  message: string;
  onReload(): void;
  onOverwrite(): void;
  onCancel(): void;
}

export function ConflictDialog({ loadedVersion, currentVersion, message, onReload, onOverwrite, onCancel }: ConflictDialogProps) {
  return (
    <Modal title="Someone else saved this dashboard" onClose={onCancel} role="alertdialog">
      <p>
        You edited version {loadedVersion}; the stored dashboard is now at version {currentVersion ?? 'unknown'}. <span className="muted">{message}</span>
      </p>
      <p>Reload to see their version (your changes are dropped), or overwrite it with yours (theirs are dropped).</p>
      <div className="toolbar">
        <button type="button" className="button" onClick={onReload}>
          Reload
        </button>
        <button type="button" className="button primary" onClick={onOverwrite}>
          Overwrite
        </button>
        <button type="button" className="button ghost" onClick={onCancel}>
          Keep editing
        </button>
      </div>
    </Modal>
  );
}
