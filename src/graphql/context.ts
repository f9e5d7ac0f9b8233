// The context of every GraphQL operation: the caller, authenticated once from the request's
// token (or, without an Authorization header, the console's session cookie, CSRF-checked for POST).
import { credentialsFrom, type Identity } from '../auth/authenticator';
import { sessionCredentialsFrom } from '../auth/session-credentials';
import type { Principal } from '../auth/principal';
import type { Services } from '../services';

export interface GraphQLContext {
  services: Services;
  request: Request;
  /** Aborts when the request passes GRAPHQL_TIMEOUT_MS; resolvers hand it to queries. */
  signal: AbortSignal;
  /**
   * The caller, authenticated from the request headers and evaluated in the organization the
   * request names: catalog fields are public and never ask; everything about events, datasets,
   * tokens and shared objects does, and gets the authentication error (missing, invalid or
   * expired token, organization header needed) when there is one.
   */
  principal(): Principal;
  /** The token alone, for fields that need no organization (organizations of the caller). */
  identity(): Identity;
}

type Outcome<T> = { value: T } | { error: unknown };

async function settle<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { value: await work() };
  } catch (error) {
    return { error };
  }
}

function unwrap<T>(outcome: Outcome<T>): T {
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}

/** Authenticates once, before the operation runs, so resolvers can ask for the caller synchronously. */
export async function createContext(services: Services, request: Request): Promise<GraphQLContext> {
  const header = (name: string) => request.headers.get(name) ?? undefined;
  const credentials = { ...credentialsFrom(header), session: sessionCredentialsFrom(services.config, header, request.method) };
  const identity = await settle(() => services.auth.identify(credentials));
  const principal = 'error' in identity ? identity : await settle(() => services.auth.authenticator.principalOf(identity.value));
  return {
    services,
    request,
    signal: AbortSignal.timeout(services.config.graphql.timeoutMs),
    principal: () => unwrap(principal),
    identity: () => unwrap(identity),
  };
}
