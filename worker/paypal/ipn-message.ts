/**
 * @module An IPN message as PayPal posts it: form-encoded in the charset its `charset` field names
 * (windows-1252 by default, or UTF-8). The raw bytes are kept, because verification posts them back unchanged.
 */
const FALLBACK_CHARSET = "windows-1252";

const AMP = 0x26;
const EQUALS = 0x3d;
const PLUS = 0x2b;
const PERCENT = 0x25;

const hexValue = (b: number) =>
  b >= 0x30 && b <= 0x39 ? b - 0x30 : b >= 0x41 && b <= 0x46 ? b - 0x37 : b >= 0x61 && b <= 0x66 ? b - 0x57 : -1;

/** Form decoding on bytes: `+` is a space, `%XY` the byte XY, anything else itself. */
function formDecode(bytes: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const hi = b === PERCENT ? hexValue(bytes[i + 1] ?? -1) : -1;
    const lo = hi >= 0 ? hexValue(bytes[i + 2] ?? -1) : -1;
    if (lo >= 0) {
      out.push(hi * 16 + lo);
      i += 2;
    } else out.push(b === PLUS ? 0x20 : b);
  }
  return new Uint8Array(out);
}

function decoderFor(charset: string | undefined): TextDecoder {
  try {
    return new TextDecoder(charset || FALLBACK_CHARSET);
  } catch {
    return new TextDecoder(FALLBACK_CHARSET);
  }
}

function splitPairs(raw: Uint8Array): [Uint8Array, Uint8Array][] {
  const pairs: [Uint8Array, Uint8Array][] = [];
  let start = 0;
  for (let i = 0; i <= raw.length; i++) {
    if (i < raw.length && raw[i] !== AMP) continue;
    const part = raw.subarray(start, i);
    start = i + 1;
    if (part.length === 0) continue;
    const eq = part.indexOf(EQUALS);
    pairs.push(eq < 0 ? [part, new Uint8Array()] : [part.subarray(0, eq), part.subarray(eq + 1)]);
  }
  return pairs;
}

/** The fields of a raw IPN body, decoded in the charset the message itself declares. */
export function parseIpn(raw: Uint8Array): Record<string, string> {
  const ascii = new TextDecoder("utf-8");
  const pairs = splitPairs(raw).map(([k, v]) => [formDecode(k), formDecode(v)] as const);
  const charset = pairs.find(([k]) => ascii.decode(k) === "charset")?.[1];
  const decoder = decoderFor(charset ? ascii.decode(charset).trim() : undefined);
  const fields: Record<string, string> = {};
  for (const [key, value] of pairs) fields[decoder.decode(key)] = decoder.decode(value);
  return fields;
}

/** `cmd=_notify-validate&` followed by the body exactly as it arrived. */
export function validationBody(raw: Uint8Array): Uint8Array {
  const prefix = new TextEncoder().encode("cmd=_notify-validate&");
  const body = new Uint8Array(prefix.length + raw.length);
  body.set(prefix);
  body.set(raw, prefix.length);
  return body;
}
