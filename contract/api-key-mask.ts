/**
 * @module How a customer's permanent API key is shown where it must not be readable (issue 38, P-12): to an admin
 * acting as the customer with an hour's impersonation key. The last four characters tell keys apart; the rest is
 * never sent.
 */

const HIDDEN = "•".repeat(8);

/** `dc_••••••••AbC9` for `dc_…AbC9`. */
export const maskApiKey = (key: string) => `${key.slice(0, 3)}${HIDDEN}${key.slice(-4)}`;

export const isMaskedApiKey = (key: string) => key.includes(HIDDEN);
