/**
 * Webcams (SPEC §1 "webcams", §2 routes /webcams..., §3 Favourite type webcam with a numeric
 * webcamId): the webcams of a configured directory (server/webcams/windyDirectory.ts) and the ones
 * users add to their account, kept as the synced collection 'webcams' (SPEC §7
 * /users/v1/data/{collection}, server/routes/users.ts).
 *
 *   user webcam   title (required), lat, lon, imageUrl (https), pageUrl (https, optional),
 *                 webcamId (assigned by the server when it is created, kept on every change)
 *
 * The browser shows every webcam's image through the server's image relay (common/api/webcams.ts
 * /webcams/v1.0/image/{id}, server/webcams/imageRelay.ts): the app is served with COEP require-corp
 * and most webcam hosts send neither CORP nor CORS, so their images would not load straight into
 * the page. An address must be https, carry no user name or password and stay under
 * WEBCAM_URL_MAX_LENGTH; the server fetches it only under the push endpoints' public-address rules.
 * userWebcamProblem is the one check of the browser's form and the server.
 */

import { greatCircleKm } from './capAlerts.ts';

/** The longest webcam title kept (a place name or one the user typed). Not in the SPEC. */
export const WEBCAM_TITLE_MAX_LENGTH = 120;
/** The longest image or page address kept. Not in the SPEC: the practical limit of browsers' address bars is 2 000. */
export const WEBCAM_URL_MAX_LENGTH = 2000;
/**
 * Ids of user webcams: [2^52, 2^53), far above the ids of the webcam directory (Windy's are below
 * 10^10), so one numeric id space (SPEC §2 /webcams/{numeric id}, §3 webcamId) holds both and a
 * user's id never names a directory webcam.
 */
export const USER_WEBCAM_ID_MIN = 2 ** 52;
export const USER_WEBCAM_ID_MAX = Number.MAX_SAFE_INTEGER;
/** SPEC §7 /webcams/v1.0/list?limit: the most webcams one list answers (the directory's own page limit, Windy API v3: 50). */
export const WEBCAMS_LIST_MAX = 50;
export const WEBCAMS_LIST_DEFAULT = 10;
/** How far "nearby" reaches, km (the directory's largest radius, Windy API v3 nearby: 250 km). */
export const WEBCAMS_NEARBY_MAX_KM = 250;
export const WEBCAMS_NEARBY_DEFAULT_KM = 50;

/**
 * The image relay (server/webcams/imageRelay.ts). Not in the SPEC. The largest image relayed: a
 * webcam's full-size JPEG is rarely over 1 MB; a larger body is cut off and answered 502.
 */
export const WEBCAM_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** How long the relay reuses an image and the browser may keep it (Cache-Control max-age), s: webcams refresh every minute or more. */
export const WEBCAM_IMAGE_CACHE_S = 60;
/** The image types relayed (the upstream's Content-Type, without parameters); anything else is answered 502. */
export const WEBCAM_IMAGE_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

export interface UserWebcam {
  title: string;
  lat: number;
  lon: number;
  imageUrl: string;
  pageUrl?: string;
  /** Assigned by the server. */
  webcamId?: number;
}

export const isUserWebcamId = (id: number): boolean => Number.isSafeInteger(id) && id >= USER_WEBCAM_ID_MIN;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why an address is not one a webcam may have, or null when it is fine. `field` names it in the message. */
export function webcamUrlProblem(value: unknown, field: string): string | null {
  if (typeof value !== 'string' || value.trim() === '') return `${field} is empty`;
  if (value.length > WEBCAM_URL_MAX_LENGTH) return `${field} is longer than ${WEBCAM_URL_MAX_LENGTH} characters`;
  if (!URL.canParse(value)) return `${field} is not an address`;
  const url = new URL(value);
  if (url.protocol !== 'https:') return `${field} must be an https address`;
  if (url.username || url.password) return `${field} must not carry a user name or password`;
  return null;
}

/** Why a value is not a user webcam, or null when it is one (SPEC §5 style: validated at the edge). */
export function userWebcamProblem(v: unknown): string | null {
  if (!isObject(v)) return 'not an object';
  if (typeof v.title !== 'string' || v.title.trim() === '') return 'title is empty';
  if (v.title.length > WEBCAM_TITLE_MAX_LENGTH) return 'title is too long';
  if (typeof v.lat !== 'number' || !Number.isFinite(v.lat) || Math.abs(v.lat) > 90) return 'lat out of range';
  if (typeof v.lon !== 'number' || !Number.isFinite(v.lon) || Math.abs(v.lon) > 180) return 'lon out of range';
  const image = webcamUrlProblem(v.imageUrl, 'imageUrl');
  if (image) return image;
  if (v.pageUrl !== undefined && v.pageUrl !== '') {
    const page = webcamUrlProblem(v.pageUrl, 'pageUrl');
    if (page) return page;
  }
  if (v.webcamId !== undefined && !(typeof v.webcamId === 'number' && isUserWebcamId(v.webcamId))) return 'webcamId is not a user webcam id';
  return null;
}

/** The stored form: the known fields only, texts trimmed, an empty page address left out. */
export function normalUserWebcam(v: UserWebcam): UserWebcam {
  const out: UserWebcam = { title: v.title.trim(), lat: v.lat, lon: v.lon, imageUrl: v.imageUrl.trim() };
  if (v.pageUrl && v.pageUrl.trim()) out.pageUrl = v.pageUrl.trim();
  if (v.webcamId !== undefined) out.webcamId = v.webcamId;
  return out;
}

/** Great-circle distance, km (capAlerts.ts greatCircleKm: haversine). */
export const distanceKm = (a: { lat: number; lon: number }, b: { lat: number; lon: number }): number => greatCircleKm(a.lon, a.lat, b.lon, b.lat);
