// What every engine's luhn_number rule checks before the checksum: the issuer prefixes and
// lengths of the card networks.

/** Visa, Mastercard, American Express, Diners, Discover, JCB and UnionPay, as an anchored RE2. */
export const CARD_NETWORKS =
  '^(?:4[0-9]{12}(?:[0-9]{3,6})?|5[1-5][0-9]{14}|2(?:22[1-9]|2[3-9][0-9]|[3-6][0-9]{2}|7[01][0-9]|720)[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[689][0-9])[0-9]{11,16}|6(?:011|5[0-9]{2}|4[4-9][0-9])[0-9]{12,15}|35(?:2[89]|[3-8][0-9])[0-9]{12,15}|62[0-9]{14,17})$';
