// Setting up teams in HTTP tests: the admin's organization, members with a role and a personal
// token each, API tokens, and JSON request bodies.
import { issuePersonalToken } from '../../src/identity/personal-tokens';
import type { TestServer } from './server';

export function json(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/** The body of a response, parsed when it is JSON (the text otherwise), with its status. */
export async function call(server: TestServer, path: string, init: RequestInit & { auth?: string | false } = {}) {
  const response = await server.request(path, init);
  const text = await response.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: response.status, body, text };
}

/** The organization of the admin user (the first one created at start). */
export async function adminOrg(server: TestServer): Promise<string> {
  const owner = await server.app.services.store.prisma.membership.findFirstOrThrow({ where: { role: 'owner' }, orderBy: { createdAt: 'asc' } });
  return owner.orgId;
}

export interface Member {
  id: string;
  email: string;
  token: string;
}

let counter = 0;

/** Adds a member with `role` through the API (as the admin) and issues them a personal token. */
export async function addMember(server: TestServer, role: string, options: { orgId?: string; auth?: string; name?: string } = {}): Promise<Member> {
  const orgId = options.orgId ?? (await adminOrg(server));
  const email = `member-${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const created = await call(server, '/v2/users', {
    ...json('POST', { name: options.name ?? `Member ${counter}`, email, role }, { 'x-axiom-org-id': orgId }),
    ...(options.auth ? { auth: options.auth } : {}),
  });
  if (created.status !== 200) throw new Error(`could not add a member: ${created.status} ${JSON.stringify(created.body)}`);
  const token = await issuePersonalToken(server.app.services.store.prisma, orgId, email);
  return { id: created.body.id, email, token };
}

/** Creates an API token with `auth` (the admin by default) and returns its secret. */
export async function apiToken(server: TestServer, body: Record<string, unknown>, auth?: string, orgId?: string): Promise<string> {
  const created = await call(server, '/v2/tokens', {
    ...json('POST', { name: `token-${++counter}`, ...body }, orgId ? { 'x-axiom-org-id': orgId } : {}),
    ...(auth ? { auth } : {}),
  });
  if (created.status !== 200) throw new Error(`could not create a token: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.token;
}
