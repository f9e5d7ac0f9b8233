// The auth domain as one service: authentication of requests, tokens, the current user.
import type { RelationalStore } from '../db/store';
import { Authenticator, type Credentials } from './authenticator';
import type { Principal } from './principal';
import { TokenService } from './tokens';
import { UserService } from './users';

export class AuthService {
  readonly tokens: TokenService;
  readonly users: UserService;
  private readonly authenticator: Authenticator;

  constructor(store: RelationalStore) {
    this.authenticator = new Authenticator(store.repository);
    this.tokens = new TokenService(store.prisma);
    this.users = new UserService(store.prisma);
  }

  /** Throws `unauthenticated` (401) or `forbidden`/`invalidInput` for organization mismatches. */
  authenticate(credentials: Credentials): Promise<Principal> {
    return this.authenticator.authenticate(credentials);
  }

  /** As `authenticate`, for a token secret a door has already read from its own header scheme. */
  authenticateToken(secret: string, orgId: string | undefined): Promise<Principal> {
    return this.authenticator.authenticateToken(secret, orgId);
  }
}
