/**
 * The webcam directory (SPEC §1 "webcams", §7 /webcams/v1.0/...): the Windy Webcams API v3, read
 * when ISOBAR_WEBCAMS_KEY holds a key (free at https://api.windy.com/keys, product "Webcams API").
 * The server asks it, and relays the images it names (imageRelay.ts) for the page to show.
 *
 *   GET {base}/webcams?nearby={lat},{lon},{radiusKm}&limit={n}&lang={lang}&include=images,location,urls
 *        -> { total, webcams: [WindyWebcam] }
 *   GET {base}/webcams/{webcamId}?lang={lang}&include=images,location,urls  -> WindyWebcam; 404 unknown
 *   header x-windy-api-key: {key}; base https://api.windy.com/webcams/api/v3 (ISOBAR_WEBCAMS_URL)
 *
 *   WindyWebcam: { webcamId: number, title: string, status: 'active' | ..., lastUpdatedOn: ISO 8601,
 *                  images: { current: { icon, thumbnail, preview }, daylight: {...} },
 *                  location: { city, region, country, latitude, longitude, ... },
 *                  urls: { detail, provider, edit } }
 *
 * The layout is the one of Windy's public documentation (https://api.windy.com/webcams/api/v3/docs);
 * no real answer of the API is among the fixtures, so the tests serve answers written to that
 * documentation. A webcam the answer holds half (no id, no place, no image) is logged with its raw
 * JSON and left out, never shown half-read. Image addresses carry a token that expires (10 minutes
 * on the free tier): answers are cached for less than that.
 */

import type { Webcam } from '../../common/api/webcams.ts';
import { MINUTE_MS, SECOND_MS } from '../../common/time.ts';

export const WINDY_WEBCAMS_BASE_URL = 'https://api.windy.com/webcams/api/v3';
const KEY_ENV = 'ISOBAR_WEBCAMS_KEY';
const URL_ENV = 'ISOBAR_WEBCAMS_URL';
/** What the API is asked to include in each webcam (its `include` parameter). */
const INCLUDE = 'images,location,urls';
/** How long an answer is reused: under the 10 minutes a free key's image tokens live. */
const CACHE_MS = 5 * MINUTE_MS;
const CACHE_ENTRIES = 200;
const TIMEOUT_MS = 8 * SECOND_MS;
export const WINDY_ATTRIBUTION = 'Webcams provided by windy.com';

export interface WebcamDirectory {
  nearby(query: { lat: number; lon: number; radiusKm: number; limit: number; lang: string }): Promise<Webcam[]>;
  /** Null when the directory has no such webcam. */
  detail(id: number, lang: string): Promise<Webcam | null>;
}

export interface WindyDirectoryOptions {
  key: string;
  baseUrl?: string;
  fetch?: typeof fetch;
  now?: () => number;
  /** Logs a webcam of an answer that cannot be read, with its raw JSON. */
  warn?: (message: string, raw: string) => void;
}

/** The directory ISOBAR_WEBCAMS_KEY configures, or null without a key. */
export function windyDirectoryFromEnv(env: NodeJS.ProcessEnv = process.env, warn?: WindyDirectoryOptions['warn']): WebcamDirectory | null {
  const key = env[KEY_ENV]?.trim();
  if (!key) return null;
  const baseUrl = env[URL_ENV]?.trim() || WINDY_WEBCAMS_BASE_URL;
  if (!URL.canParse(baseUrl)) throw new Error(`${URL_ENV}: "${baseUrl}" is not a URL`);
  return createWindyDirectory({ key, baseUrl, warn });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const httpsUrl = (v: unknown): string | undefined => {
  const s = text(v);
  return s && URL.canParse(s) && new URL(s).protocol === 'https:' ? s : undefined;
};

/** One webcam of an answer in this server's shape, or null (with the reason) when it cannot be read. */
export function readWindyWebcam(raw: unknown): { webcam: Webcam } | { problem: string } {
  if (!isObject(raw)) return { problem: 'not an object' };
  const id = raw.webcamId;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return { problem: 'no numeric webcamId' };
  const title = text(raw.title);
  if (!title) return { problem: 'no title' };
  const location = isObject(raw.location) ? raw.location : null;
  const lat = location?.latitude;
  const lon = location?.longitude;
  if (typeof lat !== 'number' || typeof lon !== 'number' || !(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) return { problem: 'no location' };
  const images = isObject(raw.images) ? raw.images : null;
  const current = images && isObject(images.current) ? images.current : null;
  const imageUrl = httpsUrl(current?.preview) ?? httpsUrl(current?.thumbnail);
  if (!imageUrl) return { problem: 'no https image' };
  const webcam: Webcam = { id, title, lat, lon, source: 'directory', imageUrl, attribution: WINDY_ATTRIBUTION };
  const updated = text(raw.lastUpdatedOn);
  if (updated && Number.isFinite(Date.parse(updated))) webcam.imageTime = Date.parse(updated);
  const urls = isObject(raw.urls) ? raw.urls : null;
  const page = httpsUrl(urls?.detail) ?? httpsUrl(urls?.provider);
  if (page) webcam.pageUrl = page;
  const place = [text(location?.city), text(location?.region), text(location?.country)].filter((s, i, all) => s && all.indexOf(s) === i).join(', ');
  if (place) webcam.place = place;
  return { webcam };
}

export class WebcamDirectoryError extends Error {
  override name = 'WebcamDirectoryError';
}

export function createWindyDirectory(options: WindyDirectoryOptions): WebcamDirectory {
  const base = (options.baseUrl ?? WINDY_WEBCAMS_BASE_URL).replace(/\/+$/, '');
  const fetchFn = options.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const now = options.now ?? Date.now;
  const warn = options.warn ?? ((message: string, raw: string) => console.warn(message, raw));
  const cache = new Map<string, { at: number; value: unknown }>();

  async function get(path: string): Promise<unknown> {
    const hit = cache.get(path);
    if (hit && now() - hit.at < CACHE_MS) return hit.value;
    let response: Response;
    try {
      response = await fetchFn(`${base}${path}`, { headers: { 'x-windy-api-key': options.key, accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      throw new WebcamDirectoryError(`The webcam directory cannot be reached: ${(error as Error).message}`);
    }
    if (response.status === 404) return null;
    if (!response.ok) throw new WebcamDirectoryError(`The webcam directory answered HTTP ${response.status}`);
    const rawText = await response.text();
    let value: unknown;
    try {
      value = JSON.parse(rawText);
    } catch {
      warn('webcam directory: the answer is not JSON', rawText.slice(0, 2000));
      throw new WebcamDirectoryError('The webcam directory answered something that is not JSON');
    }
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(path, { at: now(), value });
    return value;
  }

  const read = (raw: unknown): Webcam | null => {
    const result = readWindyWebcam(raw);
    if ('problem' in result) {
      warn(`webcam directory: a webcam left out (${result.problem})`, JSON.stringify(raw)?.slice(0, 2000) ?? String(raw));
      return null;
    }
    return result.webcam;
  };

  return {
    async nearby({ lat, lon, radiusKm, limit, lang }) {
      const params = new URLSearchParams({ nearby: `${lat},${lon},${radiusKm}`, limit: String(limit), lang, include: INCLUDE });
      const answer = await get(`/webcams?${params}`);
      if (!isObject(answer) || !Array.isArray(answer.webcams)) {
        warn('webcam directory: a list answer without webcams', JSON.stringify(answer)?.slice(0, 2000) ?? '');
        throw new WebcamDirectoryError('The webcam directory answered a list without webcams');
      }
      return answer.webcams.map(read).filter((w): w is Webcam => w !== null);
    },
    async detail(id, lang) {
      const params = new URLSearchParams({ lang, include: INCLUDE });
      const answer = await get(`/webcams/${id}?${params}`);
      return answer === null ? null : read(answer);
    },
  };
}
