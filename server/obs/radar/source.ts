/**
 * Radar providers as observation sources (server/obs/core): each polls one upstream file on the
 * radar interval (SPEC §9: 3 min), reads it with its format reader and publishes it (publish.ts).
 * A bad upstream file is an ObsDataError; the previous frames keep serving.
 *
 * Configuration (ISOBAR_OBS lists ids; URLs overridable, e.g. for a mirror or the fixture server):
 *   mrms     ISOBAR_MRMS_URL     NOAA MRMS, default the NCEP server's latest file
 *   radolan  ISOBAR_RADOLAN_URL  DWD RADOLAN RX on opendata.dwd.de (latest file)
 *   radvor   ISOBAR_RADVOR_URL   DWD RADVOR RV nowcast tar.bz2 on opendata.dwd.de (latest)
 *   odim     ISOBAR_ODIM_URL     any ODIM_H5 composite (no default: the service must be named)
 */

import type { Engine } from '../../../engine/engine.ts';
import { RADAR_UPDATE_MINUTES, type RadarSourceInfo } from '../../../common/radar.ts';
import { loadEngine } from '../../ingest/engine.ts';
import type { ObsFactory } from '../core/config.ts';
import { ObsDataError, type ObsContext, type ObsSource } from '../core/source.ts';
import { RadarFormatError, type RadarField } from './field.ts';
import { readMrms } from './mrms.ts';
import { odimToField, readOdimCompositeBytes } from './odim.ts';
import { publishRadar, MINIFEST } from './publish.ts';
import { readRadolan } from './radolan.ts';
import { readRadvorBytes } from './radvor.ts';
import type { RadarMinifest } from '../../../common/radar.ts';

type Env = Record<string, string | undefined>;

export const MRMS_LATEST_URL = 'https://mrms.ncep.noaa.gov/data/2D/ReflectivityAtLowestAltitude/MRMS_ReflectivityAtLowestAltitude.latest.grib2.gz';
export const RADOLAN_RX_LATEST_URL = 'https://opendata.dwd.de/weather/radar/composite/rx/raa01-rx_10000-latest-dwd---bin';
export const RADVOR_RV_LATEST_URL = 'https://opendata.dwd.de/weather/radar/radvor/rv/DE1200_RV_LATEST.tar.bz2';

export interface RadarProviderSpec {
  id: string;
  label: string;
  attribution: string;
  url: string | undefined;
  /** Reads the upstream bytes: observed frames and nowcast frames. */
  read(bytes: Uint8Array, engine: () => Promise<Engine>, signal: AbortSignal): Promise<{ observed: RadarField[]; nowcast: RadarField[] }>;
}

export function radarSource(spec: RadarProviderSpec): ObsSource {
  return {
    id: spec.id,
    kind: 'radar',
    label: spec.label,
    attribution: spec.attribution,
    intervalMinutes: RADAR_UPDATE_MINUTES,
    unsupportedReason: spec.url ? undefined : `no URL configured for radar source ${spec.id}`,
    async poll(ctx: ObsContext) {
      const url = spec.url!;
      const bytes = await ctx.http.bytes(url, ctx.signal);
      if (!bytes) throw new ObsDataError(spec.id, url, 'not found upstream');
      let frames;
      try {
        frames = await spec.read(bytes, loadEngine, ctx.signal);
      } catch (error) {
        if (error instanceof RadarFormatError) throw new ObsDataError(spec.id, url, `${error.name}: ${error.message}`);
        throw error;
      }
      const manifest = await ctx.store.readJson<RadarMinifest>('radar', MINIFEST);
      const info: RadarSourceInfo = { id: spec.id, label: spec.label, attribution: spec.attribution, latest: manifest?.sources.find((s) => s.id === spec.id)?.latest ?? null };
      await publishRadar(ctx.store, { source: info, observed: frames.observed, nowcast: frames.nowcast.length ? frames.nowcast : undefined, now: ctx.now() });
      ctx.log.info({ source: spec.id, frames: frames.observed.length, nowcast: frames.nowcast.length }, 'radar frames published');
    },
  };
}

const DWD_ATTRIBUTION = 'Source: Deutscher Wetterdienst (DWD)';

export const RADAR_PROVIDERS: Record<string, (env: Env) => RadarProviderSpec> = {
  mrms: (env) => ({
    id: 'mrms', label: 'NOAA MRMS', attribution: 'NOAA/NSSL MRMS (public domain)', url: env.ISOBAR_MRMS_URL ?? MRMS_LATEST_URL,
    read: async (bytes, engine) => ({ observed: [await readMrms(await engine(), bytes)], nowcast: [] }),
  }),
  radolan: (env) => ({
    id: 'radolan', label: 'DWD RADOLAN', attribution: DWD_ATTRIBUTION, url: env.ISOBAR_RADOLAN_URL ?? RADOLAN_RX_LATEST_URL,
    read: async (bytes) => ({ observed: [readRadolan(bytes)], nowcast: [] }),
  }),
  radvor: (env) => ({
    id: 'radvor', label: 'DWD RADVOR', attribution: DWD_ATTRIBUTION, url: env.ISOBAR_RADVOR_URL ?? RADVOR_RV_LATEST_URL,
    read: async (bytes, _engine, signal) => ({ observed: [], nowcast: await readRadvorBytes(bytes, signal) }),
  }),
  odim: (env) => ({
    id: 'odim', label: env.ISOBAR_ODIM_LABEL ?? 'ODIM_H5 composite', attribution: env.ISOBAR_ODIM_ATTRIBUTION ?? 'National meteorological service (ODIM_H5)', url: env.ISOBAR_ODIM_URL,
    read: async (bytes) => ({ observed: [odimToField(await readOdimCompositeBytes(bytes))], nowcast: [] }),
  }),
};

/** The radar sources (ISOBAR_OBS ids): all keyless and followed by default but `odim`, which needs ISOBAR_ODIM_URL. */
export const RADAR_FACTORIES: Record<string, ObsFactory> = Object.fromEntries(Object.entries(RADAR_PROVIDERS).map(([id, make]) => [
  id, { create: (env: Record<string, string | undefined>) => radarSource(make(env)), default: id !== 'odim' },
]));
