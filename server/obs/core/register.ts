/**
 * Wires the observation products into the server (server/app.ts): the route serving what is
 * published in `{dataDir}/obs/` and, when sources are configured (config.ts), the poller, started
 * when the server listens and stopped when it closes. `app.obs` is the running poller (tests call
 * `app.obs.pollNow(id)`), else null.
 */

import type { FastifyInstance } from 'fastify';
import type { SourceHttp } from '../../live/http.ts';
import type { Sleep } from '../../live/http.ts';
import type { ObjectStore } from '../../storage/objectStore.ts';
import { startObsPoller, type ObsPoller } from './poller.ts';
import { obsRoutes, type ObsRouteOptions } from './routes.ts';
import type { ObsSource } from './source.ts';
import { ObsStore } from './store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The observation poller once the server listens with observation sources, else null. */
    readonly obs: ObsPoller | null;
  }
}

export interface ObsOptions {
  /** The sources to follow (server/app.ts: those ISOBAR_OBS names, config.ts); null or []: none. */
  sources: readonly ObsSource[] | null;
  http?: SourceHttp;
  now?: () => number;
  sleep?: Sleep;
  pollOnStart?: boolean;
  /** Register the route serving the products (default true; an ingest process only publishes them). */
  routes?: boolean;
  /** Per-family checks of who may read which file (history for Premium only, ...). */
  access?: ObsRouteOptions['access'];
  /** Where products are published (server/storage): default the data directory. */
  storage?: ObjectStore;
}

export async function registerObs(app: FastifyInstance, dataDir: string | null, options: ObsOptions): Promise<void> {
  const sources = options.sources ?? [];
  let poller: ObsPoller | null = null;
  app.decorate('obs', { getter: () => poller });
  const store = dataDir === null ? null : new ObsStore(dataDir, options.storage);
  if (options.routes !== false) await app.register(obsRoutes, { store, status: () => poller?.status() ?? [], access: options.access });
  if (dataDir === null || sources.length === 0) return;
  let closing = false;
  app.addHook('onListen', async () => {
    if (closing) return;
    poller = startObsPoller({
      sources, dataDir, storage: options.storage, logger: app.log, http: options.http, now: options.now, sleep: options.sleep, pollOnStart: options.pollOnStart,
    });
  });
  app.addHook('onClose', async () => {
    closing = true;
    await poller?.stop();
  });
}
