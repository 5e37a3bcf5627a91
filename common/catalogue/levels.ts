/** Levels, SPEC §3 "Levels". `100m` exists for wind only. */

export interface Level {
  ident: string;
  /** Pressure in hPa for pressure levels. */
  hPa?: number;
  /** Height above ground in metres for height levels. */
  heightM?: number;
}

export const LEVELS: readonly Level[] = [
  { ident: 'surface' },
  ...[975, 950, 925, 900, 850, 800, 700, 600, 500, 400, 300, 250, 200, 150, 10].map((hPa) => ({ ident: `${hPa}h`, hPa })),
  { ident: '100m', heightM: 100 },
];

export const LEVEL_IDENTS: readonly string[] = LEVELS.map((l) => l.ident);
export const DEFAULT_LEVEL = 'surface';
