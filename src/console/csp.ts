// The Content-Security-Policy of the console page: scripts, styles and everything else from this
// server only, inline styles only with the per-response nonce (CodeMirror injects its style
// element with it), no inline script at all, no framing.
import { randomBytes } from 'node:crypto';

/** 144 random bits per response: a nonce an attacker cannot predict and that does not repeat. */
export function freshNonce(): string {
  return randomBytes(18).toString('base64');
}

export function consolePolicy(nonce: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
