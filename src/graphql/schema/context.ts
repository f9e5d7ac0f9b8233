// What every resolver is given: the services and the caller. Built for each operation by the
// server (server/context.ts), which authenticates the request once before the operation runs.
import type { Identity } from '../../auth/authenticator';
import type { Principal } from '../../auth/principal';
import type { Services } from '../../services';

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
  /**
   * The caller authenticated afresh from the same credentials, for streams that outlive the
   * request's check: a deleted token or a member removed from the organization no longer passes.
   */
  reauthenticate(): Promise<Principal>;
}
