// Reads a catalog source: a LiteLLM JSON file on disk or at an http(s) URL.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DomainError, invalidInput, unavailable } from '../errors';

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

/** What a conditional fetch learned: the source is unchanged, or its new document and validators. */
export type ConditionalFetch =
  | { changed: false }
  | { changed: true; document: unknown; etag: string | null; lastModified: string | null };

/**
 * Fetches a URL source with `If-None-Match` / `If-Modified-Since` from the previous answer's
 * validators, so an unchanged source costs a 304 and no parsing.
 */
export async function fetchCatalogIfChanged(
  url: string,
  validators: { etag?: string | null; lastModified?: string | null },
  { timeoutMs = SOURCE_FETCH_TIMEOUT_MS, signal }: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<ConditionalFetch> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (validators.etag) headers['if-none-match'] = validators.etag;
  if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
  const signals = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { signal: AbortSignal.any(signals), headers });
    if (response.status === 304) return { changed: false };
    if (!response.ok) throw unavailable(`could not fetch ${url}: HTTP ${response.status}`);
    text = await response.text();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const cause = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : describeCause(error);
    throw unavailable(`could not fetch ${url}: ${cause}`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw invalidInput(`${url} is not valid JSON: ${describeCause(error)}`);
  }
  return { changed: true, document, etag: response.headers.get('etag'), lastModified: response.headers.get('last-modified') };
}
