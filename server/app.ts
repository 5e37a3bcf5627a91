/**
 * Builds the Isobar HTTP server from plugins and routes (STYLE.md: app.ts builds, main.ts only
 * listens; tests call app.inject() without opening a port).
 *
 * Routes (SPEC §7):
 *   GET /metadata/v1.0/{directory}/minifest.json
 *   GET /tiles/v1.0/{directory}/{ref}/{valid}/{z}/{x}/{y}/{file}-{level}.{suffix}
 *   GET /forecast/point/{product}/v2.9/{lat}/{lon}
 *   GET /search/v1/{query}, /reverse/v3/{lat}/{lon}/{zoom} (routes/geo.ts)
 *   GET /labels/v1/{lang}/{z}/{x}/{y}.json, /citytile/v1.0/{product}/{z}/{x}/{y} (routes/labels.ts): city labels and their values
 *   GET /metadata/v1.0/basemaps.json, /basemap/v1/{style}.pmtiles (routes/basemaps.ts): the configured tile base maps
 *   GET /forecast/meteogram/{product}/v1.2/{lat}/{lon}
 *   POST /sedlina/errors, HEAD /sedlina/ga/{code} (routes/clientReports.ts): client error reports, page-view beacons
 *   GET /services/umisteni (routes/startupLocation.ts): the approximate location for the start-up position
 *   GET /stations/v1.0/list, /stations/v1.0/station/{id} (obs/stations/route.ts): weather stations and their observations
 *   /users/..., /api/info, /api/logout (routes/users.ts): accounts, settings sync, collections, devices
 *   POST /users/v1/subscription/checkout, /stripe/webhook (routes/stripe.ts): Premium through Stripe Checkout
 *   GET /healthz, /readyz, /metrics (ops/routes.ts): liveness, readiness, Prometheus metrics
 *   GET everything else: the built app from dist/, with the single-page-app fallback
 *
 * The data routes serve the runs the ingest pipeline published in the data directory
 * (ISOBAR_DATA_DIR, default var/data; server/ingest/layout.ts) and, for its own directory, the
 * generated demo product (DESIGN.md "Data, honestly"), through one interface (server/data/servedProducts.ts).
 *
 * Live sources (server/live, option liveSources; ISOBAR_SOURCES by default; unset: the default set
 * when its upstreams answer a probe made after listen, `none`: nothing): their scheduler starts
 * when the server listens (tests that only inject() never start it), ingests each new run into
 * that same data directory, makes the routes read the new current run at once (and each step of a
 * product's first run as it lands), logs through app.log, and stops on close. `app.liveSources` is
 * the running scheduler, else null; GET /metadata/v1.0/progress.json says what is arriving.
 *
 * Roles (server/jobs/role.ts, option role, default ISOBAR_ROLE): `all` is everything above;
 * `web` serves every route but starts no sources and evaluates no alerts; `ingest` registers no
 * app, data or user route, and does the background work. Background work goes through one job
 * queue (server/jobs/jobQueue.ts): in this process for `all`, in PostgreSQL for the others.
 */

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyCompress from '@fastify/compress';
import { addSecurityHeaders } from './http/securityHeaders.ts';
import { refuseNulCharacters } from './http/textInput.ts';
import { demoRun } from './demo/demoRun.ts';
import { DemoTileStore } from './demo/demoTiles.ts';
import { HOUR_MS } from '../common/time.ts';
import { ServedProducts } from './data/servedProducts.ts';
import { StoredRuns } from './data/storedRuns.ts';
import { TilePool } from './data/tilePool.ts';
import { PRODUCTS } from '../common/catalogue/index.ts';
import { loadEngine } from './ingest/engine.ts';
import { dataDirFromEnv } from './ingest/layout.ts';
import { storageFromEnv } from './storage/fromEnv.ts';
import type { ObjectStore } from './storage/objectStore.ts';
import { registerObs, type ObsOptions } from './obs/core/register.ts';
import { obsConfigFromEnv } from './obs/core/config.ts';
import { OBS_FACTORIES } from './obs/sources.ts';
import { satelliteAccess } from './obs/satellite/access.ts';
import { capAlertsRoutes } from './obs/capAlerts/route.ts';
import { tropicalRoutes } from './obs/tropical/route.ts';
import { tideRoutes } from './tides/route.ts';
import { stationRoutes } from './obs/stations/route.ts';
import { stationSearchIndex } from './obs/stations/searchIndex.ts';
import { airportRoutes } from './obs/metar/route.ts';
import { radarAccess } from './obs/radar/access.ts';
import { sourcesConfigFromEnv } from './live/config.ts';
import { startScheduler, type Scheduler, type SchedulerOptions } from './live/scheduler.ts';
import { reachableSources } from './live/probe.ts';
import { liveProgressRoutes } from './live/progressRoute.ts';
import { storedProgressReader, writeProgress } from './live/sharedProgress.ts';
import type { LiveSource } from './live/source.ts';
import { metadataRoutes } from './routes/metadata.ts';
import { tileRoutes } from './routes/tiles.ts';
import { forecastRoutes } from './routes/forecast.ts';
import { geoRoutes } from './routes/geo.ts';
import { labelRoutes } from './routes/labels.ts';
import { basemapConfigFromEnv, basemapOrigins, basemapRoutes, type BasemapConfig } from './routes/basemaps.ts';
import { lazyGazetteer } from './geo/gazetteer.ts';
import { meteogramRoutes } from './routes/meteogram.ts';
import { registerStaticApp } from './routes/staticApp.ts';
import { clientReportRoutes } from './routes/clientReports.ts';
import { startupLocationRoutes } from './routes/startupLocation.ts';
import { trustProxyFromEnv, type TrustProxy } from './http/trustProxy.ts';
import { registerAccounts, type AccountsOptions } from './routes/users.ts';
import { stripeRoutes, type StripeRouteOptions } from './routes/stripe.ts';
import { webPushSender } from './alerts/push.ts';
import type { PushJob } from './alerts/alertService.ts';
import { loggerOptions } from './auth/logRedaction.ts';
import { registerOps, metricsTokenFromEnv, type ReadinessCheck } from './ops/routes.ts';
import { echoRequestId, requestIdOf } from './ops/requestId.ts';
import { Shutdown, shutdownTimingsFromEnv } from './ops/shutdown.ts';
import { roleFromEnv, type RoleConfig } from './jobs/role.ts';
import { inProcessJobQueue, QUEUES, type JobQueue } from './jobs/jobQueue.ts';
import { jobTimingsFromEnv, startPgBossQueue } from './jobs/pgBossQueue.ts';
import { jobsQueued, onScrape } from './ops/metrics.ts';

/** The built app: ISOBAR_DIST_DIR (a second build side by side, e.g. for a test run), else dist/ beside the repository root. */
export const DEFAULT_DIST_DIR = process.env.ISOBAR_DIST_DIR ?? fileURLToPath(new URL('../dist', import.meta.url));
/** The object /readyz asks the store about: it is never written, so the answer is "not found" when all is well. */
const READINESS_PROBE_KEY = 'readyz-probe';
/** Data zooms generated in the background after listen (every tile of each). */
const PREWARM_ZOOMS = [0, 1] as const;

export interface AppOptions {
  /** Fastify logger option; off by default (tests). */
  logger?: FastifyServerOptions['logger'];
  /** Clock, ms since the epoch; tests pin it. */
  now?: () => number;
  /** The built app; null serves no static files (API only). Default: dist/ beside the repository root. */
  distDir?: string | null;
  /** Memory budget of the demo tile cache, bytes of gzip data. */
  tileCacheBytes?: number;
  /** Generate the tiles users will ask for first in the background after listen (default true). */
  prewarm?: boolean;
  /** Where ingested runs are (default ISOBAR_DATA_DIR, else var/data); null serves the demo product only. */
  dataDir?: string | null;
  /**
   * Where published runs and observation products are (server/storage): default ISOBAR_STORAGE_URL
   * (S3), else dataDir itself; dataDir stays the scratch disk of the ingest and the obs pollers.
   */
  storage?: ObjectStore;
  /**
   * Models to download and ingest into dataDir while the server runs, started on listen. Default:
   * those ISOBAR_SOURCES names (server/live/config.ts; none when unset); null: none.
   */
  liveSources?: LiveSourcesOptions | null;
  /** Accounts: the database (default DATABASE_URL, else the SQLite file ISOBAR_DB_PATH or var/isobar.sqlite), KDF, limits. */
  accounts?: AccountsOptions;
  /** Premium payment (routes/stripe.ts): default the STRIPE_* settings of the environment; tests give a fake client. */
  stripe?: Pick<StripeRouteOptions, 'config' | 'client'>;
  /** Take the client's address from X-Forwarded-For (http/trustProxy.ts); default ISOBAR_TRUST_PROXY, else off. */
  trustProxy?: TrustProxy;
  /** Tile base maps (routes/basemaps.ts): default the ISOBAR_BASEMAP_* settings of the environment. */
  basemaps?: BasemapConfig;
  /** Observation products (server/obs/core): default the sources ISOBAR_OBS names (server/obs/sources.ts). */
  obs?: Partial<ObsOptions>;
  /** Bearer token for GET /metrics; default ISOBAR_METRICS_TOKEN; null: non-public addresses only (server/ops/routes.ts). */
  metricsToken?: string | null;
  /** What this process does (server/jobs/role.ts): default ISOBAR_ROLE, else all. */
  role?: RoleConfig;
  /** The job queue: default in this process for role all, else pg-boss on the role's PostgreSQL. Stopped on close. */
  jobs?: JobQueue;
}

/** An alert evaluation job: the product whose new run was published. */
interface AlertJob {
  product: string;
}

/** The sources to follow and, for tests, the scheduler's clock, sleep, HTTP layer and ingest. */
export type LiveSourcesOptions = {
  sources: readonly LiveSource[];
  /** Follow only the sources whose upstream answers a probe after listen (ISOBAR_SOURCES unset). */
  probe?: boolean;
} & Partial<Pick<SchedulerOptions, 'premium' | 'ingest' | 'http' | 'now' | 'sleep' | 'random' | 'retryDelayMs' | 'jitter' | 'keepDownloads' | 'maxDataBytes'>>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The live-source scheduler once the server listens with sources configured, else null. */
    readonly liveSources: Scheduler | null;
    /** A new run of the product was published: drop cached runs, evaluate the alerts on it (in the background). */
    runIngested(product: string): void;
    /** Every route registered, in order (server/auth/entitlementRoutes.test.ts walks them). */
    readonly registeredRoutes: readonly RegisteredRoute[];
    /** The graceful shutdown (server/ops/shutdown.ts): main.ts starts it on SIGTERM; /readyz reads its draining flag. */
    readonly shutdown: Shutdown;
  }
}

/** A route as registered: its methods and path pattern. */
export interface RegisteredRoute {
  method: string;
  url: string;
}

function liveSourcesFromEnv(): LiveSourcesOptions | null {
  const config = sourcesConfigFromEnv();
  if (config.sources.length === 0) return null;
  return { sources: config.sources, premium: config.premium, probe: config.mode === 'default', maxDataBytes: config.maxDataBytes };
}

/** The three valid times around now: the step at or before it, the next, and the one before (or after). */
export function stepsAroundNow(nowMs: number): number[] {
  const run = demoRun(nowMs);
  const current = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  const candidates = [current, current + HOUR_MS, current - HOUR_MS, current + 2 * HOUR_MS];
  return candidates.filter((t) => run.steps.includes(t)).slice(0, 3);
}

export async function buildApp(options: AppOptions = {}): Promise<FastifyInstance> {
  const now = options.now ?? Date.now;
  const serverOptions: FastifyServerOptions = {
    logger: loggerOptions(options.logger ?? false), trustProxy: options.trustProxy ?? trustProxyFromEnv(),
    // One id per request in every log line and in X-Request-Id (server/ops/requestId.ts).
    genReqId: requestIdOf, requestIdHeader: false,
  };
  const role = options.role ?? roleFromEnv();
  const app = Fastify(serverOptions);
  const jobs = options.jobs ?? (role.queueUrl === null ? inProcessJobQueue() : await startPgBossQueue({
    url: role.queueUrl, ...jobTimingsFromEnv(),
    // A worker declared dead, its jobs handed to another, a failed heartbeat: what an operator looks for when a run stalls.
    log: (message, error) => app.log.warn(error === undefined ? {} : { err: error }, message),
  }));
  const shutdown = new Shutdown(shutdownTimingsFromEnv());
  app.decorate('shutdown', shutdown);
  echoRequestId(app);
  app.addHook('onClose', () => jobs.stop());
  const stopQueueMetrics = onScrape(async () => {
    for (const queue of Object.values(QUEUES)) jobsQueued.set({ queue }, await jobs.waiting(queue));
  });
  app.addHook('onClose', async () => {
    stopQueueMetrics();
  });
  const registeredRoutes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', { getter: () => registeredRoutes });
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) registeredRoutes.push({ method, url: route.url });
  });
  // Tiles are made on worker threads (server/data/tilePool.ts): demo tiles and stored runs' tiles rendered on request.
  const tilePool = new TilePool();
  // The prewarm stops before its threads do, so that their closing is not reported as its failure.
  const stopPrewarm = new AbortController();
  app.addHook('onClose', async () => {
    stopPrewarm.abort();
    await tilePool.close();
  });
  const tiles = new DemoTileStore({ maxBytes: options.tileCacheBytes, pool: tilePool });
  const dataDir = options.dataDir === undefined ? dataDirFromEnv() : options.dataDir;
  const storage = dataDir === null ? undefined : options.storage ?? await storageFromEnv(dataDir);
  if (storage?.localRoot === null) app.log.info({ storage: storage.description }, 'published runs in object storage');
  const stored = dataDir === null ? null : new StoredRuns(dataDir, loadEngine, now, { pool: tilePool, storage });
  const served = new ServedProducts({ now, demoTiles: tiles, stored });
  if (stored) app.addHook('onClose', () => stored.close());
  if (storage && !options.storage) app.addHook('onClose', () => storage.close?.());
  let probingNow = () => false;
  const fromEnv = !role.works ? null : options.liveSources === undefined ? liveSourcesFromEnv() : options.liveSources;
  // The default set (ISOBAR_SOURCES unset) needs somewhere to go; a server of the demo product only has none.
  const live = fromEnv?.probe && dataDir === null ? null : fromEnv;
  if (live && live.sources.length > 0) {
    if (dataDir === null || stored === null) throw new Error('Live sources need a data directory to ingest into (dataDir is null)');
    let scheduler: Scheduler | null = null;
    let stopProgress: (() => Promise<void>) | null = null;
    let closing = false;
    let probing = false;
    probingNow = () => probing;
    app.decorate('liveSources', { getter: () => scheduler });
    const { probe, ...schedulerOptions } = live;
    const start = (sources: readonly LiveSource[]) => {
      if (closing || scheduler || sources.length === 0) return;
      scheduler = startScheduler({
        ...schedulerOptions, sources, logger: app.log, dataDir, storage, jobs,
        onIngested: ({ result }) => app.runIngested(result.product),
        onServed: ({ product }) => stored.invalidate(PRODUCTS[product]?.directory),
      });
      // Web processes read what arrives from the store (live/sharedProgress.ts).
      if (jobs.kind === 'postgres' && storage) stopProgress = writeProgress(scheduler.progress, storage, { log: (message, error) => app.log.warn({ err: error }, message) });
    };
    app.addHook('onListen', async () => {
      if (!probe) return start(live.sources);
      // In the background: a server without internet starts as fast as one with it.
      probing = true;
      void reachableSources(live.sources).then((reachable) => {
        probing = false;
        if (reachable.length === 0) {
          app.log.info({ sources: live.sources.map((s) => s.id) }, 'live sources: no upstream answered (no internet?); serving the demo product. ISOBAR_SOURCES=none skips this check');
        }
        start(reachable);
      });
    });
    app.addHook('onClose', async () => {
      closing = true;
      await scheduler?.stop();
      await stopProgress?.();
    });
  } else {
    app.decorate('liveSources', { getter: () => null });
  }

  const basemaps = options.basemaps ?? await basemapConfigFromEnv();
  // The render worker fetches configured base map tiles from their own hosts.
  addSecurityHeaders(app, basemapOrigins(basemaps));
  refuseNulCharacters(app);
  // JSON, HTML, JS, CSS and WASM; the tiles opt out (they are stored gzip-compressed). Answers
  // made per request prefer gzip to brotli where the client takes both: on a point forecast's
  // ~3 KB of JSON brotli (quality 4) costs ~0.5 ms against gzip's ~0.18 ms for about the same
  // bytes. The built files are sent precompressed (routes/staticApp.ts), brotli first.
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['gzip', 'br', 'deflate', 'identity'] });

  // Only the web side serves (`if (role.serves)` below); an ingest process answers the operations routes alone.
  if (role.serves) await app.register(metadataRoutes, { served });
  if (role.serves) await app.register(basemapRoutes, { config: basemaps });
  if (role.serves) {
    // A web process has no scheduler: it reads what the ingest processes write to the store.
    const stored = !role.works && storage ? storedProgressReader(storage, now) : undefined;
    await app.register(liveProgressRoutes, { progress: () => app.liveSources?.progress ?? null, probing: () => probingNow(), stored });
  }
  if (role.serves) await app.register(tileRoutes, { served });
  if (role.serves) await app.register(forecastRoutes, { served });
  // One set of places for search, reverse geocoding and the city labels, loaded on first use.
  const gazetteer = lazyGazetteer();
  if (role.serves) await app.register(geoRoutes, { gazetteer, stations: stationSearchIndex(dataDir, storage) });
  if (role.serves) await app.register(labelRoutes, { served, gazetteer, prewarm: options.prewarm ?? true });
  if (role.serves) await app.register(meteogramRoutes, { served });
  if (role.serves) await app.register(startupLocationRoutes);
  // Web Push VAPID keys: ISOBAR_VAPID_* or made on the first start into the data directory (server/alerts/push.ts).
  const push = webPushSender(join(dataDir ?? dataDirFromEnv(), 'vapid.json'));
  app.addHook('onListen', async () => {
    await push.publicKey().catch((error: unknown) => app.log.error({ err: error }, 'Web Push keys cannot be loaded or made'));
  });
  await registerAccounts(app, { now, served, push, routes: role.serves, ...options.accounts });
  if (role.serves) await app.register(clientReportRoutes, { state: app.sharedState });
  if (role.serves) await app.register(stripeRoutes, { accounts: app.accounts, now, ...options.stripe });
  // SPEC §1: radar and satellite history past the free window for Premium only (common/entitlements.ts).
  const radarAccessCheck = radarAccess(now);
  await registerObs(app, dataDir, {
    access: (kind, path, request, store) => (kind === 'satellite' ? satelliteAccess(path, request, store, now) : radarAccessCheck(kind, path, request, store)),
    routes: role.serves,
    storage,
    ...options.obs,
    sources: !role.works ? null : options.obs?.sources !== undefined ? options.obs.sources : obsConfigFromEnv(OBS_FACTORIES).sources,
  });
  if (role.serves) await app.register(capAlertsRoutes, { dataDir, now, storage });
  if (role.serves) await app.register(tropicalRoutes, { dataDir, storage });
  // SPEC §7 tides: Premium's tide forecast (common/entitlements.ts grantTides) and the stations of the tide POI layer.
  if (role.serves) await app.register(tideRoutes, { now });
  if (role.serves) await app.register(stationRoutes, { dataDir, storage });
  if (role.serves) await app.register(airportRoutes, { dataDir, storage });
  // Pushes are jobs: web processes send them, the working ones (ingest, all) make them.
  app.alerts.pushThrough(jobs);
  if (role.works) {
    await jobs.work<AlertJob, number>(QUEUES.alerts, async ({ product }) => {
      const triggered = await app.alerts.evaluateProduct(product);
      app.log.info({ product, triggered: triggered.length }, 'alerts evaluated');
      return triggered.length;
    });
    await jobs.work<PushJob, null>(QUEUES.push, async (job) => {
      await app.alerts.deliverPush(job);
      return null;
    });
  }
  app.decorate('runIngested', (product: string) => {
    stored?.invalidate(PRODUCTS[product]?.directory);
    if (!role.works) return;
    // Once per run across every ingest process: the key is the product and its current run.
    served.byIdent(product).then((data) => data.current()).then(
      (run) => jobs.send<AlertJob>(QUEUES.alerts, { product }, { key: `${product}:${run.refTime}`, once: true }),
    ).catch((error: unknown) => app.log.error({ err: error, product }, 'alert evaluation failed'));
  });
  const readiness: ReadinessCheck[] = [
    { name: 'database', check: async () => {
      await app.database.get('SELECT 1 AS one');
      return app.database.dialect;
    } },
    { name: 'storage', check: async () => {
      if (!storage) return 'none (demo product only)';
      // Asking for an object that is never there answers only when the store is reachable and the credentials are good.
      await storage.head(READINESS_PROBE_KEY);
      // Not the bucket or the path: /readyz answers anyone.
      return storage.localRoot === null ? 'object storage' : 'data directory';
    } },
    { name: 'products', check: async () => {
      const products = await served.served();
      if (products.length === 0) throw new Error('no product is served');
      return products.map((p) => p.ident).join(', ');
    } },
  ];
  registerOps(app, { checks: readiness, draining: () => shutdown.draining, metricsToken: options.metricsToken === undefined ? metricsTokenFromEnv() : options.metricsToken });
  if (role.serves) await registerStaticApp(app, options.distDir === undefined ? DEFAULT_DIST_DIR : options.distDir);

  // The demo tiles users ask for first, made ready where users ask (not in an ingest process).
  if ((options.prewarm ?? true) && role.serves) {
    app.addHook('onListen', async () => {
      const started = performance.now();
      tiles.prewarm(stepsAroundNow(now()), PREWARM_ZOOMS, stopPrewarm.signal)
        .then((count) => {
          const { meanTimings } = tiles.stats();
          app.log.info({ tiles: count, ms: Math.round(performance.now() - started), meanTimings }, 'demo tiles prewarmed');
        })
        .catch((error: unknown) => app.log.error({ err: error }, 'demo tile prewarm failed'));
    });
  }
  return app;
}
