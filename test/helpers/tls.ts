// A throwaway self-signed certificate for 127.0.0.1, made with the machine's openssl, for tests
// that start the server over HTTPS (TLS_CERT / TLS_KEY).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** True when openssl can make the certificate; says why a test is skipped otherwise. */
export function hasOpenssl(what: string): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn(`skipping ${what}: openssl is not installed`);
    return false;
  }
}

export interface TestCertificate {
  /** The environment that serves HTTPS with it. */
  env: { TLS_CERT: string; TLS_KEY: string };
  /** The certificate, for clients to trust. */
  cert: Buffer;
  remove(): void;
}

export function makeTestCertificate(): TestCertificate {
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-tls-'));
  const [certPath, keyPath] = [path.join(dir, 'cert.pem'), path.join(dir, 'key.pem')];
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyPath, '-out', certPath,
  ], { stdio: 'ignore' });
  return { env: { TLS_CERT: certPath, TLS_KEY: keyPath }, cert: readFileSync(certPath), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
