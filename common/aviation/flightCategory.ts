/**
 * Flight categories (SPEC §3 pois "metars" are coloured by them; the airport window's badge): the
 * FAA definitions as the Aviation Weather Center publishes them ("Aviation Flight Categories",
 * aviationweather.gov/static/info/afc.html; ADDS METARs help, page 4):
 *
 *   LIFR  ceiling below 500 ft AGL                and/or  visibility less than 1 statute mile
 *   IFR   ceiling 500 to below 1 000 ft AGL       and/or  visibility 1 to less than 3 miles
 *   MVFR  ceiling 1 000 to 3 000 ft AGL           and/or  visibility 3 to 5 miles
 *   VFR   ceiling greater than 3 000 ft AGL       and     visibility greater than 5 miles
 *
 * The ceiling is the lowest broken or overcast layer, or the vertical visibility into an obscured
 * sky (the definition of "ceiling" in the Federal Meteorological Handbook No. 1, METAR/SPECI).
 */

export const FLIGHT_CATEGORIES = ['VFR', 'MVFR', 'IFR', 'LIFR'] as const;
export type FlightCategory = (typeof FLIGHT_CATEGORIES)[number];

/** Ceiling limits, feet above ground: below LIFR_CEILING_FT is LIFR, below IFR_CEILING_FT IFR, up to MVFR_CEILING_FT MVFR. */
export const LIFR_CEILING_FT = 500;
export const IFR_CEILING_FT = 1000;
export const MVFR_CEILING_FT = 3000;
/** Visibility limits, statute miles: below LIFR_VISIBILITY_SM is LIFR, below IFR_VISIBILITY_SM IFR, up to MVFR_VISIBILITY_SM MVFR. */
export const LIFR_VISIBILITY_SM = 1;
export const IFR_VISIBILITY_SM = 3;
export const MVFR_VISIBILITY_SM = 5;

/** The map and badge colours, as the Aviation Weather Center draws them (green, blue, red, magenta). */
export const FLIGHT_CATEGORY_COLOURS: Readonly<Record<FlightCategory, readonly [number, number, number]>> = {
  VFR: [0, 160, 60],
  MVFR: [0, 90, 230],
  IFR: [220, 30, 30],
  LIFR: [200, 0, 200],
};

function byCeiling(ft: number): FlightCategory {
  if (ft < LIFR_CEILING_FT) return 'LIFR';
  if (ft < IFR_CEILING_FT) return 'IFR';
  if (ft <= MVFR_CEILING_FT) return 'MVFR';
  return 'VFR';
}

function byVisibility(sm: number): FlightCategory {
  if (sm < LIFR_VISIBILITY_SM) return 'LIFR';
  if (sm < IFR_VISIBILITY_SM) return 'IFR';
  if (sm <= MVFR_VISIBILITY_SM) return 'MVFR';
  return 'VFR';
}

/**
 * The category of a ceiling (feet AGL; null: no ceiling, i.e. none below the reported layers) and
 * a visibility (statute miles; null: not reported). The worse of the two decides ("and/or"); a
 * report with neither a visibility nor any sky condition has no category (null).
 */
export function flightCategory(ceilingFt: number | null, visibilitySm: number | null, skyReported = true): FlightCategory | null {
  if (visibilitySm === null && !skyReported) return null;
  const c = ceilingFt === null ? 'VFR' : byCeiling(ceilingFt);
  const v = visibilitySm === null ? 'VFR' : byVisibility(visibilitySm);
  return FLIGHT_CATEGORIES.indexOf(c) > FLIGHT_CATEGORIES.indexOf(v) ? c : v;
}
