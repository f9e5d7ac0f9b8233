// The configuration of console sign-in: session lifetimes, login limits, the public URL that
// links point at, and the bootstrap admin's password.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config';

describe('sign-in configuration', () => {
  it('defaults to 7-day idle and 30-day absolute sessions, 10/5 failures and a URL from HOST and PORT', () => {
    const config = loadConfig({});
    expect(config.signIn).toEqual({
      adminPassword: undefined,
      sessionIdleTimeoutMs: 7 * 86_400_000,
      sessionMaxAgeMs: 30 * 86_400_000,
      loginFailuresPerAddress: 10,
      loginFailuresPerAccount: 5,
    });
    expect(config.publicUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '9000', TLS_CERT: 'c.pem', TLS_KEY: 'k.pem' }).publicUrl).toBe('https://0.0.0.0:9000');
  });

  it('reads durations, a public URL without its trailing slash, and refuses short admin passwords', () => {
    const config = loadConfig({ SESSION_IDLE_TIMEOUT: '12h', SESSION_MAX_AGE: '1d12h', PUBLIC_URL: 'https://logs.example.com/', ADMIN_PASSWORD: 'long-enough' });
    expect(config.signIn).toMatchObject({ sessionIdleTimeoutMs: 12 * 3_600_000, sessionMaxAgeMs: 36 * 3_600_000, adminPassword: 'long-enough' });
    expect(config.publicUrl).toBe('https://logs.example.com');
    expect(() => loadConfig({ ADMIN_PASSWORD: 'short' })).toThrow(/ADMIN_PASSWORD: must be at least 8 characters/);
    expect(() => loadConfig({ SESSION_IDLE_TIMEOUT: 'forever' })).toThrow(/SESSION_IDLE_TIMEOUT: must be a duration/);
    expect(() => loadConfig({ PUBLIC_URL: 'logs.example.com' })).toThrow(/PUBLIC_URL: must be an http/);
  });
});
