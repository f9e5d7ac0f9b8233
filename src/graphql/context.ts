import { credentialsFrom } from '../auth/authenticator';
import type { Principal } from '../auth/principal';
import type { Services } from '../services';

export interface GraphQLContext {
  services: Services;
  request: Request;
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
    principal() {
      principal ??= services.auth.authenticate(credentialsFrom((name) => request.headers.get(name) ?? undefined));
      return principal;
    },
  };
}
