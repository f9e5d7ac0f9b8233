import { credentialsFrom } from '../auth/authenticator';
import type { Principal } from '../auth/principal';
import type { Services } from '../services';

export interface GraphQLContext {
  services: Services;
  request: Request;
  /** Aborts when the request passes GRAPHQL_TIMEOUT_MS; resolvers hand it to queries. */
  signal: AbortSignal;
  /**
   * The caller, authenticated from the request headers on first use: catalog fields are public
   * and never ask; everything about events, datasets and tokens does.
   */
  principal(): Principal;
}

export function createContext(services: Services, request: Request): GraphQLContext {
  let principal: Principal | undefined;
  return {
    services,
    request,
    signal: AbortSignal.timeout(services.config.graphql.timeoutMs),
    principal() {
      principal ??= services.auth.authenticate(credentialsFrom((name) => request.headers.get(name) ?? undefined));
      return principal;
    },
  };
}
