// Hash functions: Kusto's 64-bit hash and the hex digests.
import { call } from '../typed';
import type { ScalarFamily, ScalarRule } from './rule';

const hashOf =
  (algorithm: string): ScalarRule =>
  (site) => {
    site.arity(1);
    return call('hash_digest', [site.arg(0, 'string')], 'string', { algorithm });
  };

export const HASH_FUNCTIONS: ScalarFamily = {
  hash: (site) => {
    site.arity(1, 2);
    const args = [site.arg(0, 'string')];
    if (site.count > 1) args.push(site.arg(1, 'int'));
    return call('hash', args, 'int');
  },
  hash_md5: hashOf('md5'),
  hash_sha1: hashOf('sha1'),
  hash_sha256: hashOf('sha256'),
  hash_sha512: hashOf('sha512'),
};
