// Reads a catalog source: a LiteLLM JSON file on disk or at an http(s) URL.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { invalidInput, unavailable } from '../errors';

/** URL fetches give up quickly, so a start without network falls back without a long wait. */
export const SOURCE_FETCH_TIMEOUT_MS = 5_000;

export function isUrlSource(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

async function fetchText(url: string, timeoutMs: number): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
  } catch (error) {
    const cause = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : describeCause(error);
    throw unavailable(`could not fetch ${url}: ${cause}`);
  }
  if (!response.ok) throw unavailable(`could not fetch ${url}: HTTP ${response.status}`);
  try {
    return await response.text();
  } catch (error) {
    throw unavailable(`could not fetch ${url}: ${describeCause(error)}`);
  }
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}

async function readText(source: string, timeoutMs: number): Promise<string> {
  if (isUrlSource(source)) return fetchText(source, timeoutMs);
  const file = source.startsWith('file:') ? fileURLToPath(source) : source;
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw unavailable(`could not read ${file}: ${describeCause(error)}`);
  }
}

/** The parsed JSON document of `source`; throws a domain error saying what went wrong. */
export async function readCatalogSource(source: string, timeoutMs = SOURCE_FETCH_TIMEOUT_MS): Promise<unknown> {
  const text = await readText(source, timeoutMs);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw invalidInput(`${source} is not valid JSON: ${describeCause(error)}`);
  }
}
