// The auth domain as one service: authentication of requests (and the evaluation of what they
// may do), API tokens, and people signing in to the console (passwords, sessions, one-time links).
import type { Config } from '../config';
import type { RelationalStore } from '../db/store';
import { Authenticator, type Credentials, type Identity, type MemberAccess } from './authenticator';
import { LoginLinkService } from './login-links';
import { LoginRateLimiter } from './login-rate-limit';
import type { Principal } from './principal';
import { SessionService } from './sessions';
import { SignInService } from './sign-in';
import { TokenService } from './tokens';

export class AuthService {
  readonly tokens: TokenService;
  readonly authenticator: Authenticator;
  readonly sessions: SessionService;
  readonly signIn: SignInService;
  readonly loginLinks: LoginLinkService;

  constructor(store: RelationalStore, config: Pick<Config, 'signIn' | 'publicUrl'>) {
    this.sessions = new SessionService(store.prisma, store.repository, {
      idleTimeoutMs: config.signIn.sessionIdleTimeoutMs,
      maxAgeMs: config.signIn.sessionMaxAgeMs,
    });
    this.authenticator = new Authenticator(store.repository, this.sessions);
    this.tokens = new TokenService(store.prisma);
    const limiter = new LoginRateLimiter({
      failuresPerAddress: config.signIn.loginFailuresPerAddress,
      failuresPerAccount: config.signIn.loginFailuresPerAccount,
    });
    this.signIn = new SignInService(store.prisma, this.sessions, limiter);
    this.loginLinks = new LoginLinkService(store.prisma, this.signIn, config.publicUrl);
  }

  /** Throws `unauthenticated` (401) or `forbidden`/`invalidInput` for organization mismatches. */
  authenticate(credentials: Credentials): Promise<Principal> {
    return this.authenticator.authenticate(credentials);
  }

  /** The principal of a token secret taken out of another header scheme by the route. */
  authenticateToken(secret: string, orgId: string | undefined): Promise<Principal> {
    return this.authenticator.authenticateToken(secret, orgId);
  }

  /** The token alone, for routes that need no organization (GET /v2/orgs). */
  identify(credentials: Credentials): Promise<Identity> {
    return this.authenticator.identify(credentials);
  }

  /** The principal acting in `orgId`, or undefined when the token has no access there. */
  principalIn(identity: Identity, orgId: string): Promise<Principal | undefined> {
    return this.authenticator.principalIn(identity, orgId);
  }

  /** What a member holds in an organization now (undefined for non-members). */
  memberAccess(orgId: string, userId: string): Promise<MemberAccess | undefined> {
    return this.authenticator.memberAccess(orgId, userId);
  }
}
