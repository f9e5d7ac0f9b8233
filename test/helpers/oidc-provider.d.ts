// The few parts of oidc-provider (which ships no type declarations) that the single sign-on
// tests use to run a provider on 127.0.0.1.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface AccountClaims {
    sub: string;
    [claim: string]: unknown;
  }

  interface Account {
    accountId: string;
    claims(): Promise<AccountClaims>;
  }

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  interface ProviderContext {
    oidc: {
      provider: Provider;
      client?: { clientId: string };
      session?: { accountId?: string };
    };
  }

  interface ProviderConfiguration {
    clients?: Record<string, unknown>[];
    findAccount?(ctx: ProviderContext, id: string): Promise<Account | undefined>;
    claims?: Record<string, string[]>;
    features?: Record<string, { enabled: boolean }>;
    pkce?: { required(): boolean };
    cookies?: { keys: string[] };
    loadExistingGrant?(ctx: ProviderContext): Promise<Grant | undefined>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: ProviderConfiguration);
    Grant: new (properties: { clientId: string; accountId: string }) => Grant;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
