/**
 * The mobile layer menu's filters (SPEC §3 setting mobileMenuFilter: all, wind, rain, sea, airQ,
 * drought, temp, warnings, clouds, search): which overlays each topic lists. An overlay may be under
 * several topics (thunder is rain and a warning sign, the storms are wind and warnings); every
 * overlay of the catalogue, sourced or not, is under at least one (menuFilters.test.ts). "all" lists
 * every overlay; "search" those whose name, in the user's language, holds the typed words.
 */

import { foldName } from '../fold.ts';

export const MENU_FILTERS = ['all', 'wind', 'rain', 'sea', 'airQ', 'drought', 'temp', 'warnings', 'clouds', 'search'] as const;
export type MenuFilter = (typeof MENU_FILTERS)[number];
export type MenuTopic = Exclude<MenuFilter, 'all' | 'search'>;

export const MENU_TOPICS: Readonly<Record<MenuTopic, readonly string[]>> = {
  wind: ['wind', 'gust', 'gustAccu', 'pressure', 'turbulence', 'efiWind', 'hurricanes'],
  rain: ['rain', 'rainAccu', 'snowAccu', 'ptype', 'thunder', 'cape', 'radar', 'radarPlus', 'snowcover', 'efiRain'],
  sea: ['waves', 'wwaves', 'swell1', 'swell2', 'swell3', 'sst', 'currents', 'currentsTide'],
  airQ: ['aqi', 'pm2p5', 'pm10', 'aod550', 'no2', 'go3', 'gtco3', 'cosc', 'tcso2', 'dustsm', 'uvindex'],
  drought: ['soilMoisture40', 'soilMoisture100', 'moistureAnom40', 'moistureAnom100', 'drought40', 'drought100', 'fwi', 'dfm10h'],
  temp: ['temp', 'dewpoint', 'wetbulbtemp', 'rh', 'deg0', 'efiTemp', 'uvindex', 'solarpower'],
  warnings: ['capAlerts', 'hurricanes', 'thunder', 'fwi', 'efiWind', 'efiRain', 'efiTemp'],
  clouds: ['clouds', 'lclouds', 'mclouds', 'hclouds', 'cbase', 'cloudtop', 'ccl', 'visibility', 'fog', 'icing', 'satellite', 'solarpower'],
};

/** Whether a menu filter lists an overlay (`name`: its name in the user's language, for search). */
export function filterLists(filter: MenuFilter, ident: string, name: string, query: string): boolean {
  if (filter === 'all') return true;
  if (filter === 'search') {
    const words = foldName(query).split(/\s+/).filter(Boolean);
    const folded = foldName(`${name} ${ident}`);
    return words.every((w) => folded.includes(w));
  }
  return MENU_TOPICS[filter].includes(ident);
}
