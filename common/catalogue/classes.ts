/**
 * Value classes of SPEC §9: UV index, fog, air quality index, precipitation type, snow depth and
 * the clouds picker. Beaufort forces are in metrics.ts (a unit of the wind metric).
 */

export type UvClass = 'none' | 'low' | 'moderate' | 'high' | 'veryHigh' | 'extreme';

/** SPEC §9: "UV 0 none, up to 2 low, up to 5 moderate, up to 7 high, up to 10 very high, else extreme". */
export function uvClass(index: number): UvClass {
  if (index <= 0) return 'none';
  if (index <= 2) return 'low';
  if (index <= 5) return 'moderate';
  if (index <= 7) return 'high';
  if (index <= 10) return 'veryHigh';
  return 'extreme';
}

export type FogClass = 'none' | 'fog' | 'rimeFog';

/** SPEC §9: "Fog up to 0.7 none, up to 1 fog, else rime fog". */
export function fogClass(value: number): FogClass {
  if (value <= 0.7) return 'none';
  if (value <= 1) return 'fog';
  return 'rimeFog';
}

export type AqiClass = 'good' | 'moderate' | 'unhealthySensitive' | 'unhealthy' | 'veryUnhealthy' | 'hazardous';

/**
 * SPEC §9: "AQI by 50s up to 200, above 201 very unhealthy, above 301 hazardous; air quality
 * tiers Good to Hazardous" (the US EPA categories).
 */
export function aqiClass(aqi: number): AqiClass {
  if (aqi <= 50) return 'good';
  if (aqi <= 100) return 'moderate';
  if (aqi <= 150) return 'unhealthySensitive';
  if (aqi <= 200) return 'unhealthy';
  if (aqi <= 300) return 'veryUnhealthy';
  return 'hazardous';
}

/**
 * The one correspondence between the European Air Quality Index the ingest stores (EEA, levels
 * 1-6: good, fair, moderate, poor, very poor, extremely poor; server/ingest/derived/europeanAqi.ts)
 * and SPEC §9's six air quality tiers (the US EPA's, Good to Hazardous, on a 0-500 scale): level n
 * is shown as the n-th tier, in order. It is a correspondence of ranks, not a conversion: the two
 * indices have other breakpoints and pollutants, so no 0-500 number is made from a level. The
 * legend, the picker, the detail window's row and the map's colours (colors.ts) all read it here.
 */
export const EAQI_TIERS: readonly AqiClass[] = ['good', 'moderate', 'unhealthySensitive', 'unhealthy', 'veryUnhealthy', 'hazardous'];

/** The SPEC §9 tier of a European AQI level (1-6; a level between two, e.g. interpolated, rounds); null outside 1-6. */
export function eaqiTier(level: number): AqiClass | null {
  const n = Math.round(level);
  return Number.isFinite(level) && n >= 1 && n <= EAQI_TIERS.length ? EAQI_TIERS[n - 1] : null;
}

/** SPEC §9 precipitation type codes 0-11. */
export const PRECIPITATION_TYPES = [
  'rain', 'justRain', 'thunder', 'freezingRain', 'mixedIce', 'snow', 'wetSnow', 'rainSnow', 'pellets', 'lightThunder', 'thunder', 'heavyThunder',
] as const;

export function precipitationType(code: number): (typeof PRECIPITATION_TYPES)[number] | null {
  return Number.isInteger(code) && code >= 0 && code < PRECIPITATION_TYPES.length ? PRECIPITATION_TYPES[code] : null;
}

/** SPEC §9: "Snow depth above 490 cm shows More than 5m". */
const SNOW_DEPTH_MORE_THAN_CM = 490;

export function snowDepthText(cm: number): { moreThan5m: boolean; cm: number } {
  return { moreThan5m: cm > SNOW_DEPTH_MORE_THAN_CM, cm };
}
