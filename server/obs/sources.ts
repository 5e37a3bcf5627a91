/**
 * Every observation source the server can follow (ISOBAR_OBS ids; server/obs/core/config.ts), by
 * family; each family's module says which variables its sources read.
 */

import type { ObsFactory } from './core/config.ts';
import { WARNING_FACTORIES } from './capAlerts/sources.ts';
import { LIGHTNING_AND_FIRES_FACTORIES } from './lightningAndFires.ts';
import { METAR_FACTORIES } from './metar/sources.ts';
import { RADAR_FACTORIES } from './radar/source.ts';
import { SATELLITE_FACTORIES } from './satellite/goesSource.ts';
import { SOUNDING_FACTORIES } from './soundings/uwyoSource.ts';
import { STATION_FACTORIES } from './stations/sources.ts';
import { STORM_FACTORIES } from './tropical/sources.ts';

export const OBS_FACTORIES: Readonly<Record<string, ObsFactory>> = {
  ...RADAR_FACTORIES, ...SATELLITE_FACTORIES, ...STORM_FACTORIES, ...WARNING_FACTORIES, ...LIGHTNING_AND_FIRES_FACTORIES,
  ...SOUNDING_FACTORIES, ...STATION_FACTORIES, ...METAR_FACTORIES,
};
