// The ways an API token can arrive in the Authorization header. The API itself takes
// `Bearer <token>`; shippers that cannot send that use their own scheme with the token inside:
// HTTP Basic with the token as password (Heroku drains put it in the URL: https://axiom:TOKEN@host),
// Elasticsearch's `ApiKey base64(id:key)` (Beats: `api_key: "axiom:TOKEN"`) and Splunk's
// `Splunk <token>`. Each route says which schemes it accepts.
import { unauthenticated } from '../errors';

export type AuthScheme = 'bearer' | 'basic' | 'apikey' | 'splunk';

const HEADER_EXAMPLE: Record<AuthScheme, string> = {
  bearer: '"Bearer <token>"',
  basic: '"Basic base64(user:<token>)"',
  apikey: '"ApiKey base64(id:<token>)"',
  splunk: '"Splunk <token>"',
};

const SCHEME_OF_NAME: Record<string, AuthScheme> = { bearer: 'bearer', basic: 'basic', apikey: 'apikey', splunk: 'splunk' };

function expected(schemes: readonly AuthScheme[]): string {
  return schemes.map((scheme) => HEADER_EXAMPLE[scheme]).join(' or ');
}

/** `user:password` of a base64 credential; undefined when the text is not base64 of that shape. */
function decodePair(encoded: string): { user: string; secret: string } | undefined {
  if (!/^[A-Za-z0-9+/=_-]+$/.test(encoded)) return undefined;
  const text = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon === -1) return undefined;
  return { user: text.slice(0, colon), secret: text.slice(colon + 1) };
}

/** The token in an Authorization header, in one of the accepted schemes; 401 otherwise. */
export function tokenFromAuthorization(authorization: string | undefined, schemes: readonly AuthScheme[] = ['bearer']): string {
  if (!authorization) throw unauthenticated(`missing Authorization header: send ${expected(schemes)}`);
  const match = /^\s*([A-Za-z]+)\s+(\S+)\s*$/.exec(authorization);
  const scheme = match ? SCHEME_OF_NAME[match[1]!.toLowerCase()] : undefined;
  if (!match || !scheme || !schemes.includes(scheme)) throw unauthenticated(`malformed Authorization header: expected ${expected(schemes)}`);
  const value = match[2]!;
  switch (scheme) {
    case 'bearer':
    case 'splunk':
      return value;
    case 'basic': {
      const pair = decodePair(value);
      if (!pair) throw unauthenticated('malformed Authorization header: Basic credentials must be base64 of "user:token"');
      // The token is the password; a client that can only set a user name may put it there.
      const token = pair.secret || pair.user;
      if (!token) throw unauthenticated('malformed Authorization header: Basic credentials carry no token');
      return token;
    }
    case 'apikey':
      // base64("id:key") with the token as key, or the token itself as some clients send it.
      return decodePair(value)?.secret || value;
  }
}
