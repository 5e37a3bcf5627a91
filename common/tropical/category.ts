/**
 * Tropical cyclone intensity classes (SPEC §1 "hurricanes", §3 overlay hurricanes). The SPEC names
 * no thresholds, so they are the agencies' own, on 1-minute sustained winds in knots:
 * - NHC, Saffir-Simpson Hurricane Wind Scale (https://www.nhc.noaa.gov/aboutsshws.php): Category 1
 *   64-82 kt, 2 83-95 kt, 3 96-112 kt, 4 113-136 kt, 5 137 kt or higher; a tropical storm 34-63 kt
 *   and a tropical depression 33 kt or less (NHC glossary, https://www.nhc.noaa.gov/aboutgloss.shtml).
 * - JTWC: a super typhoon has 1-minute sustained winds of 130 kt or more
 *   (JTWC Annual Tropical Cyclone Report, definitions; https://www.metoc.navy.mil/jtwc/jtwc.html).
 */

export type StormCategory = 'TD' | 'TS' | 'H1' | 'H2' | 'H3' | 'H4' | 'H5';

export const STORM_CATEGORIES: readonly StormCategory[] = ['TD', 'TS', 'H1', 'H2', 'H3', 'H4', 'H5'];

/** Lowest 1-minute sustained wind (kt) of each class (Saffir-Simpson, NHC; see above). */
export const CATEGORY_MIN_KT: Readonly<Record<StormCategory, number>> = {
  TD: 0, TS: 34, H1: 64, H2: 83, H3: 96, H4: 113, H5: 137,
};

/** JTWC: super typhoon from 130 kt (1-minute sustained). */
export const SUPER_TYPHOON_MIN_KT = 130;

/** The Saffir-Simpson class of a 1-minute sustained wind in knots. */
export function stormCategory(windKt: number): StormCategory {
  if (!Number.isFinite(windKt) || windKt < 0) throw new RangeError(`stormCategory: wind ${windKt} kt is not a wind speed`);
  let found: StormCategory = 'TD';
  for (const c of STORM_CATEGORIES) if (windKt >= CATEGORY_MIN_KT[c]) found = c;
  return found;
}

/** Saffir-Simpson number 1-5 of a hurricane, 0 below hurricane strength. */
export function hurricaneNumber(category: StormCategory): number {
  return category.startsWith('H') ? Number(category.slice(1)) : 0;
}

/**
 * ATCF basins (ATCF manual, "basin" field): AL Atlantic, EP eastern North Pacific, CP central North
 * Pacific, WP western North Pacific, IO north Indian Ocean, SH southern hemisphere, and the
 * sub-basins JTWC's b-decks use (SH also covers SI/SP, IO covers BB/AS).
 */
export type Basin = 'AL' | 'EP' | 'CP' | 'WP' | 'IO' | 'SH';
export const BASINS: readonly Basin[] = ['AL', 'EP', 'CP', 'WP', 'IO', 'SH'];

/** A super typhoon: a western North Pacific storm of 130 kt or more (JTWC). */
export function isSuperTyphoon(basin: Basin, windKt: number): boolean {
  return basin === 'WP' && windKt >= SUPER_TYPHOON_MIN_KT;
}

/**
 * Track colours of each class, RGB 0-255: the colours of the Saffir-Simpson scale as
 * Wikipedia's tropical cyclone track maps use them (WikiProject Tropical cyclones, "Saffir-Simpson
 * scale" colour key), light to dark red with the class.
 */
export const CATEGORY_COLORS: Readonly<Record<StormCategory, readonly [number, number, number]>> = {
  TD: [94, 186, 255],
  TS: [0, 250, 244],
  H1: [255, 255, 204],
  H2: [255, 231, 117],
  H3: [255, 193, 64],
  H4: [255, 143, 32],
  H5: [255, 96, 96],
};
