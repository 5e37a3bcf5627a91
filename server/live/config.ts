/**
 * Live-source configuration from the environment. Nothing runs unless asked: this machine (and
 * most test and demo set-ups) has no internet, and the server then serves the demo product.
 *
 *   ISOBAR_SOURCES           comma list of sources to follow: gfs, gfsWave, ecmwf, aifs, icon, iconEu
 *                            (default: none). `icon` (global) is refused: icosahedral grid, see icon.ts.
 *   ISOBAR_DATA_DIR          where the ingest writes, the server reads and downloads live
 *                            (default: var/data, as server/ingest/layout.ts)
 *   ISOBAR_SOURCES_PREMIUM   1: follow the Premium update intervals (SPEC §9: 360 min) instead of 720
 *   ISOBAR_GFS_URL           GFS base URL: the AWS mirror by default, or
 *                            https://nomads.ncep.noaa.gov/pub/data/nccf/com/gfs/prod (then throttled)
 *   ISOBAR_GFS_WAVE_URL      GFS-Wave base URL (same layouts; default the AWS mirror)
 *   ISOBAR_ECMWF_URL         ECMWF IFS base URL (default https://data.ecmwf.int/forecasts)
 *   ISOBAR_AIFS_URL          ECMWF AIFS base URL (default https://data.ecmwf.int/forecasts)
 *   ISOBAR_ICON_URL          DWD base URL for ICON global (default https://opendata.dwd.de/weather/nwp)
 *   ISOBAR_ICON_EU_URL       DWD base URL for ICON-EU (default https://opendata.dwd.de/weather/nwp)
 */

import { dataDirFromEnv } from '../ingest/layout.ts';
import { createEcmwfSource, createAifsSource } from './ecmwf.ts';
import { createGfsSource } from './gfs.ts';
import { createGfsWaveSource } from './gfsWave.ts';
import { createIconEuSource, createIconSource } from './icon.ts';
import type { LiveSource } from './source.ts';

type Env = Record<string, string | undefined>;

const FACTORIES: Record<string, (env: Env) => LiveSource> = {
  gfs: (env) => createGfsSource({ baseUrl: env.ISOBAR_GFS_URL || undefined }),
  gfsWave: (env) => createGfsWaveSource({ baseUrl: env.ISOBAR_GFS_WAVE_URL || undefined }),
  ecmwf: (env) => createEcmwfSource({ baseUrl: env.ISOBAR_ECMWF_URL || undefined }),
  aifs: (env) => createAifsSource({ baseUrl: env.ISOBAR_AIFS_URL || undefined }),
  icon: (env) => createIconSource({ baseUrl: env.ISOBAR_ICON_URL || undefined }),
  iconEu: (env) => createIconEuSource({ baseUrl: env.ISOBAR_ICON_EU_URL || undefined }),
};

const URL_VARIABLES = ['ISOBAR_GFS_URL', 'ISOBAR_GFS_WAVE_URL', 'ISOBAR_ECMWF_URL', 'ISOBAR_AIFS_URL', 'ISOBAR_ICON_URL', 'ISOBAR_ICON_EU_URL'];

export const SOURCE_IDS: readonly string[] = Object.keys(FACTORIES);

export interface SourcesConfig {
  dataDir: string;
  sources: LiveSource[];
  premium: boolean;
}

export class SourcesConfigError extends Error {
  override name = 'SourcesConfigError';
}

export function sourcesConfigFromEnv(env: Env = process.env): SourcesConfig {
  const ids = (env.ISOBAR_SOURCES ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = ids.filter((id) => !(id in FACTORIES));
  if (unknown.length > 0) {
    throw new SourcesConfigError(`ISOBAR_SOURCES: unknown source ${unknown.map((u) => `"${u}"`).join(', ')}; known: ${SOURCE_IDS.join(', ')}`);
  }
  for (const name of URL_VARIABLES) {
    const value = env[name];
    if (value) {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        throw new SourcesConfigError(`${name}: "${value}" is not a URL`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SourcesConfigError(`${name}: only http and https URLs are followed`);
    }
  }
  return {
    dataDir: dataDirFromEnv(env),
    sources: [...new Set(ids)].map((id) => FACTORIES[id](env)),
    premium: env.ISOBAR_SOURCES_PREMIUM === '1',
  };
}
