// Custom webhook bodies are Go templates (text/template), rendered by Go's own engine compiled
// to WebAssembly (@evertdespiegeleer/go-template): if/else/eq, range, with, printf, pipelines
// and the rest behave exactly as in Go. A reference to a variable that does not exist is an
// error, so typos are caught when the notifier is saved.
//
// Go templates can loop over numbers (`range 1000000000`) and pad to any width, and the engine
// runs synchronously, so rendering happens on a worker thread (template-worker.mjs) with a time
// limit: a template that runs too long is stopped by terminating the thread, and its output is
// capped in size.
//
// Axiom's templates also have `jsonObject` and `jsonArray`, which write a value as JSON. The
// engine takes no custom functions, so before rendering, their documented use on a template
// variable (`{{jsonObject .MatchedEvent}}`, `{{.GroupKeys | jsonArray}}`) is rewritten to read
// that variable's JSON text, prepared beside the data; string literals and comments inside
// actions are left alone.
import { Worker } from 'node:worker_threads';

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
function cleanMessage(message: string): string {
  const text = message.replace(/^Template (parse|exec) error:\s*/, '');
  const withLine = text.replace(/template: tpl:(\d+)(?::\d+)?:\s*/g, 'line $1: ');
  if (/function "(jsonObject|jsonArray)" not defined/.test(withLine)) {
    return `${withLine} (jsonObject and jsonArray apply to a template variable, e.g. {{jsonObject .MatchedEvent}})`;
  }
  return withLine.replace(/map has no entry for key "([^"]+)"/, 'there is no template variable ".$1"');
}

const RENDER_TIMEOUT_MS = 2000;
export const MAX_RENDERED_BYTES = 1024 * 1024;

interface WorkerAnswer {
  id: number;
  output?: string;
  error?: { kind: 'parse' | 'exec' | 'other'; message: string };
}

/** One worker thread, used by one render at a time, replaced when a render is stopped. */
class TemplateThread {
  private worker: Worker | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 0;

  render(template: string, data: unknown): Promise<string> {
    const run = this.queue.then(() => this.renderNow(template, data));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private thread(): Worker {
    if (!this.worker) {
      this.worker = new Worker(new URL('./template-worker.mjs', import.meta.url));
      this.worker.unref();
      this.worker.on('error', () => this.stop());
    }
    return this.worker;
  }

  private renderNow(template: string, data: unknown): Promise<string> {
    const worker = this.thread();
    const id = ++this.nextId;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        this.stop();
        reject(new TemplateError(`the template ran longer than ${RENDER_TIMEOUT_MS} ms and was stopped`));
      }, RENDER_TIMEOUT_MS);
      const onMessage = (answer: WorkerAnswer) => {
        if (answer.id !== id) return;
        cleanup();
        if (answer.error) {
          if (answer.error.kind === 'other') reject(new Error(answer.error.message));
          else reject(new TemplateError(cleanMessage(answer.error.message)));
        } else if (Buffer.byteLength(answer.output ?? '') > MAX_RENDERED_BYTES) {
          this.stop(); // its heap grew: start afresh
          reject(new TemplateError(`the template produced more than ${MAX_RENDERED_BYTES} bytes`));
        } else resolve(answer.output ?? '');
      };
      const onExit = () => {
        cleanup();
        reject(new Error('the template thread stopped'));
      };
      const cleanup = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('exit', onExit);
      worker.postMessage({ id, template, data });
    });
  }

  stop(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }
}

const thread = new TemplateThread();

/** Renders a custom webhook template; throws TemplateError with a readable message. */
export async function renderWebhookTemplate(template: string, data: TemplateData): Promise<string> {
  return thread.render(rewriteJsonFunctions(template), withJsonTexts(data));
}

/** Stops the rendering thread (at shutdown). */
export function stopTemplateThread(): void {
  thread.stop();
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
