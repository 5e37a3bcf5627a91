/** Country-dependent defaults, SPEC §9. Country codes are ISO 3166 alpha-2, any case. */

/** SPEC §9: 12-hour clock countries. */
const TWELVE_HOUR_COUNTRIES = ['us', 'uk', 'ph', 'ca', 'au', 'nz', 'in', 'eg', 'sa', 'co', 'pk', 'my'] as const;
/** SPEC §9: imperial unit countries. */
const IMPERIAL_COUNTRIES = ['us', 'my', 'lr'] as const;

export function hourFormatFor(countryCode: string | null | undefined): '12h' | '24h' {
  const cc = (countryCode ?? '').toLowerCase();
  // 'uk' in the SPEC list is the common name; ISO spells it 'gb'.
  return (TWELVE_HOUR_COUNTRIES as readonly string[]).includes(cc === 'gb' ? 'uk' : cc) ? '12h' : '24h';
}

export function unitSystemFor(countryCode: string | null | undefined): 'metric' | 'imperial' {
  return (IMPERIAL_COUNTRIES as readonly string[]).includes((countryCode ?? '').toLowerCase()) ? 'imperial' : 'metric';
}
