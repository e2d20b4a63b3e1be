/** @module An address as a list may show it to an admin without spelling it out: `an•••@example.com`. */

/** The first two characters of the local part (one when it is that short), then `•••`, then the domain. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf("@");
  if (at < 0) return "•••";
  const local = address.slice(0, at);
  return `${local.slice(0, local.length > 2 ? 2 : 1)}•••${address.slice(at)}`;
}
