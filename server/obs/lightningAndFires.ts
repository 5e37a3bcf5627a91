/**
 * The observation sources of the lightning and fires families (ISOBAR_OBS ids) and the variables
 * they read:
 *   glm    GOES GLM lightning (keyless, default); ISOBAR_GLM_URLS: comma list of bucket base URLs
 *   firms  NASA FIRMS fires; ISOBAR_FIRMS_KEY (required), ISOBAR_FIRMS_URL, ISOBAR_FIRMS_PRODUCTS
 *   hms    NOAA HMS fire points (keyless, default); ISOBAR_HMS_URL
 * Listed in server/obs/sources.ts.
 */

import type { ObsFactory } from './core/config.ts';
import { FirmsSource, FIRMS_DEFAULT_PRODUCTS, HmsSource } from './fires/fireSources.ts';
import { GLM_DEFAULT_BUCKETS, GlmSource } from './lightning/glmSource.ts';

const list = (value: string | undefined): string[] | undefined => {
  const items = value?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  return items && items.length > 0 ? items : undefined;
};

export const LIGHTNING_AND_FIRES_FACTORIES: Record<string, ObsFactory> = {
  glm: { default: true, create: (env) => new GlmSource({ buckets: list(env.ISOBAR_GLM_URLS) ?? GLM_DEFAULT_BUCKETS }) },
  firms: {
    default: false,
    create: (env) => new FirmsSource(env.ISOBAR_FIRMS_KEY?.trim() ?? '', env.ISOBAR_FIRMS_URL?.trim() || undefined, list(env.ISOBAR_FIRMS_PRODUCTS) ?? FIRMS_DEFAULT_PRODUCTS),
  },
  hms: { default: true, create: (env) => new HmsSource(env.ISOBAR_HMS_URL?.trim() || undefined) },
};

