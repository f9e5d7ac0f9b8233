// Renders Go templates for template.ts on a worker thread, so that a template that runs too long
// (a huge `range`, a huge printf width) can be stopped by terminating the thread. Plain
// JavaScript: a worker thread loads it directly, without the TypeScript loader.
import { parentPort } from 'node:worker_threads';
import { InvalidTemplateError, parse, TemplatingError } from '@evertdespiegeleer/go-template';

parentPort.on('message', async ({ id, template, data }) => {
  try {
    parentPort.postMessage({ id, output: await parse(template, data) });
  } catch (error) {
    const kind = error instanceof InvalidTemplateError ? 'parse' : error instanceof TemplatingError ? 'exec' : 'other';
    parentPort.postMessage({ id, error: { kind, message: String(error?.message ?? error) } });
  }
});
