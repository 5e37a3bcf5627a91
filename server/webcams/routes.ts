/**
 * The webcam routes (SPEC §7; the contract is common/api/webcams.ts): the webcams near a place and
 * one webcam's detail, from the configured directory (windyDirectory.ts) and the caller's own
 * (the collection 'webcams' of server/routes/users.ts, read with the caller's bearer token).
 * Registered by registerAccounts inside its scope (its error handler, no-store answers: a list may
 * hold the caller's own webcams). The image route relays a known webcam's image
 * (imageRelay.ts) with its own Cache-Control: private for a user's webcam.
 */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  WEBCAM, WEBCAM_DETAIL_ROUTE, WEBCAM_IMAGE_ROUTE, WEBCAM_LIST, WEBCAMS_LIST_ROUTE, USER_WEBCAMS_COLLECTION, type Webcam,
} from '../../common/api/webcams.ts';
import {
  distanceKm, isUserWebcamId, WEBCAM_IMAGE_CACHE_S, WEBCAMS_LIST_DEFAULT, WEBCAMS_LIST_MAX, WEBCAMS_NEARBY_DEFAULT_KM, WEBCAMS_NEARBY_MAX_KM, type UserWebcam,
} from '../../common/webcams.ts';
import type { AccountStore } from '../auth/accounts.ts';
import type { KeyedLimiter } from '../auth/keyedLimiter.ts';
import { principalOf } from '../auth/bearer.ts';
import type { UserDataStore } from '../db/userDataStore.ts';
import { badRequest, HttpError, notFound, tooMany } from '../http/httpError.ts';
import { WebcamImageError, type WebcamImageRelay } from './imageRelay.ts';
import type { WebcamDirectory } from './windyDirectory.ts';

export interface WebcamRouteOptions {
  accounts: AccountStore;
  data: UserDataStore;
  directory: WebcamDirectory | null;
  images: WebcamImageRelay;
  /** Counts the relay's fetches (auth/limits.ts WEBCAM_IMAGE_*): per user for their own webcams, per client address for the directory's. */
  imageFetches: { perUser: KeyedLimiter; perIp: KeyedLimiter };
}

const LANG_SCHEMA = { type: 'string', pattern: '^[A-Za-z]{2}(-[A-Za-z]{2})?$' } as const;
const ID_PARAMS = { type: 'object', properties: { id: { type: 'string', pattern: '^[0-9]{1,16}$' } } } as const;
/** The directory's language for the image route (its image address is the same in every language). */
const IMAGE_LANG = 'en';

/** "lat,lon[,radiusKm]" of the nearby query. */
export function parseNearby(text: string): { lat: number; lon: number; radiusKm: number } {
  const parts = text.split(',').map((p) => p.trim());
  const [lat, lon, radius] = parts.map(Number);
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => p === '') || !(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) {
    throw badRequest('nearby must be lat,lon[,radiusKm] with lat -90..90 and lon -180..180');
  }
  const radiusKm = parts.length === 3 ? radius : WEBCAMS_NEARBY_DEFAULT_KM;
  if (!(radiusKm > 0 && radiusKm <= WEBCAMS_NEARBY_MAX_KM)) throw badRequest(`The radius must be over 0 and at most ${WEBCAMS_NEARBY_MAX_KM} km`);
  return { lat, lon, radiusKm };
}

/** A user's stored webcam as the routes answer it. */
export function userWebcamOf(itemId: string, value: UserWebcam): Webcam | null {
  if (value.webcamId === undefined) return null;
  const webcam: Webcam = { id: value.webcamId, title: value.title, lat: value.lat, lon: value.lon, source: 'user', imageUrl: value.imageUrl, itemId };
  if (value.pageUrl) webcam.pageUrl = value.pageUrl;
  return webcam;
}

export async function webcamRoutes(app: FastifyInstance, options: WebcamRouteOptions): Promise<void> {
  const { accounts, data, directory, images, imageFetches } = options;

  const ownWebcams = async (userId: string): Promise<Webcam[]> => {
    const { items } = await data.items(userId, USER_WEBCAMS_COLLECTION);
    return items.map((item) => userWebcamOf(item.id, item.value as UserWebcam)).filter((w): w is Webcam => w !== null);
  };

  /** The webcam of an id: the caller's own (never another user's, `owner` the caller) or the directory's; 404 otherwise. */
  const findWebcam = async (request: FastifyRequest, idText: string, lang: string): Promise<{ webcam: Webcam; owner: string | null }> => {
    const id = Number(idText);
    const missing = () => notFound(`Webcam ${idText} not found`);
    if (!Number.isSafeInteger(id)) throw missing();
    if (isUserWebcamId(id)) {
      const who = await principalOf(request, accounts);
      const found = who ? (await ownWebcams(who.user.id)).find((w) => w.id === id) : undefined;
      if (!found || !who) throw missing();
      return { webcam: found, owner: who.user.id };
    }
    if (!directory) throw missing();
    const webcam = await directory.detail(id, lang).catch((error: Error) => {
      request.log.warn({ err: error }, 'webcam directory failed');
      throw new HttpError(502, error.message);
    });
    if (!webcam) throw missing();
    return { webcam, owner: null };
  };

  app.get<{ Querystring: { nearby: string; lang?: string; limit?: number } }>(WEBCAMS_LIST_ROUTE, {
    schema: {
      querystring: {
        type: 'object', required: ['nearby'],
        properties: { nearby: { type: 'string', maxLength: 64 }, lang: LANG_SCHEMA, limit: { type: 'integer', minimum: 1, maximum: WEBCAMS_LIST_MAX } },
      },
      response: { 200: WEBCAM_LIST },
    },
  }, async (request) => {
    const place = parseNearby(request.query.nearby);
    const limit = request.query.limit ?? WEBCAMS_LIST_DEFAULT;
    const lang = request.query.lang ?? 'en';
    const who = await principalOf(request, accounts);
    let directoryError: string | undefined;
    const [fromDirectory, own] = await Promise.all([
      directory ? directory.nearby({ ...place, limit, lang }).catch((error: Error) => {
        request.log.warn({ err: error }, 'webcam directory failed');
        directoryError = error.message;
        return [];
      }) : [],
      who ? ownWebcams(who.user.id) : [],
    ]);
    const webcams = [...own, ...fromDirectory]
      .map((w) => ({ ...w, distanceKm: Math.round(distanceKm(place, w) * 10) / 10 }))
      .filter((w) => w.distanceKm <= place.radiusKm)
      .sort((a, b) => a.distanceKm - b.distanceKm)
      .slice(0, limit);
    return { webcams, directory: directory !== null, ...(directoryError ? { directoryError } : {}) };
  });

  app.get<{ Params: { id: string }; Querystring: { lang?: string } }>(WEBCAM_DETAIL_ROUTE, {
    schema: {
      params: ID_PARAMS,
      querystring: { type: 'object', properties: { lang: LANG_SCHEMA } },
      response: { 200: WEBCAM },
    },
  }, async (request) => (await findWebcam(request, request.params.id, request.query.lang ?? 'en')).webcam);

  app.get<{ Params: { id: string } }>(WEBCAM_IMAGE_ROUTE, { schema: { params: ID_PARAMS } }, async (request, reply) => {
    const { webcam, owner } = await findWebcam(request, request.params.id, IMAGE_LANG);
    // A user's own webcam is fetched from an address they chose: counted per user; the directory's
    // per client address.
    const [limiter, key] = owner !== null ? [imageFetches.perUser, owner] : [imageFetches.perIp, request.ip];
    const image = await images.image(webcam.imageUrl, async () => {
      const wait = await limiter.blockedFor(key);
      if (wait > 0) throw tooMany(reply, wait, 'Too many webcam images fetched');
      await limiter.hit(key);
    }).catch((error: Error) => {
      if (!(error instanceof WebcamImageError)) throw error;
      request.log.info({ webcamId: webcam.id, reason: error.message }, 'webcam image not relayed');
      throw new HttpError(502, error.message);
    });
    // The page embeds it under COEP require-corp: CORP same-origin (as on every answer of securityHeaders.ts) lets it.
    return reply
      .header('content-type', image.contentType)
      .header('cross-origin-resource-policy', 'same-origin')
      .header('cache-control', `${webcam.source === 'user' ? 'private' : 'public'}, max-age=${WEBCAM_IMAGE_CACHE_S}`)
      .send(image.body);
  });
}
