/**
 * Live-source configuration from the environment. Unset, the server follows DEFAULT_SOURCES when
 * their upstreams answer a probe after it listens (probe.ts), else it logs one line and serves the
 * demo product; tests and CI set ISOBAR_SOURCES=none (no internet there, and no probe).
 *
 *   ISOBAR_SOURCES           comma list of sources to follow: gfs, gfsWave, ecmwf, aifs, icon, iconEu;
 *                            `none`: fetch nothing; unset: DEFAULT_SOURCES if their upstreams answer.
 *                            `icon` (global) is refused: icosahedral grid, see icon.ts.
 *   ISOBAR_DATA_MAX_GB       cap on the data directory (dataCap.ts; default: none)
 *   ISOBAR_DATA_DIR          where the ingest writes, the server reads and downloads live
 *                            (default: var/data, as server/ingest/layout.ts)
 *   ISOBAR_SOURCES_HOURS     fetch only the steps of each run up to this forecast hour (default: the
 *                            model's whole length): a slow link or a small disk; tests
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
import { dataCapFromEnv } from './dataCap.ts';
import { createEcmwfSource, createAifsSource } from './ecmwf.ts';
import { createGfsSource } from './gfs.ts';
import { createGfsWaveSource } from './gfsWave.ts';
import { createIconEuSource, createIconSource } from './icon.ts';
import type { LiveSource } from './source.ts';

type Env = Record<string, string | undefined>;

/** What a factory is given: the environment, whether it is the default set, and ISOBAR_SOURCES_HOURS. */
const FACTORIES: Record<string, (env: Env, defaultSet: boolean, forecastHours: number | undefined) => LiveSource> = {
  // The default set takes GFS at 0.5°: a quarter of the 0.25° bytes, no coarser than the point
  // grid (0.5°) and about the free tile zoom's resolution; named in ISOBAR_SOURCES, 0.25°.
  gfs: (env, defaultSet, forecastHours) => createGfsSource({ baseUrl: env.ISOBAR_GFS_URL || undefined, grid: defaultSet ? DEFAULT_SET_GFS_GRID : undefined, forecastHours }),
  gfsWave: (env, _, forecastHours) => createGfsWaveSource({ baseUrl: env.ISOBAR_GFS_WAVE_URL || undefined, forecastHours }),
  ecmwf: (env, _, forecastHours) => createEcmwfSource({ baseUrl: env.ISOBAR_ECMWF_URL || undefined, forecastHours }),
  aifs: (env, _, forecastHours) => createAifsSource({ baseUrl: env.ISOBAR_AIFS_URL || undefined, forecastHours }),
  icon: (env, _, forecastHours) => createIconSource({ baseUrl: env.ISOBAR_ICON_URL || undefined, forecastHours }),
  iconEu: (env, _, forecastHours) => createIconEuSource({ baseUrl: env.ISOBAR_ICON_EU_URL || undefined, forecastHours }),
};

const URL_VARIABLES = ['ISOBAR_GFS_URL', 'ISOBAR_GFS_WAVE_URL', 'ISOBAR_ECMWF_URL', 'ISOBAR_AIFS_URL', 'ISOBAR_ICON_URL', 'ISOBAR_ICON_EU_URL'];

export const SOURCE_IDS: readonly string[] = Object.keys(FACTORIES);

/**
 * What a server with ISOBAR_SOURCES unset follows: global atmosphere from two centres and the
 * waves, with only the fields Isobar reads: GFS at 0.5°, GFS-Wave and ECMWF IFS at their open
 * data's 0.25° (README "Live data": the bytes per run).
 */
export const DEFAULT_SOURCES: readonly string[] = ['gfs', 'gfsWave', 'ecmwf'];
/** The GFS grid of the default set (NOAA's `pgrb2.0p50` files). */
export const DEFAULT_SET_GFS_GRID = '0p50';

export interface SourcesConfig {
  dataDir: string;
  sources: LiveSource[];
  premium: boolean;
  /** `default`: ISOBAR_SOURCES unset, the sources are DEFAULT_SOURCES, followed only if their upstreams answer. */
  mode: 'listed' | 'default' | 'none';
  /** ISOBAR_DATA_MAX_GB in bytes. */
  maxDataBytes?: number;
}

export class SourcesConfigError extends Error {
  override name = 'SourcesConfigError';
}

export function sourcesConfigFromEnv(env: Env = process.env): SourcesConfig {
  const setting = env.ISOBAR_SOURCES?.trim();
  const mode = setting === undefined || setting === '' ? 'default' : setting === 'none' ? 'none' : 'listed';
  const ids = mode === 'default' ? [...DEFAULT_SOURCES] : mode === 'none' ? [] : setting!.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = ids.filter((id) => !(id in FACTORIES));
  if (unknown.length > 0) {
    throw new SourcesConfigError(`ISOBAR_SOURCES: unknown source ${unknown.map((u) => `"${u}"`).join(', ')}; known: ${SOURCE_IDS.join(', ')}, or none`);
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
  const hoursText = env.ISOBAR_SOURCES_HOURS?.trim();
  const forecastHours = hoursText ? Number(hoursText) : undefined;
  if (forecastHours !== undefined && !(Number.isInteger(forecastHours) && forecastHours > 0)) {
    throw new SourcesConfigError(`ISOBAR_SOURCES_HOURS: "${hoursText}" is not a whole number of hours above 0`);
  }
  let maxDataBytes: number | undefined;
  try {
    maxDataBytes = dataCapFromEnv(env.ISOBAR_DATA_MAX_GB);
  } catch (error) {
    throw new SourcesConfigError((error as Error).message);
  }
  return {
    dataDir: dataDirFromEnv(env),
    sources: [...new Set(ids)].map((id) => FACTORIES[id](env, mode === 'default', forecastHours)),
    premium: env.ISOBAR_SOURCES_PREMIUM === '1',
    mode,
    ...(maxDataBytes === undefined ? {} : { maxDataBytes }),
  };
}
