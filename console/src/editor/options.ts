// What the page tells the editor beyond its text: whether it holds a whole query or a
// predicate, and which datasets a predicate filters (their fields are offered as completions).
import { Facet } from '@codemirror/state';

export interface AplEditorOptions {
  mode: 'query' | 'predicate';
  /** Datasets whose fields complete in a predicate (a query names its own). */
  datasets: readonly string[];
}

export const editorOptions = Facet.define<AplEditorOptions, AplEditorOptions>({
  combine: (values) => values[values.length - 1] ?? { mode: 'query', datasets: [] },
});
