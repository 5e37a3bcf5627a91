/**
 * Observation-source configuration from the environment (server/obs/core/README.md):
 *
 *   ISOBAR_OBS   comma list of observation source ids (OBS_FACTORIES); `none`: none; unset: the
 *                sources that need no key (each factory's `default`), unless ISOBAR_SOURCES is
 *                `none` (tests, CI: no internet there), which turns these off too.
 *
 * Each family's sources, with the variables they read (URLs, keys), are listed in server/obs/sources.ts.
 */

import type { ObsSource } from './source.ts';

type Env = Record<string, string | undefined>;

export interface ObsFactory {
  create: (env: Env) => ObsSource;
  /** Followed when ISOBAR_OBS is unset: free, keyless upstreams. */
  default: boolean;
}


export interface ObsConfig {
  mode: 'none' | 'default' | 'listed';
  sources: ObsSource[];
}

export function obsConfigFromEnv(factories: Record<string, ObsFactory>, env: Env = process.env): ObsConfig {
  const raw = env.ISOBAR_OBS?.trim();
  if (raw === 'none' || (raw === undefined || raw === '') && env.ISOBAR_SOURCES?.trim() === 'none') return { mode: 'none', sources: [] };
  if (raw === undefined || raw === '') {
    return { mode: 'default', sources: Object.values(factories).filter((f) => f.default).map((f) => f.create(env)) };
  }
  const ids = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = ids.filter((id) => !Object.hasOwn(factories, id));
  if (unknown.length > 0) {
    throw new Error(`ISOBAR_OBS: unknown observation source ${unknown.join(', ')} (known: ${Object.keys(factories).join(', ') || 'none'})`);
  }
  return { mode: 'listed', sources: [...new Set(ids)].map((id) => factories[id].create(env)) };
}
