/** Families of observation products (SPEC §1 radar, satellite, lightning, hurricanes, warnings, fires, weather stations; §2 radiosonde soundings; §3 pois metars), each served under `/obs/v1.0/{kind}/`. */
export const OBS_KINDS = ['radar', 'satellite', 'lightning', 'storms', 'warnings', 'fires', 'soundings', 'stations', 'metars'] as const;
export type ObsKind = (typeof OBS_KINDS)[number];

export function isObsKind(value: string): value is ObsKind {
  return (OBS_KINDS as readonly string[]).includes(value);
}
