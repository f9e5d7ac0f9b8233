// The conversation with the OpenID Connect provider, through openid-client: discovery from the
// issuer (once it succeeds; a failure is retried by the next sign-in), the authorization URL
// with state, nonce and an S256 PKCE challenge, and the code exchange, which checks the ID
// token's signature, issuer, audience, nonce and expiry. Failures become typed errors: the
// provider unreachable or misbehaving is `unavailable`, a refused or invalid sign-in `invalid_input`.
import * as oidc from 'openid-client';
import type { OidcConfig } from '../config';
import { DomainError, invalidInput, unavailable } from '../errors';
import type { PendingSignIn } from './oidc-flow';

/** Who the provider says signed in. */
export interface ProviderIdentity {
  subject: string;
  email: string | undefined;
  /** Undefined when the provider does not say. */
  emailVerified: boolean | undefined;
  name: string | undefined;
}

/** Seconds any one request to the provider may take. */
const PROVIDER_TIMEOUT_SECONDS = 10;

export class OidcProviderClient {
  private configuration: Promise<oidc.Configuration> | undefined;

  constructor(private readonly settings: OidcConfig) {}

  /** The provider's authorization endpoint with everything this sign-in needs. */
  async authorizationUrl(redirectUri: string, pending: PendingSignIn): Promise<URL> {
    const configuration = await this.discovered();
    return oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: this.settings.scopes,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  /**
   * Exchanges the code of the provider's answer (its query string, received at `redirectUri`)
   * and reads the signed-in identity from the ID token, asking the userinfo endpoint for the
   * email when the ID token does not carry it.
   */
  async identity(redirectUri: string, callbackQuery: URLSearchParams, pending: PendingSignIn): Promise<ProviderIdentity> {
    const configuration = await this.discovered();
    const callbackUrl = new URL(redirectUri);
    callbackUrl.search = callbackQuery.toString();
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        pkceCodeVerifier: pending.codeVerifier,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      let profile: Record<string, unknown> = claims;
      if (typeof claims.email !== 'string' && configuration.serverMetadata().userinfo_endpoint) {
        profile = { ...(await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub)), ...claims };
      }
      return {
        subject: claims.sub,
        email: typeof profile.email === 'string' ? profile.email : undefined,
        emailVerified: verifiedFlag(profile.email_verified),
        name: typeof profile.name === 'string' ? profile.name : typeof profile.preferred_username === 'string' ? profile.preferred_username : undefined,
      };
    } catch (error) {
      throw describeProviderFailure(error);
    }
  }

  private discovered(): Promise<oidc.Configuration> {
    this.configuration ??= this.discover().catch((error: unknown) => {
      this.configuration = undefined;
      throw unavailable(`single sign-on is unavailable: the provider at ${this.settings.issuer} could not be discovered (${reasonOf(error)})`);
    });
    return this.configuration;
  }

  private async discover(): Promise<oidc.Configuration> {
    const issuer = new URL(this.settings.issuer);
    const options: oidc.DiscoveryRequestOptions = { timeout: PROVIDER_TIMEOUT_SECONDS };
    // Plain HTTP is the operator's choice (a provider on the same host or private network).
    if (issuer.protocol === 'http:') options.execute = [oidc.allowInsecureRequests];
    const found = await oidc.discovery(issuer, this.settings.clientId, undefined, oidc.None(), options);
    const server = found.serverMetadata();
    const configuration = new oidc.Configuration(server, this.settings.clientId, this.settings.clientSecret, clientAuthentication(this.settings.clientSecret, server));
    configuration.timeout = PROVIDER_TIMEOUT_SECONDS;
    if (issuer.protocol === 'http:') oidc.allowInsecureRequests(configuration);
    return configuration;
  }
}

/** Public clients prove themselves with PKCE alone; confidential ones as the provider prefers (Basic by default). */
function clientAuthentication(secret: string | undefined, server: oidc.ServerMetadata): oidc.ClientAuth {
  if (!secret) return oidc.None();
  const methods = server.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  return methods.includes('client_secret_basic') || !methods.includes('client_secret_post') ? oidc.ClientSecretBasic(secret) : oidc.ClientSecretPost(secret);
}

function verifiedFlag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  // Some providers send it as a string.
  if (value === 'true' || value === 'false') return value === 'true';
  return undefined;
}

/** Refusals by the provider and checks that fail are the sign-in's fault (400); anything else means the provider cannot be used now (503). */
function describeProviderFailure(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof oidc.ResponseBodyError) {
    const description = error.error_description ? `: ${error.error_description}` : '';
    if (error.status >= 500) return unavailable(`single sign-on is unavailable: the provider answered ${error.status} (${error.error}${description})`);
    return invalidInput(`sign-in failed: the provider refused the code (${error.error}${description}); start the sign-in again`);
  }
  if (error instanceof oidc.AuthorizationResponseError) {
    return invalidInput(`sign-in failed: the provider answered ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`);
  }
  if (error instanceof oidc.ClientError && error.code && !PROVIDER_TROUBLE_CODES.has(error.code)) {
    return invalidInput(`sign-in failed: the provider's answer did not pass validation (${reasonOf(error)}); start the sign-in again`);
  }
  return unavailable(`single sign-on is unavailable: the provider could not be reached or answered unexpectedly (${reasonOf(error)})`);
}

/** Codes of openid-client that describe a provider out of order rather than a bad sign-in. */
const PROVIDER_TROUBLE_CODES = new Set(['OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON', 'OAUTH_HTTP_REQUEST_FORBIDDEN', 'OAUTH_REQUEST_PROTOCOL_FORBIDDEN']);

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
