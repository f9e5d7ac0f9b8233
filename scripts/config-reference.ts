// Writes docs/reference/configuration.md from the environment schema in src/config.ts: every
// variable with its default, what it accepts and its doc comment. The schema is read as source
// text (its doc comments exist only there); test/unit/docs/config-reference.test.ts fails while the
// checked-in page differs from what this renders. Run with `npm run docs:config`.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEFAULT_CATALOG_SOURCE } from '../src/config';

export const CONFIG_SOURCE = fileURLToPath(new URL('../src/config.ts', import.meta.url));
export const CONFIG_REFERENCE = fileURLToPath(new URL('../docs/reference/configuration.md', import.meta.url));

/** One environment variable as the schema declares it. */
export interface EnvVariable {
  name: string;
  /** The doc comment's text, joined into one paragraph. */
  doc: string;
  /** The schema's default, or undefined when the variable is optional. */
  defaultValue: string | number | undefined;
  /** What values are accepted, in words. */
  accepts: string;
}

/** Constants the schema's defaults may name. */
const KNOWN_CONSTANTS: Record<string, unknown> = { DEFAULT_CATALOG_SOURCE };

/** Sections of the page, by variable name prefix; the first match wins, the rest is "Server". */
const SECTIONS: { title: string; prefixes: string[] }[] = [
  { title: 'Relational store', prefixes: ['DATABASE_'] },
  { title: 'Event store', prefixes: ['EVENT_STORE', 'CLICKHOUSE_', 'DUCKDB_'] },
  { title: 'Model catalog', prefixes: ['MODEL_CATALOG_'] },
  { title: 'Sign-in, organizations and the console', prefixes: ['ADMIN_', 'PUBLIC_URL', 'SESSION_', 'LOGIN_', 'OIDC_', 'CONSOLE_', 'PROVISIONED_'] },
  { title: 'Ingest', prefixes: ['INGEST_', 'MAX_FIELDS_'] },
  { title: 'Queries', prefixes: ['QUERY_', 'MAX_QUERY_', 'APL_'] },
  { title: 'GraphQL', prefixes: ['GRAPHQL_'] },
  { title: 'Live tail', prefixes: ['LIVE_TAIL_'] },
  { title: 'Monitors and notifiers', prefixes: ['MONITOR_', 'NOTIFIER_', 'SMTP_', 'PAGERDUTY_', 'OPSGENIE_', 'DISCORD_'] },
];

/** True when a string or a regular expression literal starts at `index` (its closing character is the same). */
function startsLiteral(text: string, index: number): boolean {
  const char = text[index]!;
  if (char === "'" || char === '"' || char === '`') return true;
  return char === '/' && /(^|[(,])\s*$/.test(text.slice(0, index));
}

/** The index of the character closing the literal that starts at `start` (a regex's `/` may sit in a class). */
function literalEnd(text: string, start: number): number {
  const close = text[start]!;
  let inClass = false;
  for (let i = start + 1; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\') i++;
    else if (close === '/' && char === '[') inClass = true;
    else if (close === '/' && char === ']') inClass = false;
    else if (char === close && !inClass) return i;
  }
  throw new Error(`unterminated literal in: ${text}`);
}

/** The text between the parentheses opening at `open`, and the index just after the closing one. */
function parenthesized(text: string, open: number): { inner: string; end: number } {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const char = text[i]!;
    if (startsLiteral(text, i)) i = literalEnd(text, i);
    else if (char === '(' || char === '[') depth++;
    else if (char === ')' || char === ']') {
      depth--;
      if (depth === 0) return { inner: text.slice(open + 1, i), end: i + 1 };
    }
  }
  throw new Error(`unbalanced parentheses in: ${text}`);
}

/** Splits call arguments at top-level commas. */
function argumentsOf(inner: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let depth = 0;
  for (let i = 0; i < inner.length; i++) {
    const char = inner[i]!;
    if (startsLiteral(inner, i)) i = literalEnd(inner, i);
    else if ('([{'.includes(char)) depth++;
    else if (')]}'.includes(char)) depth--;
    else if (char === ',' && depth === 0) {
      parts.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = inner.slice(start).trim();
  if (last) parts.push(last);
  return parts;
}

/** Evaluates a constant expression of the schema (`256 * 2 ** 20`, `'1h'`, `DEFAULT_CATALOG_SOURCE`). */
function constant(expression: string): string | number {
  const names = Object.keys(KNOWN_CONSTANTS);
  const value: unknown = new Function(...names, `return (${expression});`)(...names.map((name) => KNOWN_CONSTANTS[name]));
  if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`cannot document the default ${expression}`);
  return value;
}

/** The first argument of every `.name(...)` call in the declaration, in order. */
function callArguments(declaration: string, name: string): string[][] {
  const found: string[][] = [];
  const pattern = new RegExp(`${/^\w/.test(name) ? '\\b' : ''}${name}\\(`, 'g');
  for (const match of declaration.matchAll(pattern)) {
    found.push(argumentsOf(parenthesized(declaration, match.index + match[0].length - 1).inner));
  }
  return found;
}

function describeDeclaration(name: string, declaration: string): Pick<EnvVariable, 'defaultValue' | 'accepts'> {
  const helper = /^(positiveInt|boundedInt|httpUrl)\(/.exec(declaration)?.[1];
  let defaultValue: string | number | undefined;
  if (helper) defaultValue = constant(callArguments(declaration, helper)[0]![0]!);
  const explicitDefault = callArguments(declaration, '\\.default');
  if (explicitDefault.length > 0) defaultValue = constant(explicitDefault.at(-1)![0]!);

  const enumValues = callArguments(declaration, 'z\\.enum')[0]?.[0];
  const regexMessage = callArguments(declaration, '\\.regex')[0]?.[1];
  const min = callArguments(declaration, '\\.min')[0]?.[0];
  const max = callArguments(declaration, '\\.max')[0]?.[0];
  let accepts: string;
  if (helper === 'positiveInt') accepts = 'a whole number, at least 1';
  else if (helper === 'boundedInt') accepts = `a whole number, 1 to ${constant(callArguments(declaration, helper)[0]![1]!)}`;
  else if (helper === 'httpUrl') accepts = 'an `http://` or `https://` URL';
  else if (enumValues) accepts = (constant(`${enumValues}.join('|')`) as string).split('|').map((value) => `\`${value}\``).join(', ');
  else if (declaration.startsWith('byteSize')) accepts = 'bytes, or a size with a unit (`512MB`, `2GiB`)';
  else if (regexMessage) accepts = String(constant(regexMessage)).replace(/^must (be|include) /, (_, verb: string) => (verb === 'include' ? 'text including ' : ''));
  else if (declaration.includes('number()')) {
    const low = min === undefined ? undefined : constant(min);
    const high = max === undefined ? undefined : constant(max);
    accepts = high === undefined ? `a whole number, at least ${low}` : `a whole number, ${low} to ${high}`;
  } else if (declaration.startsWith('z.string()')) {
    accepts = max === undefined ? 'text' : `text of ${constant(min ?? '1')} to ${constant(max)} characters`;
  } else throw new Error(`${name}: cannot tell what the declaration accepts: ${declaration}`);
  return { defaultValue, accepts };
}

/** Reads the variables of `envSchema` from the source of src/config.ts. */
export function readEnvVariables(source: string = readFileSync(CONFIG_SOURCE, 'utf8')): EnvVariable[] {
  const lines = source.split('\n');
  const start = lines.findIndex((line) => line.startsWith('const envSchema = z.object({'));
  const end = lines.findIndex((line, index) => index > start && line === '});');
  if (start < 0 || end < 0) throw new Error('src/config.ts has no `const envSchema = z.object({ ... });` block');
  const variables: EnvVariable[] = [];
  let doc: string[] = [];
  let inComment = false;
  for (let index = start + 1; index < end; index++) {
    const line = lines[index]!;
    const trimmed = line.trim();
    if (inComment) {
      if (trimmed === '*/') inComment = false;
      else doc.push(trimmed.replace(/^\*\s?/, ''));
      continue;
    }
    const single = /^\/\*\*\s*(.*?)\s*\*\/$/.exec(trimmed);
    if (single) {
      doc = [single[1]!];
      continue;
    }
    if (trimmed === '/**') {
      doc = [];
      inComment = true;
      continue;
    }
    const property = /^ {2}([A-Z][A-Z0-9_]*): (.*)$/.exec(line);
    if (!property) continue;
    let declaration = property[2]!;
    while (index + 1 < end && /^ {4,}\S/.test(lines[index + 1]!)) declaration += lines[++index]!.trim();
    declaration = declaration.replace(/,$/, '');
    const name = property[1]!;
    if (doc.length === 0) throw new Error(`${name} in src/config.ts has no doc comment: add one saying what it does`);
    variables.push({ name, doc: doc.join(' '), ...describeDeclaration(name, declaration) });
    doc = [];
  }
  return variables;
}

const BINARY_UNITS = ['KiB', 'MiB', 'GiB', 'TiB'];

function formatDefault(variable: EnvVariable): string {
  const value = variable.defaultValue;
  if (value === undefined) return 'unset';
  if (typeof value === 'string') return `\`${value}\``;
  let text = `\`${value}\``;
  if (/BYTES/.test(variable.name) || variable.accepts.startsWith('bytes')) {
    let amount = value;
    let unit = -1;
    while (amount >= 1024 && amount % 1024 === 0 && unit < BINARY_UNITS.length - 1) {
      amount /= 1024;
      unit++;
    }
    if (unit >= 0) text += ` (${amount} ${BINARY_UNITS[unit]})`;
  }
  return text;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

function sectionOf(name: string): string {
  return SECTIONS.find((section) => section.prefixes.some((prefix) => name.startsWith(prefix)))?.title ?? 'Server';
}

/** The whole page, as checked in at docs/reference/configuration.md. */
export function renderConfigReference(variables: EnvVariable[] = readEnvVariables()): string {
  const out: string[] = [
    '# Configuration reference',
    '',
    'Every setting is an environment variable, read and validated once at start by `src/config.ts`.',
    'An empty value counts as unset. A value that does not validate stops the server at start with one',
    'line per problem, naming the variable.',
    '',
    'This page is generated from the schema and its doc comments by `npm run docs:config`; do not edit',
    'it by hand (a test fails while it is stale).',
  ];
  for (const title of ['Server', ...SECTIONS.map((section) => section.title)]) {
    const inSection = variables.filter((variable) => sectionOf(variable.name) === title);
    if (inSection.length === 0) continue;
    out.push('', `## ${title}`, '', '| variable | default | accepts | meaning |', '| --- | --- | --- | --- |');
    for (const variable of inSection) {
      out.push(`| \`${variable.name}\` | ${cell(formatDefault(variable))} | ${cell(variable.accepts)} | ${cell(variable.doc)} |`);
    }
  }
  return `${out.join('\n')}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(CONFIG_REFERENCE, renderConfigReference());
  console.log(`wrote ${CONFIG_REFERENCE}`);
}
