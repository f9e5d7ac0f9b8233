// A modal dialog on the native <dialog> element: focus stays inside, Escape closes it, and it
// is named by its heading.
import { type ReactNode, useEffect, useId, useRef } from 'react';

export interface ModalProps {
  title: string;
  onClose(): void;
  children: ReactNode;
  /** alertdialog for questions that need an answer (a save conflict). */
  role?: 'dialog' | 'alertdialog';
  wide?: boolean;
}

export function Modal({ title, onClose, children, role = 'dialog', wide = false }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    const onCancel = (event: Event) => {
      event.preventDefault();
      close.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
    };
  }, []);
  return (
    <dialog ref={ref} className={`dashboard-modal${wide ? ' wide' : ''}`} aria-labelledby={headingId} {...(role === 'alertdialog' ? { role } : {})}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </dialog>
  );
}
