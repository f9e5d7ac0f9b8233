// The GraphiQL playground, rendered once from the bundle in @graphql-yoga/render-graphiql
// (GraphiQL and its editor inlined in the page), with a Content-Security-Policy that allows
// nothing outside this server: the page's two inline scripts by their hashes, styles and the
// editor's workers from the page itself, requests only back to this origin. The bundle (tens
// of MB once loaded) is imported on the first request for the page, not at start.
import { createHash } from 'node:crypto';
import type { GraphiQLOptions } from 'graphql-yoga';

export interface GraphiQLPage {
  html: string;
  csp: string;
}

let page: Promise<GraphiQLPage> | undefined;

function policyFor(html: string): string {
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (match) => `'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`,
  );
  return [
    "default-src 'none'",
    `script-src ${hashes.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** The page and its policy; the options of the first call (Yoga's GraphiQL settings) are kept. */
export function graphiqlPage(options?: GraphiQLOptions): Promise<GraphiQLPage> {
  page ??= import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => {
    const html = renderGraphiQL(options ?? {});
    return { html, csp: policyFor(html) };
  });
  return page;
}
