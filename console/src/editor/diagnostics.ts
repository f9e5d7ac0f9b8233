// Errors as you type, from the parser the server runs: the same message the server would answer
// with a 400, underlined where it points. Only syntax is checked here; fields and types are
// known to the server alone, which reports them when the query runs.
import { type Diagnostic, linter } from '@codemirror/lint';
import type { EditorView } from '@codemirror/view';
import { parseExpression, parseQuery } from '@server/apl/syntax/parser';
import { DomainError } from '@server/errors';
import { errorOffset } from './tokens';
import { editorOptions } from './options';

/** How long typing must pause before the text is checked. */
const LINT_DELAY_MS = 250;

/** The error the parser reports for `text`, or undefined when it parses. */
export function syntaxProblem(text: string, mode: 'query' | 'predicate'): { message: string; offset: number } | undefined {
  if (!text.trim()) return undefined;
  try {
    if (mode === 'predicate') parseExpression(text);
    else parseQuery(text);
    return undefined;
  } catch (error) {
    // Only the parser's own errors are the query's fault; anything else is not worth showing.
    if (!(error instanceof DomainError)) return undefined;
    return { message: error.message, offset: errorOffset(text, error) ?? 0 };
  }
}

function diagnose(view: EditorView): Diagnostic[] {
  const text = view.state.doc.toString();
  const problem = syntaxProblem(text, view.state.facet(editorOptions).mode);
  if (!problem) return [];
  let from = Math.min(problem.offset, text.length);
  let to: number;
  if (!text.slice(from).trim()) {
    // "found the end of the query": underline the last word, where more was expected.
    const last = /\S+\s*$/.exec(text.slice(0, from));
    from = last?.index ?? from;
    to = from + (last?.[0].trimEnd().length ?? 0);
  } else {
    // The word at the spot, or one character.
    to = Math.min(text.length, from + (/^[\w$!~-]+/.exec(text.slice(from))?.[0].length ?? 1));
  }
  return [{ from, to, severity: 'error', source: 'APL', message: problem.message }];
}

export const aplDiagnostics = linter(diagnose, { delay: LINT_DELAY_MS });
