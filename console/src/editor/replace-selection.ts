// Typing or pasting over a selection is applied by the editor itself rather than by the
// browser: Chromium's own editing, when it replaces highlighted text, gives the line element a
// `style` attribute to keep the removed text's look, which the console's CSP (no inline styles)
// refuses with an error.
import { EditorView } from '@codemirror/view';

const REPLACING = new Set(['insertText', 'insertReplacementText', 'insertFromPaste', 'insertFromDrop']);

export const replaceSelectionInEditor = EditorView.domEventHandlers({
  beforeinput(event, view) {
    const { selection } = view.state;
    if (selection.ranges.length !== 1 || selection.main.empty || !REPLACING.has(event.inputType)) return false;
    const text = event.data ?? event.dataTransfer?.getData('text/plain');
    if (text == null) return false;
    event.preventDefault();
    view.dispatch(view.state.replaceSelection(text), { userEvent: event.inputType === 'insertText' ? 'input.type' : 'input.paste', scrollIntoView: true });
    return true;
  },
});
