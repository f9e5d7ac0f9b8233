// Resolves the token of a request (`Authorization: Bearer <token>`, or another scheme a route
// accepts, see schemes.ts) and the organization header to a Principal, and evaluates what it
// may do for this request. This runs on every request, so it reads through
// the repository layer (prepared statements on SQLite, ~10 µs each; indexed queries on
// PostgreSQL) rather than Prisma (~1 ms). Nothing is cached: a token revoked, a membership,
// role or group changed through any instance counts from the next request on (only the
// arithmetic over the rows read is remembered).
//
// A personal token holds the union of its user's base role and the roles of their groups in
// the organization. An API token holds its own capabilities intersected with those of the user
// who created it, as that user stands now: it never does more than its creator could, and it
// stops working when its creator leaves the organization.
//
// A console session (the session cookie, when no Authorization header is sent) acts exactly as
// a personal token of its user would: it resolves to the same kind of Identity, and state-changing
// requests must also pass the CSRF check (csrf.ts).
import { BoundedMemo, deepFreeze } from '../lib/bounded-memo';
import type { Repository, RoleGrant, TokenRow } from '../db/repository';
import { forbidden, invalidInput, unauthenticated } from '../errors';
import { type CapabilitySet, capabilitySetOf, intersectionOf, unionOf } from './capabilities';
import type { Principal } from './principal';
import { baseRoleCapabilities } from './roles';
import { checkCsrf } from './csrf';
import { type AuthScheme, tokenFromAuthorization } from './schemes';
import { hashTokenSecret } from './secrets';
import type { SessionCredentials } from './session-credentials';
import type { SessionService } from './sessions';

/** The request headers authentication looks at, already extracted by the adapter. */
export interface Credentials {
  authorization: string | undefined;
  /** `X-Axiom-Org-Id`, or `x-service-org-id` when the former is absent. */
  orgId: string | undefined;
  /** Authorization schemes the route accepts (default: Bearer only). */
  schemes?: readonly AuthScheme[];
  /** The console's session cookie, used only when no Authorization header is sent. */
  session?: SessionCredentials | undefined;
}

/** Reads the credentials from any header source (Fastify's object or a Fetch `Headers`). */
export function credentialsFrom(getHeader: (name: string) => string | undefined): Credentials {
  return {
    authorization: getHeader('authorization'),
    orgId: getHeader('x-axiom-org-id') || getHeader('x-service-org-id') || undefined,
  };
}

/** A valid token, before any organization is chosen (routes that need none, such as GET /v2/orgs). */
export interface Identity {
  tokenId: string;
  kind: 'personal' | 'api';
  /** The owner of a personal token, the creator of an API token (if known). */
  userId: string | null;
  /** An API token's organization; null for personal tokens. */
  orgId: string | null;
  /** The organization the request names in its header, if any. */
  requestedOrg: string | undefined;
  token: TokenRow;
  /** Set when the request was authenticated by a console session rather than a token. */
  sessionId?: string;
}

/** What a member holds in an organization: their base role and everything their roles allow. */
export interface MemberAccess {
  role: string;
  capabilities: CapabilitySet;
}

export function accessOf(grants: readonly RoleGrant[]): MemberAccess | undefined {
  const base = grants.find((grant) => grant.via === 'base');
  if (!base) return undefined;
  const sets = grants.map((grant) => (grant.custom ? capabilitySetOf(grant.custom) : baseRoleCapabilities(grant.role)));
  return { role: base.role, capabilities: unionOf(sets) };
}

// What the stored grants and token capabilities allow is recomputed from the rows read on every
// request, so nothing can go stale; only the arithmetic over the same rows is remembered.
const SEPARATOR = '\u0000';
const accessByGrants = new BoundedMemo<MemberAccess | null>(1024);
const capabilitiesByToken = new BoundedMemo<CapabilitySet>(1024);

function grantsKey(grants: readonly RoleGrant[]): string {
  return grants
    .map((grant) => [grant.via, grant.role, grant.custom?.datasetCapabilities ?? '', grant.custom?.orgCapabilities ?? '', grant.custom?.viewCapabilities ?? ''].join(SEPARATOR))
    .join(SEPARATOR + SEPARATOR);
}

function rememberedAccessOf(grants: readonly RoleGrant[]): MemberAccess | undefined {
  return accessByGrants.get(grantsKey(grants), () => deepFreeze(accessOf(grants) ?? null)) ?? undefined;
}

/** An API token's own capabilities, bounded by its creator's access (when it has a creator). */
function rememberedTokenCapabilities(token: TokenRow, creatorGrants: readonly RoleGrant[] | undefined, creator: MemberAccess | undefined): CapabilitySet {
  const key = [token.datasetCapabilities, token.orgCapabilities, token.viewCapabilities, creatorGrants ? grantsKey(creatorGrants) : ''].join(SEPARATOR + SEPARATOR + SEPARATOR);
  return capabilitiesByToken.get(key, () => {
    const own = capabilitySetOf(token);
    return deepFreeze(creator ? intersectionOf(own, creator.capabilities) : own);
  });
}

export class Authenticator {
  constructor(
    private readonly repository: Repository,
    private readonly sessions?: SessionService,
  ) {}

  async authenticate(credentials: Credentials, now = Date.now()): Promise<Principal> {
    return this.principalOf(await this.identify(credentials, now));
  }

  /** The principal of a token secret already taken out of its header (doors with their own schemes). */
  async authenticateToken(secret: string, orgId: string | undefined, now = Date.now()): Promise<Principal> {
    return this.principalOf(await this.identifyToken(secret, orgId, now));
  }

  /** The token behind the credentials, valid and unexpired, without choosing an organization. */
  identify(credentials: Credentials, now = Date.now()): Promise<Identity> {
    if (!credentials.authorization && credentials.session && this.sessions) return this.identifySession(credentials.session, credentials.orgId);
    return this.identifyToken(tokenFromAuthorization(credentials.authorization, credentials.schemes), credentials.orgId, now);
  }

  async identifyToken(secret: string, requestedOrg: string | undefined, now = Date.now()): Promise<Identity> {
    const token = await this.repository.tokens.bySecretHash(hashTokenSecret(secret));
    if (!token) throw unauthenticated('invalid API token');
    if (token.expiresAt !== null && token.expiresAt.getTime() <= now) throw unauthenticated('API token has expired');
    if (token.kind === 'personal' ? !token.userId : !token.orgId) throw unauthenticated('invalid API token');
    return {
      tokenId: token.id,
      kind: token.kind,
      userId: token.kind === 'personal' ? token.userId : token.createdBy,
      orgId: token.kind === 'api' ? token.orgId : null,
      requestedOrg,
      token,
    };
  }

  /** A live console session, as a personal token of its user; CSRF-checked for state-changing requests. */
  async identifySession(credentials: SessionCredentials, requestedOrg: string | undefined): Promise<Identity> {
    const session = await this.sessions!.resolve(credentials.secret);
    if (!session) throw unauthenticated('the session has ended: sign in again');
    checkCsrf(credentials, session.csrfToken);
    const tokenId = `session-${session.id}`;
    return {
      tokenId,
      kind: 'personal',
      userId: session.userId,
      orgId: null,
      requestedOrg,
      sessionId: session.id,
      token: {
        id: tokenId,
        orgId: null,
        userId: session.userId,
        kind: 'personal',
        datasetCapabilities: '{}',
        orgCapabilities: '{}',
        viewCapabilities: '{}',
        expiresAt: session.expiresAt,
        createdBy: null,
      },
    };
  }

  /** The principal in the organization the request names (or the only one the user belongs to). */
  async principalOf(identity: Identity): Promise<Principal> {
    if (identity.kind === 'api') {
      if (identity.requestedOrg && identity.requestedOrg !== identity.orgId) {
        throw forbidden(`the API token does not belong to organization "${identity.requestedOrg}"`);
      }
      return this.apiPrincipal(identity);
    }
    const requested = identity.requestedOrg;
    if (requested) {
      const principal = await this.personalPrincipal(identity, requested);
      if (!principal) throw forbidden(`not a member of organization "${requested}"`);
      return principal;
    }
    const memberships = await this.repository.tokens.membershipsOfUser(identity.userId!);
    if (memberships.length === 0) throw forbidden("the token's user belongs to no organization");
    if (memberships.length > 1) {
      throw invalidInput("the X-Axiom-Org-Id header is required: the token's user belongs to several organizations");
    }
    const principal = await this.personalPrincipal(identity, memberships[0]!.orgId);
    if (!principal) throw forbidden("the token's user belongs to no organization");
    return principal;
  }

  /** The principal acting in `orgId` (whatever the header says), or undefined when the token has no access there. */
  async principalIn(identity: Identity, orgId: string): Promise<Principal | undefined> {
    if (identity.kind === 'api') return identity.orgId === orgId ? this.apiPrincipal(identity) : undefined;
    return this.personalPrincipal(identity, orgId);
  }

  /** What a user holds in an organization right now, or undefined when they are not a member. */
  async memberAccess(orgId: string, userId: string): Promise<MemberAccess | undefined> {
    return rememberedAccessOf(await this.repository.access.grantsOf(orgId, userId));
  }

  private async personalPrincipal(identity: Identity, orgId: string): Promise<Principal | undefined> {
    const access = await this.memberAccess(orgId, identity.userId!);
    if (!access) return undefined;
    return { tokenId: identity.tokenId, kind: 'personal', orgId, userId: identity.userId, role: access.role, ...access.capabilities };
  }

  private async apiPrincipal(identity: Identity): Promise<Principal> {
    const { token } = identity;
    let capabilities: CapabilitySet;
    if (token.createdBy) {
      const grants = await this.repository.access.grantsOf(token.orgId!, token.createdBy);
      const creator = rememberedAccessOf(grants);
      if (!creator) throw unauthenticated('API token is no longer valid: the user who created it is not a member of the organization');
      capabilities = rememberedTokenCapabilities(token, grants, creator);
    } else {
      capabilities = rememberedTokenCapabilities(token, undefined, undefined);
    }
    return { tokenId: token.id, kind: 'api', orgId: token.orgId!, userId: token.createdBy, ...capabilities };
  }
}
