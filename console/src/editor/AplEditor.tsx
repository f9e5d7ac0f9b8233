// The APL editor of the console (CodeMirror 6): highlighting with the server's lexer, completion
// of datasets, fields, operators and functions, syntax errors as you type from the server's
// parser, Ctrl/Cmd+Enter to run. A controlled component: `value` in, `onChange` out; a value
// changed by the page (a query from the URL, a facet's filter) is applied as the smallest edit,
// so the cursor stays where it was when it can.
import { acceptCompletion, autocompletion } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching } from '@codemirror/language';
import { forEachDiagnostic } from '@codemirror/lint';
import { Annotation, Compartment, EditorState, Prec } from '@codemirror/state';
import { drawSelection, EditorView, keymap, placeholder as placeholderText } from '@codemirror/view';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { aplCompletionSource } from './completion';
import { aplDiagnostics } from './diagnostics';
import { aplHighlighting } from './highlight';
import { editorOptions } from './options';
import { replaceSelectionInEditor } from './replace-selection';
import './editor.css';

export interface AplEditorProps {
  value: string;
  onChange(value: string): void;
  /** Ctrl/Cmd+Enter (and Enter in predicate mode). */
  onRun(): void;
  /** Accessible name; "Query" by default. */
  label?: string;
  /** A single predicate (as after `where`) rather than a whole query, for filters. */
  mode?: 'query' | 'predicate';
  placeholder?: string;
  /** Datasets whose fields complete in predicate mode (a query names its own). */
  datasets?: readonly string[];
  className?: string;
}

/** Marks edits that come from the `value` property, which must not be echoed back to onChange. */
const fromProps = Annotation.define<boolean>();

/** The smallest change turning `current` into `next`: common prefix and suffix kept. */
function smallestChange(current: string, next: string): { from: number; to: number; insert: string } {
  let start = 0;
  while (start < current.length && start < next.length && current[start] === next[start]) start++;
  let endCurrent = current.length;
  let endNext = next.length;
  while (endCurrent > start && endNext > start && current[endCurrent - 1] === next[endNext - 1]) {
    endCurrent--;
    endNext--;
  }
  return { from: start, to: endCurrent, insert: next.slice(start, endNext) };
}

const cspNonce = () => document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';

export function AplEditor({ value, onChange, onRun, label = 'Query', mode = 'query', placeholder, datasets, className }: AplEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const errorId = useId();
  const [error, setError] = useState<string | undefined>(undefined);
  const callbacks = useRef({ onChange, onRun });
  callbacks.current = { onChange, onRun };
  const datasetList = useMemo(() => [...(datasets ?? [])], [datasets?.join('\u0000')]);

  const compartments = useMemo(() => ({ options: new Compartment(), attributes: new Compartment(), placeholder: new Compartment(), keys: new Compartment() }), []);

  const optionsExtension = () => editorOptions.of({ mode, datasets: datasetList });
  const attributesExtension = () =>
    EditorView.contentAttributes.of({
      'aria-label': label,
      'aria-describedby': errorId,
      ...(error ? { 'aria-invalid': 'true' } : {}),
      ...(mode === 'predicate' ? { 'aria-multiline': 'false' } : {}),
    });
  const placeholderExtension = () => (placeholder ? placeholderText(placeholder) : []);
  const keysExtension = () => {
    const run = () => {
      callbacks.current.onRun();
      return true;
    };
    return Prec.highest(keymap.of([{ key: 'Mod-Enter', run }, ...(mode === 'predicate' ? [{ key: 'Enter', run }] : [])]));
  };

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          EditorView.cspNonce.of(cspNonce()),
          history(),
          drawSelection(),
          bracketMatching(),
          EditorView.lineWrapping,
          replaceSelectionInEditor,
          aplHighlighting,
          aplDiagnostics,
          autocompletion({ override: [aplCompletionSource], icons: false }),
          // After autocompletion, so Enter picks a completion while the list is open.
          compartments.keys.of(keysExtension()),
          keymap.of([{ key: 'Tab', run: acceptCompletion }, ...defaultKeymap, ...historyKeymap]),
          compartments.options.of(optionsExtension()),
          compartments.attributes.of(attributesExtension()),
          compartments.placeholder.of(placeholderExtension()),
          EditorView.updateListener.of((update) => {
            if (update.docChanged && !update.transactions.some((transaction) => transaction.annotation(fromProps))) {
              callbacks.current.onChange(update.state.doc.toString());
            }
            let message: string | undefined;
            forEachDiagnostic(update.state, (diagnostic) => {
              message ??= diagnostic.message;
            });
            setError(message);
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is created once; later property changes reconfigure it below.
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const current = editor.state.doc.toString();
    if (current === value) return;
    editor.dispatch({ changes: smallestChange(current, value), annotations: fromProps.of(true) });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({
      effects: [
        compartments.options.reconfigure(optionsExtension()),
        compartments.attributes.reconfigure(attributesExtension()),
        compartments.placeholder.reconfigure(placeholderExtension()),
        compartments.keys.reconfigure(keysExtension()),
      ],
    });
  }, [mode, datasetList, label, placeholder, error]);

  return (
    <div className={['apl-editor', `apl-editor-${mode}`, className].filter(Boolean).join(' ')}>
      <div ref={host} className="apl-editor-host" />
      <p id={errorId} className="apl-editor-error" aria-live="polite">
        {error ?? ''}
      </p>
    </div>
  );
}
