// A response cache for public catalog queries, in front of GraphQL Yoga. A query whose root
// fields are all catalog fields (models, model, providers, provider, catalogMetadata) reads
// nothing but the catalog snapshot and no caller identity, so its answer depends only on the
// request payload, the catalog version and the day (deprecation). Such answers are kept as
// bytes and replayed without entering Yoga at all; Yoga's own response-cache plugin would
// still re-serialize every hit and pay the Request/Response bridge, measured at about a third
// of the REST routes' rate, not enough for the full list (bench/catalog.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { getOperationAST, type DocumentNode, Kind } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { CatalogService } from '../../catalog/service';
import { CatalogVersionCache } from '../../catalog/version-cache';
import type { AnswerReplay } from '../../rest/shared/answer-replay';

const CATALOG_ROOT_FIELDS = new Set(['models', 'model', 'providers', 'provider', 'catalogMetadata', '__typename']);

/** Request headers that change a Yoga answer to the same payload. */
const VARYING_HEADERS = ['accept', 'origin', 'access-control-request-method'] as const;

/** True when the operation is a query that touches catalog fields only (no fragments at the root). */
export function isCatalogOnlyQuery(document: DocumentNode, operationName: string | null | undefined): boolean {
  const operation = getOperationAST(document, operationName);
  return (
    operation?.operation === 'query' &&
    operation.selectionSet.selections.every(
      (selection) => selection.kind === Kind.FIELD && CATALOG_ROOT_FIELDS.has(selection.name.value) && !selection.directives?.length,
    )
  );
}

interface CachedResponse {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

export class CatalogResponseCache {
  private readonly responses = new CatalogVersionCache<CachedResponse>((response) => response.body.length + 256);
  /** Requests whose operation was catalog-only and answered without errors. */
  private readonly cacheable = new WeakSet<FastifyRequest>();
  /** The key and catalog version of each request that missed, fixed before it executes. */
  private readonly misses = new WeakMap<FastifyRequest, { key: string; version: number }>();

  constructor(
    private readonly catalog: CatalogService,
    /** Where answers sent from this cache are offered for replay in front of the router. */
    private readonly answerReplay?: AnswerReplay,
  ) {}

  /** Marks requests whose execution may be cached; add it to Yoga's plugins. */
  readonly plugin: Plugin<{ req?: FastifyRequest }> = {
    onExecute: ({ args }) => {
      if (!isCatalogOnlyQuery(args.document, args.operationName)) return;
      const request = (args.contextValue as { req?: FastifyRequest }).req;
      if (!request) return;
      return {
        onExecuteDone: ({ result }) => {
          if (!(Symbol.asyncIterator in result) && !result.errors?.length) this.cacheable.add(request);
        },
      };
    },
  };

  /** The cache key of a single GraphQL request, or undefined when it is not one (batch, GraphiQL page). */
  private keyOf(request: FastifyRequest): string | undefined {
    const payload = request.method === 'POST' ? request.body : request.method === 'GET' ? request.query : undefined;
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
    const { query, variables, operationName, extensions } = payload as Record<string, unknown>;
    if (typeof query !== 'string') return undefined;
    const headers = VARYING_HEADERS.map((name) => request.headers[name] ?? '');
    return JSON.stringify([request.method, query, variables ?? null, operationName ?? null, extensions ?? null, headers, this.catalog.today()]);
  }

  /** Answers the request from the cache; false when it must go to Yoga. */
  replay(request: FastifyRequest, reply: FastifyReply): boolean {
    const key = this.keyOf(request);
    if (key === undefined) return false;
    const { version } = this.catalog.snapshot;
    const cached = this.responses.get(version, key);
    if (!cached) {
      this.misses.set(request, { key, version });
      return false;
    }
    reply.status(cached.status);
    for (const [name, value] of cached.headers) reply.header(name, value);
    this.answerReplay?.keep(request, reply, cached.body);
    reply.send(cached.body);
    return true;
  }

  /** Keeps Yoga's answer when its operation was catalog-only; returns the body to send. */
  async keep(request: FastifyRequest, reply: FastifyReply, response: Response): Promise<Buffer | undefined> {
    const miss = this.misses.get(request);
    if (!miss || !this.cacheable.has(request) || response.status !== 200) return undefined;
    const body = Buffer.from(await response.arrayBuffer());
    const headers: [string, string][] = [];
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'date' && name !== 'connection') headers.push([name, value]);
    });
    this.responses.set(miss.version, miss.key, { status: response.status, headers, body });
    this.answerReplay?.keep(request, reply, body);
    return body;
  }
}
