// Single sign-on with OpenID Connect: starting a sign-in (a sealed pending sign-in and the
// provider's URL to go to) and finishing it (the state checked once, the code exchanged, the
// email checked, the user found by email or created). At their first sign-in, people join the
// configured organization with the configured base role, which is never `owner`; a user found
// by email keeps the memberships they have (someone removed from an organization is not added
// back). Starting a session for the user is the caller's business.
import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import type { Logger } from 'pino';
import type { OidcConfig } from '../config';
import type { PrismaClient } from '../db/store';
import { forbidden, invalidInput, unavailable } from '../errors';
import { OidcProviderClient, type ProviderIdentity } from './oidc-client';
import { PENDING_SIGN_IN_TTL_MS, type PendingSignIn, PendingSignInSeal, UsedStates } from './oidc-flow';

export interface StartedSignIn {
  /** Where to send the browser. */
  authorizationUrl: string;
  /** The pending sign-in to hand back to `finish`, opaque and tamper-proof. */
  sealed: string;
  /** Seconds the pending sign-in remains valid. */
  ttlSeconds: number;
}

export interface FinishedSignIn {
  userId: string;
  /** True when this sign-in created the user. */
  created: boolean;
  /** Where to land: a path under /app/. */
  next: string;
}

export const LANDING_PATH = '/app/';

export class OidcSignIn {
  private readonly client: OidcProviderClient;
  private readonly usedStates = new UsedStates();
  private readonly seal: PendingSignInSeal;

  constructor(
    readonly settings: OidcConfig,
    private readonly prisma: PrismaClient,
    sealKey: string,
    private readonly logger: Logger,
  ) {
    this.client = new OidcProviderClient(settings);
    this.seal = new PendingSignInSeal(sealKey);
  }

  /** `next` is where to land afterwards; anything but a path under /app/ lands on /app/. */
  async start(redirectUri: string, next: string | undefined): Promise<StartedSignIn> {
    const pending: PendingSignIn = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
      next: landingPath(next),
      expiresAt: Date.now() + PENDING_SIGN_IN_TTL_MS,
    };
    const url = await this.client.authorizationUrl(redirectUri, pending);
    return { authorizationUrl: url.href, sealed: this.seal.seal(pending), ttlSeconds: PENDING_SIGN_IN_TTL_MS / 1000 };
  }

  /** Finishes the sign-in the provider answered with `callbackQuery`, begun by the one `sealed` describes. */
  async finish(redirectUri: string, callbackQuery: URLSearchParams, sealed: string | undefined): Promise<FinishedSignIn> {
    const pending = sealed ? this.seal.open(sealed) : undefined;
    if (!pending) throw invalidInput('sign-in failed: no sign-in in progress in this browser, or it expired; start the sign-in again');
    const state = callbackQuery.get('state');
    if (!state) throw invalidInput('sign-in failed: the answer from the provider has no state');
    if (state !== pending.state) throw invalidInput('sign-in failed: the state does not match the sign-in in progress; start the sign-in again');
    if (!this.usedStates.claim(state, pending.expiresAt)) throw invalidInput('sign-in failed: this sign-in was already used; start the sign-in again');
    const identity = await this.client.identity(redirectUri, callbackQuery, pending);
    const { userId, created } = await this.userFor(identity);
    return { userId, created, next: pending.next };
  }

  private async userFor(identity: ProviderIdentity): Promise<{ userId: string; created: boolean }> {
    const email = this.allowedEmail(identity);
    const existing = await this.prisma.user.findUnique({ where: { email } });
    if (existing) return { userId: existing.id, created: false };
    const orgId = await this.organizationForNewUsers();
    const id = randomUUID();
    try {
      await this.prisma.user.create({
        data: {
          id,
          name: (identity.name?.trim() || email.split('@')[0]!).slice(0, 255),
          email,
          memberships: { create: { orgId, role: this.settings.defaultRole } },
        },
      });
    } catch (error) {
      // Two first sign-ins at once: the other one created the user.
      const raced = await this.prisma.user.findUnique({ where: { email } });
      if (raced) return { userId: raced.id, created: false };
      throw error;
    }
    this.logger.info({ userId: id, orgId, role: this.settings.defaultRole }, 'created a user at their first single sign-on');
    return { userId: id, created: true };
  }

  /** The lower-cased email, when verified (or the provider does not say) and of an allowed domain. */
  private allowedEmail(identity: ProviderIdentity): string {
    const email = identity.email?.trim().toLowerCase();
    if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) {
      throw forbidden('sign-in refused: the provider did not share an email address (allow the "email" scope for this application)');
    }
    if (identity.emailVerified === false) throw forbidden(`sign-in refused: the provider has not verified the email address ${email}`);
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (this.settings.allowedDomains.length > 0 && !this.settings.allowedDomains.includes(domain)) {
      throw forbidden(`sign-in refused: email addresses at ${domain} may not sign in here`);
    }
    return email;
  }

  /** OIDC_ORG_ID, or the organization created at the first start (the oldest with an owner). */
  private async organizationForNewUsers(): Promise<string> {
    if (this.settings.orgId) {
      const org = await this.prisma.organization.findUnique({ where: { id: this.settings.orgId }, select: { id: true } });
      if (!org) throw unavailable(`single sign-on cannot create users: OIDC_ORG_ID names no organization ("${this.settings.orgId}")`);
      return org.id;
    }
    const owner = await this.prisma.membership.findFirst({ where: { role: 'owner' }, orderBy: { createdAt: 'asc' }, select: { orgId: true } });
    if (!owner) throw unavailable('single sign-on cannot create users: no organization has an owner yet');
    return owner.orgId;
  }
}

/** A same-origin path under /app/, or /app/. */
export function landingPath(next: string | undefined): string {
  if (!next || !next.startsWith(LANDING_PATH) || /[\\\u0000-\u001f\u007f]/.test(next)) return LANDING_PATH;
  const base = 'http://landing.invalid';
  const url = new URL(next, base);
  if (url.origin !== base || !url.pathname.startsWith(LANDING_PATH)) return LANDING_PATH;
  return `${url.pathname}${url.search}${url.hash}`;
}
