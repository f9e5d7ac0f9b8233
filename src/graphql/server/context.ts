// The context of every GraphQL operation: the caller, authenticated once from the request's
// token (or, without an Authorization header, the console's session cookie, CSRF-checked for POST).
import { credentialsFrom } from '../../auth/authenticator';
import { sessionCredentialsFrom } from '../../auth/session-credentials';
import type { Services } from '../../services';
import type { GraphQLContext } from '../schema/context';

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
    reauthenticate: async () => (await createContext(services, request)).principal(),
  };
}
