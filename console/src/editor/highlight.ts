// APL highlighting as CodeMirror mark decorations: the text is scanned with the server's lexer
// on every change (queries are short) and each classified token gets a `cm-apl-<role>` class,
// colored by editor.css.
import { type EditorState, RangeSetBuilder, StateField } from '@codemirror/state';
import { Decoration, type DecorationSet, EditorView } from '@codemirror/view';
import { classify, type TokenRole } from './classify';
import { scanTokens } from './tokens';

const marks = new Map<TokenRole, Decoration>();
const markOf = (role: TokenRole) => {
  let mark = marks.get(role);
  if (!mark) marks.set(role, (mark = Decoration.mark({ class: `cm-apl-${role}` })));
  return mark;
};

function decorate(state: EditorState): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  for (const range of classify(scanTokens(state.doc.toString()))) builder.add(range.from, range.to, markOf(range.role));
  return builder.finish();
}

export const aplHighlighting = StateField.define<DecorationSet>({
  create: decorate,
  update: (decorations, transaction) => (transaction.docChanged ? decorate(transaction.state) : decorations),
  provide: (field) => EditorView.decorations.from(field),
});
