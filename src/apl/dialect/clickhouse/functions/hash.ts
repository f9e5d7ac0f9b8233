// Hash functions.
import type { RuleTable } from './rule';

export const HASH_RULES: RuleTable = {
  hash: (_w, e, a) => `if(${a(0)} IS NULL, NULL, reinterpretAsInt64(xxHash64(${e.args.length > 1 ? `${a(0)}, ${a(1)}` : a(0)})))`,
  hash_digest: (_w, e, a) => {
    const functions: Record<string, string> = { md5: 'MD5', sha1: 'SHA1', sha256: 'SHA256', sha512: 'SHA512' };
    return `lower(hex(${functions[String(e.options?.algorithm)]}(${a(0)})))`;
  },
};
