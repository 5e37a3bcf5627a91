/**
 * Webcams (SPEC §7): the contract of server/webcams/routes.ts and the webcams window
 * (ui/panels/webcams/):
 *
 *   GET /webcams/v1.0/list?nearby=lat,lon[,radiusKm]&lang&limit -> WebcamList: the webcams nearest
 *        the place, nearest first: the configured directory's (ISOBAR_WEBCAMS_KEY) and, with a
 *        bearer token, the caller's own (collection 'webcams', common/webcams.ts)
 *   GET /webcams/v1.0/detail/{id}?lang                           -> Webcam; 404 "Webcam {id} not found"
 *   GET /webcams/v1.0/image/{id}      -> the webcam's current image, relayed by the server (a user's
 *        own webcam with their bearer token only): the upstream's image/jpeg, png, webp or gif
 *        bytes with the type they begin as, Cache-Control max-age WEBCAM_IMAGE_CACHE_S (private for a user's webcam), CORP
 *        same-origin so the page loads it under COEP; 404 as detail; 502 with a JSON message when
 *        the upstream cannot be fetched, is refused (a non-public address), answers anything but an
 *        image or one over WEBCAM_IMAGE_MAX_BYTES (common/webcams.ts); 429 with Retry-After when
 *        fetching it would go over the user's (their own webcams) or the client address's (the
 *        directory's) fetches per window (server/auth/limits.ts WEBCAM_IMAGE_*; cached images are free)
 *
 * A user's own webcams are added, changed and removed through /users/v1/data/webcams (SPEC §7
 * collections, server/routes/users.ts). Times are ms since the epoch.
 */

import type { Infer } from './schema.ts';

export const WEBCAMS_LIST_ROUTE = '/webcams/v1.0/list';
export const WEBCAM_DETAIL_ROUTE = '/webcams/v1.0/detail/:id';
export const WEBCAM_IMAGE_ROUTE = '/webcams/v1.0/image/:id';
/** The collection of a user's own webcams (SPEC §7 /users/v1/data/{collection}). */
export const USER_WEBCAMS_COLLECTION = 'webcams';

export function webcamsListPath(lat: number, lon: number, options: { radiusKm?: number; limit?: number; lang?: string } = {}): string {
  const params = new URLSearchParams({ nearby: [lat.toFixed(4), lon.toFixed(4), ...(options.radiusKm ? [String(options.radiusKm)] : [])].join(',') });
  if (options.lang) params.set('lang', options.lang);
  if (options.limit) params.set('limit', String(options.limit));
  return `${WEBCAMS_LIST_ROUTE}?${params}`;
}

export const webcamDetailPath = (id: number, lang?: string): string => `/webcams/v1.0/detail/${id}${lang ? `?lang=${encodeURIComponent(lang)}` : ''}`;

/** The relayed image of a webcam (the address every webcam image is shown from in the app). */
export const webcamImagePath = (id: number): string => `/webcams/v1.0/image/${id}`;

export const WEBCAM = {
  type: 'object',
  required: ['id', 'title', 'lat', 'lon', 'source', 'imageUrl'],
  properties: {
    id: { type: 'integer', minimum: 0 },
    title: { type: 'string' },
    lat: { type: 'number', minimum: -90, maximum: 90 },
    lon: { type: 'number', minimum: -180, maximum: 180 },
    /** 'directory': the configured webcam directory; 'user': one the caller added. */
    source: { type: 'string', enum: ['directory', 'user'] },
    /** The image's own address (a directory's may hold a token valid for minutes); the app shows it through webcamImagePath. */
    imageUrl: { type: 'string' },
    /** When the image was taken (the directory's last update); absent for a user's webcam, whose image is live. */
    imageTime: { type: 'number' },
    /** The webcam's own page. */
    pageUrl: { type: 'string' },
    /** City, region, country where the directory says. */
    place: { type: 'string' },
    /** Distance from the list's place, km (list answers only). */
    distanceKm: { type: 'number' },
    /** The collection item of a user's webcam (for PUT and DELETE /users/v1/data/webcams/{itemId}). */
    itemId: { type: 'string' },
    /** Who the image is from, to be shown with it. */
    attribution: { type: 'string' },
  },
} as const;
export type Webcam = Infer<typeof WEBCAM>;

export const WEBCAM_LIST = {
  type: 'object',
  required: ['webcams', 'directory'],
  properties: {
    webcams: { type: 'array', items: WEBCAM },
    /** Whether a webcam directory is configured (ISOBAR_WEBCAMS_KEY); false: only the caller's own webcams. */
    directory: { type: 'boolean' },
    /** The directory failed to answer: its webcams are missing from this list. */
    directoryError: { type: 'string' },
  },
} as const;
export type WebcamList = Infer<typeof WEBCAM_LIST>;
