// Custom webhook bodies are Go templates (text/template), rendered by Go's own engine compiled
// to WebAssembly (@evertdespiegeleer/go-template): if/else/eq, range, with, printf, pipelines
// and the rest behave exactly as in Go. A reference to a variable that does not exist is an
// error, so typos are caught when the notifier is saved.
//
// Axiom's templates also have `jsonObject` and `jsonArray`, which write a value as JSON. The
// engine takes no custom functions, so before rendering, their documented use on a template
// variable (`{{jsonObject .MatchedEvent}}`, `{{.GroupKeys | jsonArray}}`) is rewritten to read
// that variable's JSON text, prepared beside the data; string literals and comments inside
// actions are left alone.
import { InvalidTemplateError, parse as renderGoTemplate, TemplatingError } from '@evertdespiegeleer/go-template';

/** The variables a custom webhook template sees. */
export interface TemplateData {
  Action: 'Open' | 'Closed';
  MonitorID: string;
  Title: string;
  Description: string;
  Body: string;
  Value: number;
  QueryStartTime: string;
  QueryEndTime: string;
  Timestamp: string;
  MatchedEvent: Record<string, unknown> | null;
  GroupKeys: string[] | null;
  GroupValues: unknown[] | null;
}

/** The body sent when a custom webhook has no template of its own. */
export const DEFAULT_WEBHOOK_TEMPLATE = `{
  "action": "{{.Action}}",
  "event": {
    "monitorID": "{{.MonitorID}}",
    "body": {{jsonObject .Body}},
    "description": {{jsonObject .Description}},
    "queryEndTime": "{{.QueryEndTime}}",
    "queryStartTime": "{{.QueryStartTime}}",
    "timestamp": "{{.Timestamp}}",
    "title": {{jsonObject .Title}},
    "value": {{.Value}},
    "matchedEvent": {{jsonObject .MatchedEvent}},
    "groupKeys": {{jsonArray .GroupKeys}},
    "groupValues": {{jsonArray .GroupValues}}
  }
}`;

export class TemplateError extends Error {
  override name = 'TemplateError';
}

const JSON_FUNCTIONS = ['jsonObject', 'jsonArray'] as const;
const JSON_DATA_KEY = '__json';
const VARIABLE = String.raw`\$?\.([A-Za-z_][A-Za-z0-9_]*)`;
const CALL_FORM = new RegExp(String.raw`\b(?:jsonObject|jsonArray)\s+${VARIABLE}(?![\w.])`, 'g');
const PIPE_FORM = new RegExp(String.raw`${VARIABLE}\s*\|\s*(?:jsonObject|jsonArray)\b`, 'g');

/** Rewrites the JSON functions inside the code parts (not strings or comments) of one action. */
function rewriteActionCode(code: string): string {
  return code.replace(CALL_FORM, (_m, name: string) => `$.${JSON_DATA_KEY}.${name}`).replace(PIPE_FORM, (_m, name: string) => `$.${JSON_DATA_KEY}.${name}`);
}

/** Splits an action's text into code and literal parts and rewrites the code parts. */
function rewriteAction(action: string): string {
  let out = '';
  let code = '';
  let i = 0;
  const flush = () => {
    out += rewriteActionCode(code);
    code = '';
  };
  while (i < action.length) {
    const char = action[i]!;
    if (char === '"' || char === "'" || char === '`') {
      flush();
      let end = i + 1;
      while (end < action.length && action[end] !== char) end += char !== '`' && action[end] === '\\' ? 2 : 1;
      out += action.slice(i, end + 1);
      i = end + 1;
    } else if (action.startsWith('/*', i)) {
      flush();
      const end = action.indexOf('*/', i + 2);
      const stop = end < 0 ? action.length : end + 2;
      out += action.slice(i, stop);
      i = stop;
    } else {
      code += char;
      i++;
    }
  }
  flush();
  return out;
}

/** Rewrites `jsonObject .X` / `.X | jsonArray` in every action of the template. */
export function rewriteJsonFunctions(template: string): string {
  if (!JSON_FUNCTIONS.some((name) => template.includes(name))) return template;
  let out = '';
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{{', at);
    if (open < 0) break;
    out += template.slice(at, open);
    // Find the action's end, skipping quoted text that may contain "}}".
    let i = open + 2;
    let quote: string | undefined;
    while (i < template.length) {
      const char = template[i]!;
      if (quote) {
        if (char === '\\' && quote !== '`') i++;
        else if (char === quote) quote = undefined;
      } else if (char === '"' || char === "'" || char === '`') quote = char;
      else if (template.startsWith('}}', i)) break;
      i++;
    }
    if (i >= template.length) {
      out += template.slice(open); // unclosed: let the engine report it
      return out;
    }
    out += `{{${rewriteAction(template.slice(open + 2, i))}}}`;
    at = i + 2;
  }
  return out + template.slice(at);
}

function withJsonTexts(data: TemplateData): Record<string, unknown> {
  const texts: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) texts[key] = JSON.stringify(value ?? null);
  return { ...data, [JSON_DATA_KEY]: texts };
}

/** Makes the engine's messages readable: `template: tpl:3: ...` becomes `line 3: ...`. */
function cleanMessage(error: Error): string {
  const text = error.message.replace(/^Template (parse|exec) error:\s*/, '');
  const withLine = text.replace(/template: tpl:(\d+)(?::\d+)?:\s*/g, 'line $1: ');
  if (/function "(jsonObject|jsonArray)" not defined/.test(withLine)) {
    return `${withLine} (jsonObject and jsonArray apply to a template variable, e.g. {{jsonObject .MatchedEvent}})`;
  }
  return withLine.replace(/map has no entry for key "([^"]+)"/, 'there is no template variable ".$1"');
}

/** Renders a custom webhook template; throws TemplateError with a readable message. */
export async function renderWebhookTemplate(template: string, data: TemplateData): Promise<string> {
  try {
    return await renderGoTemplate(rewriteJsonFunctions(template), withJsonTexts(data));
  } catch (error) {
    if (error instanceof InvalidTemplateError || error instanceof TemplatingError) throw new TemplateError(cleanMessage(error));
    throw error;
  }
}

/** Sample values of every variable, to try a template when it is saved. */
export const SAMPLE_TEMPLATE_DATA: TemplateData = {
  Action: 'Open',
  MonitorID: 'mon_sample',
  Title: 'Sample monitor',
  Description: 'A sample notification',
  Body: 'The value 12 is above the threshold 10',
  Value: 12,
  QueryStartTime: '2024-01-01 00:00:00 +0000 UTC',
  QueryEndTime: '2024-01-01 00:05:00 +0000 UTC',
  Timestamp: '2024-01-01 00:05:00 +0000 UTC',
  MatchedEvent: { message: 'sample' },
  GroupKeys: ['service'],
  GroupValues: ['api'],
};
