// Sign-in and the session: who is signed in, in which organizations, and the CSRF token that
// every changing request carries (see client.ts).
import { api } from './client';

export interface SessionUser {
  id: string;
  name: string;
  email: string;
}

export interface SessionOrganization {
  id: string;
  name: string;
  role: string;
}

export interface Session {
  user: SessionUser;
  csrfToken: string;
  organizations: SessionOrganization[];
  expiresAt: string;
}

export interface SignInMethods {
  password: boolean;
  oidc: { name: string; loginUrl: string } | null;
}

export interface LoginLink {
  kind: 'invite' | 'reset';
  email: string;
  organization?: { id: string; name: string };
}

export const fetchSession = () => api<Session>('/auth/session');
export const fetchSignInMethods = () => api<SignInMethods>('/auth/methods');
export const signIn = (email: string, password: string) => api<Session>('/auth/login', { body: { email, password } });
export const signOut = () => api<void>('/auth/logout', { method: 'POST' });
export const changePassword = (currentPassword: string, newPassword: string) => api<Session>('/auth/password', { body: { currentPassword, newPassword } });
export const describeLink = (token: string) => api<LoginLink>(`/auth/links/${encodeURIComponent(token)}`);
export const acceptLink = (token: string, password: string, name?: string) =>
  api<Session>('/auth/links/accept', { body: { token, password, ...(name ? { name } : {}) } });
