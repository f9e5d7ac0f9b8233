import { credentialsFrom } from '../auth/authenticator';
import type { Principal } from '../auth/principal';
import type { Services } from '../services';

export interface GraphQLContext {
  services: Services;
  request: Request;
  /** Aborts when the request passes GRAPHQL_TIMEOUT_MS; resolvers hand it to queries. */
  signal: AbortSignal;
  /**
   * The caller, authenticated from the request headers: catalog fields are public and never
   * ask; everything about events, datasets and tokens does, and gets the authentication error
   * (missing, invalid or expired token) when there is one.
   */
  principal(): Principal;
}

/** Authenticates once, before the operation runs, so resolvers can ask for the caller synchronously. */
export async function createContext(services: Services, request: Request): Promise<GraphQLContext> {
  const credentials = credentialsFrom((name) => request.headers.get(name) ?? undefined);
  let outcome: { principal: Principal } | { error: unknown };
  try {
    outcome = { principal: await services.auth.authenticate(credentials) };
  } catch (error) {
    outcome = { error };
  }
  return {
    services,
    request,
    signal: AbortSignal.timeout(services.config.graphql.timeoutMs),
    principal() {
      if ('error' in outcome) throw outcome.error;
      return outcome.principal;
    },
  };
}
