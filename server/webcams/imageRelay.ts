/**
 * The webcam image relay (common/api/webcams.ts GET /webcams/v1.0/image/{id}, served by
 * routes.ts): the app is cross-origin isolated (COEP require-corp, server/http/securityHeaders.ts)
 * and most webcam hosts send neither CORP nor CORS headers, so the browser would block their images
 * in the page. The server fetches the image and answers it from its own origin.
 *
 * Only the addresses of webcams the server knows are fetched (the directory's, a user's own), and
 * each one, the first and every redirect, under the push endpoints' rules
 * (server/alerts/pushEndpoint.ts: https, public addresses only, the connection pinned to the
 * addresses the check answered, so a DNS rebind cannot move it). At most REDIRECTS_MAX redirects
 * are followed, each checked like the first. The answer must be HTTP 200 with one of
 * WEBCAM_IMAGE_TYPES (common/webcams.ts) and at most WEBCAM_IMAGE_MAX_BYTES (a longer body is cut
 * off), within TIMEOUT_MS for the whole exchange; anything else is a WebcamImageError saying why.
 *
 * Images are kept WEBCAM_IMAGE_CACHE_S in a small LRU (CACHE_ENTRIES images, CACHE_MAX_BYTES in
 * all) keyed by address, and one fetch serves every request for an address that arrives while it
 * runs. A fetch (a cache miss) first awaits the caller's `beforeFetch`, where the route counts it
 * against its limits. ISOBAR_WEBCAMS_ALLOW_ORIGINS (exact origins; unset by default) lets the tests' local stand-in
 * for a webcam host through the address check; a deployment never sets it.
 */

import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { SECOND_MS } from '../../common/time.ts';
import { WEBCAM_IMAGE_CACHE_S, WEBCAM_IMAGE_MAX_BYTES, WEBCAM_IMAGE_TYPES } from '../../common/webcams.ts';
import { ByteLru } from '../data/byteLru.ts';
import { allowedOriginsFromEnv, checkPushEndpoint, pinnedLookup, PushEndpointError, type CheckedEndpoint, type HostResolver } from '../alerts/pushEndpoint.ts';

/** The environment variable naming the origins of webcam addresses accepted without the address check (tests). */
export const WEBCAMS_ALLOW_ORIGINS_ENV = 'ISOBAR_WEBCAMS_ALLOW_ORIGINS';
/** The whole fetch, redirects and body included. */
const TIMEOUT_MS = 10 * SECOND_MS;
/** Redirects followed (a camera's "latest" address often redirects once to the file). */
const REDIRECTS_MAX = 2;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const CACHE_ENTRIES = 40;
const CACHE_MAX_BYTES = 40 * 1024 * 1024;
const WHAT = 'webcam image address';

/** Why an image was not relayed; the message goes back to the browser with a 502. */
export class WebcamImageError extends Error {
  override name = 'WebcamImageError';
}

export interface WebcamImage {
  body: Buffer;
  /** One of WEBCAM_IMAGE_TYPES. */
  contentType: string;
}

export interface ImageFetchOptions {
  /** The hosts' resolver (default the system's; tests inject theirs). */
  resolve?: HostResolver;
  /** Origins accepted without the address check (default: ISOBAR_WEBCAMS_ALLOW_ORIGINS). */
  allowedOrigins?: readonly string[];
  timeoutMs?: number;
  maxBytes?: number;
  /** Certificates trusted instead of the system's roots: for the tests' local HTTPS host only. */
  ca?: string | Buffer;
}

export interface ImageRelayOptions extends ImageFetchOptions {
  now?: () => number;
}

export interface WebcamImageRelay {
  /**
   * The image at a webcam's address, fetched or from the cache; WebcamImageError when it cannot be
   * relayed. `beforeFetch` runs only when the image is fetched, before any request goes out: what
   * it throws (a rate limit's refusal) is thrown, and nothing is fetched or cached.
   */
  image(address: string, beforeFetch?: () => Promise<void>): Promise<WebcamImage>;
}

/** The leading bytes of each of WEBCAM_IMAGE_TYPES (their formats' signatures; WebP's bytes 4-7 are the RIFF size). */
const SIGNATURES: readonly { type: string; at: number; bytes: readonly number[] }[] = [
  { type: 'image/jpeg', at: 0, bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/png', at: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/gif', at: 0, bytes: [...'GIF8'].map((c) => c.charCodeAt(0)) },
  { type: 'image/webp', at: 8, bytes: [...'WEBP'].map((c) => c.charCodeAt(0)) },
];
const RIFF = [...'RIFF'].map((c) => c.charCodeAt(0));

/** The image type the bytes begin as (one of WEBCAM_IMAGE_TYPES), or null. */
export function imageTypeOf(bytes: Uint8Array): string | null {
  const matches = (at: number, signature: readonly number[]) => bytes.length >= at + signature.length && signature.every((b, k) => bytes[at + k] === b);
  for (const { type, at, bytes: signature } of SIGNATURES) {
    if (matches(at, signature) && (type !== 'image/webp' || matches(0, RIFF))) return type;
  }
  return null;
}

/** Fetches one webcam image under the rules of the file's header. */
export async function fetchWebcamImage(address: string, options: ImageFetchOptions = {}): Promise<WebcamImage> {
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const endpointOptions = { resolve: options.resolve, allowedOrigins: options.allowedOrigins ?? allowedOriginsFromEnv(process.env, WEBCAMS_ALLOW_ORIGINS_ENV), what: WHAT };
  try {
    let url = address;
    for (let redirects = 0; ; redirects++) {
      const checked = await checkPushEndpoint(url, endpointOptions);
      const response = await get(checked, signal, options.ca);
      const status = response.statusCode ?? 0;
      if (!REDIRECT_STATUSES.has(status)) return await readImage(response, options.maxBytes ?? WEBCAM_IMAGE_MAX_BYTES);
      response.resume();
      const location = response.headers.location;
      if (!location || !URL.canParse(location, checked.url)) throw new WebcamImageError(`The webcam's host answered HTTP ${status} without a usable Location`);
      if (redirects === REDIRECTS_MAX) throw new WebcamImageError(`The webcam's host redirected more than ${REDIRECTS_MAX} times`);
      url = new URL(location, checked.url).href;
    }
  } catch (error) {
    if (error instanceof WebcamImageError) throw error;
    if (error instanceof PushEndpointError) throw new WebcamImageError(error.message);
    if (signal.aborted) throw new WebcamImageError(`The webcam's host did not send the image within ${timeoutMs / SECOND_MS} s`);
    throw new WebcamImageError(`The webcam's host cannot be reached: ${(error as Error).message}`);
  }
}

/** One GET to the checked addresses, over a fresh connection (a pooled one could outlive its check); redirects are the caller's. */
function get(checked: CheckedEndpoint, signal: AbortSignal, ca: string | Buffer | undefined): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (checked.url.protocol === 'https:' ? httpsRequest : httpRequest)(checked.url, {
      headers: { accept: WEBCAM_IMAGE_TYPES.join(', ') },
      agent: false,
      lookup: pinnedLookup(checked.addresses),
      signal,
      ...(ca ? { ca } : {}),
    }, resolve);
    request.on('error', reject);
    request.end();
  });
}

/** The body of a 200 with an image type, cut off past maxBytes. */
async function readImage(response: IncomingMessage, maxBytes: number): Promise<WebcamImage> {
  const status = response.statusCode ?? 0;
  const contentType = (response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const refuse = (message: string) => {
    response.destroy();
    return new WebcamImageError(message);
  };
  if (status !== 200) throw refuse(`The webcam's host answered HTTP ${status}`);
  if (!WEBCAM_IMAGE_TYPES.includes(contentType)) {
    throw refuse(`The webcam's host answered ${contentType || 'no content type'}, not an image (${WEBCAM_IMAGE_TYPES.join(', ')})`);
  }
  const tooLarge = `The webcam's image is larger than ${maxBytes / (1024 * 1024)} MB`;
  if (Number(response.headers['content-length']) > maxBytes) throw refuse(tooLarge);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw refuse(tooLarge);
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks, size);
  const sniffed = imageTypeOf(body);
  if (!sniffed) throw new WebcamImageError(`The webcam's host answered ${contentType}, but its bytes are not an image (${WEBCAM_IMAGE_TYPES.join(', ')})`);
  return { body, contentType: sniffed };
}

interface CacheEntry {
  at: number;
  image: Promise<WebcamImage>;
}

/** The relay: fetchWebcamImage behind the cache of the file's header. */
export function createImageRelay(options: ImageRelayOptions = {}): WebcamImageRelay {
  const now = options.now ?? Date.now;
  const fetchOptions: ImageFetchOptions = { ...options, allowedOrigins: options.allowedOrigins ?? allowedOriginsFromEnv(process.env, WEBCAMS_ALLOW_ORIGINS_ENV) };
  // An entry weighs nothing while its fetch runs, then the image's size (grow).
  const cache = new ByteLru<CacheEntry>(CACHE_MAX_BYTES, CACHE_ENTRIES);
  return {
    async image(address, beforeFetch) {
      const cached = () => {
        const entry = cache.get(address);
        return entry && now() - entry.at < WEBCAM_IMAGE_CACHE_S * SECOND_MS ? entry.image : null;
      };
      const hit = cached();
      if (hit) return hit;
      await beforeFetch?.();
      // Another request may have started the fetch while this one was counted.
      const started = cached();
      if (started) return started;
      const entry: CacheEntry = { at: now(), image: fetchWebcamImage(address, fetchOptions) };
      cache.set(address, entry, 0);
      entry.image.then((image) => {
        if (cache.get(address) === entry) cache.grow(address, image.body.length);
      }, () => {
        if (cache.get(address) === entry) cache.delete(address);
      });
      return entry.image;
    },
  };
}
