// Identifiers of monitors (`mon_…`), notifiers (`notify_…`), monitor runs (`chk_…`) and
// notifications, in the prefixes Axiom's API shows.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 16 random characters of [A-Za-z0-9] (about 95 bits). */
function randomToken(length = 16): string {
  const bytes = randomBytes(length * 2);
  let token = '';
  for (let i = 0; token.length < length && i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte < 248) token += ALPHABET[byte % 62]; // 248 = 4 * 62: no modulo bias
  }
  return token.length === length ? token : randomToken(length);
}

export const newMonitorId = () => `mon_${randomToken()}`;
export const newNotifierId = () => `notify_${randomToken()}`;
export const newCheckId = () => `chk_${randomToken()}`;
export const newNotificationId = () => `ntf_${randomToken()}`;
/** Test notifications sent by hand from a notifier: the delivery log marks them by this prefix. */
export const newTestNotificationId = () => `ntf_test_${randomToken()}`;
