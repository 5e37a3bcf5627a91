/** The sounding window's path (SPEC §2 /sounding/{lat}/{lon}), with the grid of SPEC §9's 3 decimals. */

import { COORD_DECIMALS } from '../../../common/url.ts';

export const soundingPath = (lat: number, lon: number): string => `/sounding/${lat.toFixed(COORD_DECIMALS)}/${lon.toFixed(COORD_DECIMALS)}`;
