/**
 * The observation sources of the metars family (ISOBAR_OBS ids) and the variables they read:
 *   awc          Aviation Weather Center METAR and TAF cache files (keyless, default); ISOBAR_AWC_URL
 *   ourairports  OurAirports runways.csv, daily (keyless, default); ISOBAR_OURAIRPORTS_URL
 * Listed in server/obs/sources.ts.
 */

import type { ObsFactory } from '../core/config.ts';
import { AwcMetarSource } from './metarSource.ts';
import { OurAirportsRunwaysSource } from './runwaysSource.ts';

export const METAR_FACTORIES: Record<string, ObsFactory> = {
  awc: { default: true, create: (env) => new AwcMetarSource(env.ISOBAR_AWC_URL?.trim() || undefined) },
  ourairports: { default: true, create: (env) => new OurAirportsRunwaysSource(env.ISOBAR_OURAIRPORTS_URL?.trim() || undefined) },
};
