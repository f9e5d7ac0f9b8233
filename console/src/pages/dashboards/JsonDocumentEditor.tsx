// The whole dashboard document as JSON in CodeMirror: edit it, then apply it to the dashboard
// being edited (the server checks it on save). Invalid JSON says where it breaks.
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef, useState } from 'react';
import type { DashboardDocument } from '../../api/dashboards';
import { Modal } from './Modal';

const cspNonce = () => document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';

export interface JsonDocumentEditorProps {
  document: DashboardDocument;
  onApply(document: DashboardDocument): void;
  onClose(): void;
}

export function JsonDocumentEditor({ document: dashboard, onApply, onClose }: JsonDocumentEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const [problem, setProblem] = useState<string | undefined>();

  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: JSON.stringify(dashboard, null, 2),
        extensions: [
          EditorView.cspNonce.of(cspNonce()),
          lineNumbers(),
          history(),
          bracketMatching(),
          json(),
          syntaxHighlighting(defaultHighlightStyle),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          EditorView.contentAttributes.of({ 'aria-label': 'Dashboard JSON' }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
    // The text is loaded once; later edits belong to the editor.
  }, []);

  const apply = () => {
    const text = view.current?.state.doc.toString() ?? '';
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('the document must be a JSON object');
      const { charts, layout } = parsed as { charts?: unknown; layout?: unknown };
      if (!Array.isArray(charts) || !Array.isArray(layout)) throw new Error('the document needs a "charts" list and a "layout" list');
      const badChart = charts.findIndex((chart) => typeof chart !== 'object' || chart === null || typeof (chart as { id?: unknown }).id !== 'string' || typeof (chart as { type?: unknown }).type !== 'string');
      if (badChart >= 0) throw new Error(`charts[${badChart}] needs a string "id" and "type"`);
      const badItem = layout.findIndex((item) => typeof item !== 'object' || item === null || typeof (item as { i?: unknown }).i !== 'string');
      if (badItem >= 0) throw new Error(`layout[${badItem}] needs a string "i" naming its chart`);
      onApply(parsed as DashboardDocument);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <Modal title="Dashboard JSON" onClose={onClose} wide>
      <div ref={host} className="dashboard-json-editor" />
      {problem ? (
        <p className="error-box" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="toolbar">
        <button type="button" className="button primary" onClick={apply}>
          Apply JSON
        </button>
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
