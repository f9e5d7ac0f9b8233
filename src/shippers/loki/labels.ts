// Loki stream labels as the protobuf push request carries them: a Prometheus-style label set,
// `{job="app", level="info"}`, whose values are Go-quoted strings.
import { invalidInput } from '../../errors';

const NAME = /[A-Za-z_][A-Za-z0-9_.]*/y;
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", '`': '`' };

/** Reads a label set into name -> value; refuses text that is not one (400). */
export function parseLabelSet(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  const fail = (why: string) => invalidInput(`stream labels ${JSON.stringify(text.slice(0, 100))} are not a label set: ${why}`);
  let at = 0;
  const skipSpaces = () => {
    while (text[at] === ' ' || text[at] === '\t' || text[at] === '\n') at++;
  };
  skipSpaces();
  if (text[at] !== '{') throw fail('expected "{"');
  at++;
  skipSpaces();
  while (text[at] !== '}') {
    NAME.lastIndex = at;
    const name = NAME.exec(text);
    if (!name) throw fail(`expected a label name at offset ${at}`);
    at = NAME.lastIndex;
    skipSpaces();
    if (text[at] !== '=') throw fail(`expected "=" after ${name[0]}`);
    at++;
    skipSpaces();
    if (text[at] !== '"') throw fail(`expected a quoted value for ${name[0]}`);
    at++;
    let value = '';
    for (;;) {
      const char = text[at];
      if (char === undefined) throw fail(`the value of ${name[0]} is not closed`);
      at++;
      if (char === '"') break;
      if (char === '\\') {
        const escaped = text[at++];
        if (escaped === undefined) throw fail(`the value of ${name[0]} is not closed`);
        value += ESCAPES[escaped] ?? escaped;
      } else value += char;
    }
    labels[name[0]] = value;
    skipSpaces();
    if (text[at] === ',') {
      at++;
      skipSpaces();
    } else if (text[at] !== '}') throw fail(`expected "," or "}" after the value of ${name[0]}`);
  }
  at++;
  skipSpaces();
  if (at !== text.length) throw fail('text after "}"');
  return labels;
}
