/** @module PayPal's IPN dates, e.g. `08:30:06 Nov 22, 2026 PST`, as Dates. */
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const ZONES: Record<string, number> = { PST: -8, PDT: -7, UTC: 0, GMT: 0 };

export function parsePayPalDate(value: string | undefined): Date | null {
  if (!value) return null;
  const m = value.trim().match(/^(\d{1,2}):(\d{2}):(\d{2}) ([A-Z][a-z]{2}) (\d{1,2}), (\d{4}) ([A-Z]{3})$/);
  if (m) {
    const month = MONTHS.indexOf(m[4]!);
    const offset = ZONES[m[7]!];
    if (month < 0 || offset === undefined) return null;
    return new Date(Date.UTC(+m[6]!, month, +m[5]!, +m[1]! - offset, +m[2]!, +m[3]!));
  }
  const iso = Date.parse(value);
  return Number.isNaN(iso) ? null : new Date(iso);
}
