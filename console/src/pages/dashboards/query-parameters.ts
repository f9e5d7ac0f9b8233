// Dashboard filters: a chart's APL may start with `declare query_parameters(name:type = default,
// …);`. The filter bar offers one control per parameter, and before a query runs the declaration
// is replaced by `let` statements binding the chosen values (or the defaults), which the APL
// engine runs like any other query.

export interface QueryParameter {
  name: string;
  /** string, long, int, real, double, bool, datetime, timespan … (lower case). */
  type: string;
  /** The default as written in the declaration (an APL literal), if any. */
  defaultLiteral?: string;
}

const DECLARATION = /^\s*declare\s+query_parameters\s*\(([\s\S]*?)\)\s*;/i;

/** Splits on commas outside quotes and brackets. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quote) {
      current += char;
      if (char === '\\') current += text[++i] ?? '';
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === '(' || char === '[') depth++;
    else if (char === ')' || char === ']') depth--;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  if (current.trim()) parts.push(current);
  return parts;
}

/** The parameters the query declares, and the query after the declaration. */
export function declaredParameters(apl: string): { parameters: QueryParameter[]; body: string } {
  const match = DECLARATION.exec(apl);
  if (!match) return { parameters: [], body: apl };
  const parameters = splitTopLevel(match[1]!).flatMap((part) => {
    const entry = /^\s*([A-Za-z_][\w]*)\s*:\s*([A-Za-z]+)\s*(?:=\s*([\s\S]+?))?\s*$/.exec(part);
    if (!entry) return [];
    return [{ name: entry[1]!, type: entry[2]!.toLowerCase(), ...(entry[3] !== undefined ? { defaultLiteral: entry[3] } : {}) }];
  });
  return { parameters, body: apl.slice(match[0].length) };
}

/** A default literal as the filter's text shows it (quotes of strings removed). */
export function defaultText(parameter: QueryParameter): string {
  const literal = parameter.defaultLiteral?.trim() ?? '';
  const quoted = /^(["'])([\s\S]*)\1$/.exec(literal);
  if (quoted) return quoted[2]!.replace(/\\(.)/g, '$1');
  const wrapped = /^(?:datetime|timespan|todatetime|totimespan)\((.*)\)$/.exec(literal);
  if (wrapped) return wrapped[1]!.replace(/^["']|["']$/g, '');
  return literal;
}

/** The APL literal of a value typed into the filter bar, for the parameter's type. */
export function literalOf(parameter: QueryParameter, text: string): string {
  switch (parameter.type) {
    case 'long':
    case 'int':
    case 'real':
    case 'double':
    case 'decimal':
      return Number.isFinite(Number(text)) && text.trim() !== '' ? String(Number(text)) : (parameter.defaultLiteral ?? '0');
    case 'bool':
    case 'boolean':
      return /^(true|1|yes)$/i.test(text.trim()) ? 'true' : 'false';
    case 'datetime':
      return `datetime(${JSON.stringify(text)})`;
    case 'timespan':
      return /^\d+(\.\d+)?(ms|s|m|h|d)$/.test(text.trim()) ? text.trim() : (parameter.defaultLiteral ?? '0s');
    default:
      return JSON.stringify(text);
  }
}

/**
 * The query with its declaration replaced by `let` statements: a value chosen in the filter bar
 * wins, else the declared default; a parameter with neither binds the empty value of its type.
 */
export function bindParameters(apl: string, values: Readonly<Record<string, string>>): string {
  const { parameters, body } = declaredParameters(apl);
  if (parameters.length === 0) return apl;
  const lets = parameters.map((parameter) => {
    const chosen = values[parameter.name];
    const literal = chosen !== undefined && chosen !== '' ? literalOf(parameter, chosen) : (parameter.defaultLiteral ?? literalOf(parameter, ''));
    return `let ${parameter.name} = ${literal};`;
  });
  return `${lets.join('\n')}\n${body.replace(/^\s+/, '')}`;
}
