/**
 * City labels and their forecast values (SPEC §3 "City label", §7, common/labels.ts):
 *
 *   GET /labels/{version}/{lang}/{z}/{x}/{y}.json      the biggest places of a 256 px Web Mercator
 *                                                      tile (server/geo/labels.ts), z 3..11;
 *                                                      no cache (SPEC §7): revalidated by ETag
 *   GET /citytile/v1.0/{product}/{z}/{x}/{y}?refTime&step&hours&labelsVersion
 *                                                      the point forecast of every label of that
 *                                                      tile over a window of forecast hours, the
 *                                                      same values as /forecast/point at each place
 *
 * Names are in the language of the path where the data has the place's name in it (the time
 * zones' exemplar cities of Unicode CLDR: server/geo/localNames.ts), else GeoNames' main name
 * (mostly English or romanised). Label ids are stable within a labels version, whatever the
 * language: a city tile asked for another version is a 404.
 *
 * A city tile asks the run for only the hours it needs (RunData.point with from/to): for the demo
 * product that is what makes it cheap (the model is evaluated per place and hour). Answers are
 * kept (runs never change) and the time spent is sent as a Server-Timing header.
 */

import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import {
  CITYTILE_ANSWER, CITYTILE_ROUTE, LABELS_ANSWER, LABELS_ROUTE, LABELS_VERSION, parseHoursRange, type CityTile, type LabelsTile,
} from '../../common/api/labels.ts';
import { CITYTILE_MAX_HOURS, CITYTILE_WINDOW_HOURS, LABELS_MAX_ZOOM, LABELS_MIN_ZOOM } from '../../common/labels.ts';
import type { PointForecast } from '../../common/api/forecast.ts';
import { DEFAULT_LANGUAGE, isLanguage } from '../../common/languages.ts';
import { hourStampParam, type ServedProducts } from '../data/servedProducts.ts';
import { lazyGazetteer, type LazyGazetteer } from '../geo/gazetteer.ts';
import { LabelIndex } from '../geo/labels.ts';
import { badRequest, ERROR_RESPONSE_SCHEMA, HttpError, notFound } from '../http/httpError.ts';
import { entitle } from '../auth/tier.ts';
import { setForecastCaching } from './pointRequest.ts';
import { HOUR_MS } from '../../common/time.ts';

/** Language tags as the app sends them (common/languages.ts: "en", "zh-TW"). */
const LANG = { type: 'string', pattern: '^[a-z]{2,3}(-[A-Za-z]{2,4})?$' } as const;
const TILE_PARAMS = {
  z: { type: 'integer', minimum: LABELS_MIN_ZOOM, maximum: LABELS_MAX_ZOOM },
  x: { type: 'integer', minimum: 0 },
} as const;

const labelsSchema = {
  params: {
    type: 'object',
    required: ['version', 'lang', 'z', 'x', 'file'],
    properties: {
      version: { type: 'string', pattern: '^v[0-9]{1,4}$' },
      lang: LANG,
      ...TILE_PARAMS,
      file: { type: 'string', pattern: '^[0-9]{1,7}\\.json$' },
    },
  },
  response: {
    200: LABELS_ANSWER,
    '4xx': ERROR_RESPONSE_SCHEMA,
  },
} as const;

const cityTileSchema = {
  params: {
    type: 'object',
    required: ['product', 'z', 'x', 'y'],
    properties: {
      product: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
      ...TILE_PARAMS,
      y: { type: 'integer', minimum: 0 },
    },
  },
  querystring: {
    type: 'object',
    properties: {
      // A run still kept on the server, as the tile paths write it (YYYYMMDDHH) or in ms.
      refTime: { type: 'string', pattern: '^[0-9]{10,13}$' },
      step: { type: 'integer', enum: [1, 3] },
      hours: { type: 'string', pattern: '^[0-9]{1,4}-[0-9]{1,4}$' },
      labelsVersion: { type: 'string', maxLength: 16 },
    },
  },
  response: {
    200: CITYTILE_ANSWER,
    '4xx': ERROR_RESPONSE_SCHEMA,
  },
} as const;

export interface LabelRouteOptions {
  served: ServedProducts;
  /** The places (shared with the search routes); default: the npm data, loaded on first use. */
  gazetteer?: LazyGazetteer;
  /** Load the places and the labels of the first zooms in the background after listen (every map view needs them). */
  prewarm?: boolean;
}

/** Zooms chosen in the background after listen: those of the start-up views. */
const PREWARM_ZOOMS = [3, 4, 5, 6, 7];

interface CityTileQuery {
  refTime?: string;
  step?: number;
  hours?: string;
  labelsVersion?: string;
}

/** Recent city tiles by (product, run, tile, hours, step): runs never change. */
const CITYTILE_CACHE_ENTRIES = 2048;

function checkTile(z: number, x: number, y: number): void {
  const n = 2 ** z;
  if (x >= n || y >= n) throw badRequest(`Tile ${z}/${x}/${y} is outside the world: at zoom ${z}, x and y run from 0 to ${n - 1}`);
}

const round = (value: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
};

/** The point forecast's series as a city tile holds them: wind as speed and direction. */
function citySeries(data: PointForecast['data']): Record<string, (number | null)[]> {
  const { wind_u: u, wind_v: v, ...rest } = data;
  const out: Record<string, (number | null)[]> = {};
  if (u && v) {
    out.wind = u.map((uk, k) => (uk === null || v[k] === null ? null : round(Math.hypot(uk, v[k]!), 2)));
    out.windDir = u.map((uk, k) => {
      const vk = v[k];
      if (uk === null || vk === null) return null;
      return uk === 0 && vk === 0 ? 0 : Math.round((Math.atan2(-uk, -vk) * 180 / Math.PI + 360) % 360) % 360;
    });
  }
  return Object.assign(out, rest);
}

export async function labelRoutes(app: FastifyInstance, options: LabelRouteOptions): Promise<void> {
  const gazetteer = options.gazetteer ?? lazyGazetteer();
  let index: LabelIndex | null = null;
  const labels = () => (index ??= new LabelIndex(gazetteer.places()));
  const etags = new Map<string, string>();
  const answers = new Map<string, CityTile>();
  if (options.prewarm) {
    app.addHook('onListen', async () => {
      // After the listen callback, in steps that each let waiting requests through: the places
      // (about a second), the label index, each zoom, then the search index and the other names.
      // In one go it held every request of the first seconds 2.4 s (measured on a bare server).
      setTimeout(async () => {
        const started = performance.now();
        try {
          gazetteer.places();
          await nextTurn();
          labels();
          for (const z of PREWARM_ZOOMS) {
            await nextTurn();
            labels().tile(z, 0, 0);
          }
          app.log.info({ ms: Math.round(performance.now() - started) }, 'city labels prewarmed');
          await nextTurn();
        } catch (error) {
          app.log.error({ err: error }, 'city label prewarm failed');
        }
        // Then the search's other names (the same gazetteer as the search route's, server/app.ts),
        // read in a worker thread and merged into the index when they are in.
        const begun = performance.now();
        Promise.resolve().then(() => gazetteer().prepareSearch()).then(
          () => app.log.info({ ms: Math.round(performance.now() - begun) }, 'search names read'),
          (error: unknown) => app.log.error({ err: error }, 'search names could not be read: places are found by their own names only'),
        );
      }, 0).unref();
    });
  }

  app.get<{ Params: { version: string; lang: string; z: number; x: number; file: string } }>(
    LABELS_ROUTE,
    { schema: labelsSchema },
    async (request, reply) => {
      const { version, lang, z, x, file } = request.params;
      const y = Number(file.slice(0, -'.json'.length));
      if (version !== LABELS_VERSION) throw notFound(`Labels version ${version} is not served; the current version is ${LABELS_VERSION}`);
      checkTile(z, x, y);
      const language = isLanguage(lang) ? lang : DEFAULT_LANGUAGE;
      const body: LabelsTile = { version, z, x, y, labels: labels().tile(z, x, y, language) };
      const key = `${language}/${z}/${x}/${y}`;
      let etag = etags.get(key);
      if (!etag) {
        etag = `"${createHash('sha1').update(JSON.stringify(body)).digest('base64url').slice(0, 20)}"`;
        etags.set(key, etag);
      }
      // SPEC §7: labels are not cached; the client revalidates and a repeat costs a 304.
      reply.header('cache-control', 'no-cache');
      reply.header('etag', etag);
      if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(etag)) return reply.code(304).send();
      return body;
    },
  );

  app.get<{ Params: { product: string; z: number; x: number; y: number }; Querystring: CityTileQuery }>(
    CITYTILE_ROUTE,
    { schema: cityTileSchema },
    async (request, reply) => {
      const started = performance.now();
      const { product, z, x, y } = request.params;
      checkTile(z, x, y);
      const { refTime, labelsVersion = LABELS_VERSION } = request.query;
      if (labelsVersion !== LABELS_VERSION) throw notFound(`Labels version ${labelsVersion} is not served; the current version is ${LABELS_VERSION}`);
      const hours = request.query.hours === undefined ? [0, CITYTILE_WINDOW_HOURS] : parseHoursRange(request.query.hours);
      if (!hours) throw badRequest(`hours "${request.query.hours}" is not a range of forecast hours "from-to" with from <= to`);
      if (hours[1] - hours[0] > CITYTILE_MAX_HOURS) throw badRequest(`hours ${hours[0]}-${hours[1]} spans more than ${CITYTILE_MAX_HOURS} hours`);
      const data = await options.served.byIdent(product);
      const run = refTime === undefined ? await data.current()
        : await data.run(refTime.length === 10 ? hourStampParam(refTime, 'refTime') : Number(refTime));
      const from = run.refTime + hours[0] * HOUR_MS;
      // SPEC §6, §9: the step defaults by tier, 1-hour steps and the premium days need Premium.
      const { step, to, premiumOnly } = await entitle(request, {
        kind: 'series', product: data.product, refTime: run.refTime, step: request.query.step, from, to: run.refTime + hours[1] * HOUR_MS,
      });
      const key = `${data.product.ident}/${run.refTime}/${z}/${x}/${y}/${hours[0]}-${hours[1]}/${step}/${to}`;
      let answer = answers.get(key);
      if (answer) {
        answers.delete(key); // re-insert: Map order is the LRU order
      } else {
        answer = { reftime: run.refTime, hours: [], step, labelsVersion, forecast: {} };
        const window = { step, from, to };
        for (const label of labels().tile(z, x, y)) {
          let point: PointForecast;
          try {
            point = await run.point(label.lat, label.lon, window);
          } catch (error) {
            // A regional product has no data at places outside it: those labels show no value.
            if (error instanceof HttpError && error.statusCode === 404 && /not available for this location/.test(error.message)) continue;
            throw error;
          }
          if (!answer.hours.length) {
            answer.hours = point.ts.map((t) => (t - run.refTime) / HOUR_MS);
            answer.step = point.header.step;
            if (point.header.demo) answer.demo = true;
            if (point.header.sample) answer.sample = true;
          }
          answer.forecast[label.id] = citySeries(point.data);
        }
        if (answers.size >= CITYTILE_CACHE_ENTRIES) answers.delete(answers.keys().next().value as string);
      }
      answers.set(key, answer);
      setForecastCaching(reply, premiumOnly);
      reply.header('server-timing', `citytile;dur=${(performance.now() - started).toFixed(1)}`);
      return answer;
    },
  );
}
