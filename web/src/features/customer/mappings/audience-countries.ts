/**
 * @module The country picker's choices: the ISO 3166-1 alpha-2 codes (and XK, Kosovo, which Cloudflare reports),
 * named in the dashboard's language by the browser (`Intl.DisplayNames`), so no list of names ships with the SPA.
 */
import type { AudienceLanguage } from "./audience-text";

const CODES =
  "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
  "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO " +
  "FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE " +
  "JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO " +
  "MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW " +
  "PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM " +
  "TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW";

export const COUNTRY_CODES: readonly string[] = CODES.split(" ");

export interface Country {
  code: string;
  name: string;
}

const cache = new Map<AudienceLanguage, Country[]>();

/** Every country with its name in `lang`, by name (a code the browser cannot name is named by its code). */
export function countries(lang: AudienceLanguage): Country[] {
  let list = cache.get(lang);
  if (!list) {
    const names = new Intl.DisplayNames([lang], { type: "region" });
    list = COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
      a.name.localeCompare(b.name, lang),
    );
    cache.set(lang, list);
  }
  return list;
}

/** A country's name in `lang`, or the code itself for one the browser cannot name. */
export function countryName(code: string, lang: AudienceLanguage): string {
  return countries(lang).find((c) => c.code === code)?.name ?? code;
}

/** The countries whose code starts with `typed` (first) or whose name contains it, ignoring case; at most `max`. */
export function matchingCountries(typed: string, lang: AudienceLanguage, exclude: readonly string[], max = 8) {
  const t = typed.trim().toLowerCase();
  if (t === "") return [];
  const open = countries(lang).filter((c) => !exclude.includes(c.code));
  const byCode = open.filter((c) => c.code.toLowerCase() === t);
  const byName = open.filter((c) => c.code.toLowerCase() !== t && c.name.toLowerCase().includes(t));
  return [...byCode, ...byName].slice(0, max);
}
