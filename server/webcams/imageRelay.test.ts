/**
 * The webcam image relay against a local HTTPS server standing in for a webcam's host (its
 * certificate and JPEG in testdata/, trusted through the relay's `ca`), let through the address
 * check by the allow-list as ISOBAR_WEBCAMS_ALLOW_ORIGINS would; every other local or private
 * address is refused before any connection. The route's tests use the SQLite account database (the
 * relay reads a user's webcams as the detail route does; both backends are tested there).
 */

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webcamImagePath, type Webcam } from '../../common/api/webcams.ts';
import { USER_WEBCAM_ID_MIN, WEBCAM_IMAGE_CACHE_S, WEBCAM_IMAGE_MAX_BYTES } from '../../common/webcams.ts';
import { SECOND_MS } from '../../common/time.ts';
import type { HostResolver, ResolvedAddress } from '../alerts/pushEndpoint.ts';
import { testDatabases } from '../db/testing.ts';
import { accountsTestApp, bearer, registerUser, testClock, type AccountsTestApp } from '../routes/testing.ts';
import { createImageRelay, fetchWebcamImage, imageTypeOf, WebcamImageError } from './imageRelay.ts';
import type { WebcamDirectory } from './windyDirectory.ts';

const testdata = (name: string) => readFileSync(new URL(`testdata/${name}`, import.meta.url));
const JPEG = testdata('cam.jpg');
const CA = testdata('host.crt');
const CHUNK = Buffer.alloc(64 * 1024, 0xff);
/** The smallest PNG: 1x1, one grey pixel. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108000000003a7e9b550000000a49444154789c63680000008200816e3b8fa20000000049454e44ae426082', 'hex');

let host: Server;
let origin: string;
let port: number;
/** Requests the host received, by path. */
const hits = new Map<string, number>();
/** Bytes of the endless image the host wrote before its client hung up. */
let endlessSent = 0;

beforeAll(async () => {
  host = createServer({ cert: CA, key: testdata('host.key') }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const redirect = (location: string) => res.writeHead(302, { location }).end();
    switch (path) {
      case '/cam.jpg': return res.writeHead(200, { 'content-type': 'image/jpeg; charset=binary', 'content-length': JPEG.length }).end(JPEG);
      case '/page.html': return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>A webcam page</html>');
      case '/disguised.jpg': return res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<html>Not a picture</html>');
      case '/png-as.jpg': return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(PNG);
      case '/gone.jpg': return res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      case '/to-cam': return redirect('/cam.jpg');
      case '/to-private': return redirect('https://10.0.0.7/cam.jpg');
      case '/to-localhost': return redirect(`https://localhost:${port}/cam.jpg`);
      case '/loop': return redirect('/loop');
      case '/silent.jpg': return; // never answers
      case '/endless.jpg': {
        // No Content-Length, and no end: only the relay's size cap stops it.
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        const pump = () => {
          while (!res.destroyed) {
            endlessSent += CHUNK.length;
            if (!res.write(CHUNK)) return;
          }
        };
        res.on('drain', pump);
        pump();
        return;
      }
      default: return res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  port = (host.address() as AddressInfo).port;
  origin = `https://127.0.0.1:${port}`;
});
afterAll(() => {
  host.closeAllConnections();
  return new Promise<void>((resolve) => host.close(() => resolve()));
});

/** The stand-in host let through, as ISOBAR_WEBCAMS_ALLOW_ORIGINS would. */
const allowed = () => ({ allowedOrigins: [origin], ca: CA });
const refusal = (address: string, options: Parameters<typeof fetchWebcamImage>[1] = allowed()) =>
  fetchWebcamImage(address, options).then(() => 'relayed', (error: Error) => (error instanceof WebcamImageError ? error.message : `unexpected ${error.name}: ${error.message}`));

describe('fetchWebcamImage', () => {
  it('fetches an image from an allowed host, following a redirect on it', async () => {
    const image = await fetchWebcamImage(`${origin}/to-cam`, allowed());
    expect(image.contentType).toBe('image/jpeg');
    expect(image.body.equals(JPEG)).toBe(true);
  });

  it.each([
    ['127.0.0.1 without the allow-list', () => `${origin}/cam.jpg`, { ca: CA, allowedOrigins: [] }, /address 127\.0\.0\.1 is not public \(loopback\)/],
    ['a 10.x address', () => 'https://10.1.2.3/cam.jpg', allowed(), /address 10\.1\.2\.3 is not public \(private\)/],
    ['::1', () => `https://[::1]:${port}/cam.jpg`, allowed(), /address ::1 is not public \(loopback\)/],
    ['localhost (the system resolver)', () => `https://localhost:${port}/cam.jpg`, allowed(), /host localhost resolves to (127\.0\.0\.1|::1), which is not public \(loopback\)/],
    ['plain http', () => 'http://93.184.215.14/cam.jpg', allowed(), /must be an https URL/],
  ])('refuses %s before connecting', async (_name, address, options, message) => {
    const before = hits.get('/cam.jpg') ?? 0;
    expect(await refusal(address(), options)).toMatch(message);
    expect(hits.get('/cam.jpg') ?? 0).toBe(before);
  });

  it.each([
    ['a redirect to a private address', '/to-private', /address 10\.0\.0\.7 is not public \(private\)/],
    ['a redirect to a name of a loopback address', '/to-localhost', /host localhost resolves to .* not public \(loopback\)/],
    ['a redirect loop', '/loop', /redirected more than 2 times/],
    ['an HTML page', '/page.html', /answered text\/html, not an image \(image\/jpeg, image\/png, image\/webp, image\/gif\)/],
    ['an error status', '/gone.jpg', /answered HTTP 404/],
    ['a page sent as image/jpeg', '/disguised.jpg', /answered image\/jpeg, but its bytes are not an image \(image\/jpeg, image\/png, image\/webp, image\/gif\)/],
  ])('refuses %s', async (_name, path, message) => {
    expect(await refusal(`${origin}${path}`)).toMatch(message);
  });

  it('relays the type the bytes say, not the one the host declared', async () => {
    const image = await fetchWebcamImage(`${origin}/png-as.jpg`, allowed());
    expect(image.contentType).toBe('image/png');
    expect(image.body.equals(PNG)).toBe(true);
  });

  it('cuts off an image over the size cap', async () => {
    endlessSent = 0;
    expect(await refusal(`${origin}/endless.jpg`)).toBe(`The webcam's image is larger than ${WEBCAM_IMAGE_MAX_BYTES / (1024 * 1024)} MB`);
    // The host saw its client hang up soon after the cap (socket buffers hold a few MB at most).
    expect(endlessSent).toBeGreaterThan(WEBCAM_IMAGE_MAX_BYTES);
    expect(endlessSent).toBeLessThan(4 * WEBCAM_IMAGE_MAX_BYTES);
  });

  it('gives up on a host that does not answer in time', async () => {
    expect(await refusal(`${origin}/silent.jpg`, { ...allowed(), timeoutMs: 300 })).toBe("The webcam's host did not send the image within 0.3 s");
  });
});

describe('imageTypeOf', () => {
  const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));
  it.each([
    ['a JPEG', JPEG, 'image/jpeg'],
    ['a PNG', PNG, 'image/png'],
    ['a GIF89a', bytes('GIF89a', [1, 0, 1, 0]), 'image/gif'],
    ['a GIF87a', bytes('GIF87a', [1, 0, 1, 0]), 'image/gif'],
    ['a WebP', bytes('RIFF', [26, 0, 0, 0], 'WEBPVP8 '), 'image/webp'],
    ['a WAV (RIFF, not WEBP)', bytes('RIFF', [26, 0, 0, 0], 'WAVEfmt '), null],
    ['WEBP without RIFF', bytes('JUNK', [26, 0, 0, 0], 'WEBPVP8 '), null],
    ['HTML', bytes('<!doctype html>'), null],
    ['a JPEG cut to two bytes', bytes([0xff, 0xd8]), null],
    ['nothing', bytes(), null],
  ])('%s', (_name, data, type) => {
    expect(imageTypeOf(data)).toBe(type);
  });
});

describe('the image route', () => {
  const sqlite = testDatabases()[0];
  const apps: AccountsTestApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });

  /** cams.example.org stands for a public address until a test points it elsewhere (a rebind). */
  const names = new Map<string, ResolvedAddress[]>();
  const resolve: HostResolver = async (name) => names.get(name) ?? [];

  const DIRECTORY_CAM: Webcam = { id: 1700000001, title: 'Praha', lat: 50.09, lon: 14.42, source: 'directory', imageUrl: '' };
  const directory: WebcamDirectory = {
    nearby: async () => [],
    detail: async (id) => (id === DIRECTORY_CAM.id ? { ...DIRECTORY_CAM, imageUrl: `${origin}/cam.jpg` } : null),
  };

  const start = async (limits: { webcamImageFetchesPerUser?: number; webcamImageFetchesPerIp?: number } = {}) => {
    const clock = testClock();
    const t = await accountsTestApp(sqlite, {
      webcams: directory, webcamResolve: resolve, webcamAllowedOrigins: [origin], limits, now: clock.now,
      webcamImages: createImageRelay({ resolve, allowedOrigins: [origin], ca: CA, now: clock.now }),
    });
    apps.push(t);
    return { ...t, clock };
  };
  const addWebcam = async (t: AccountsTestApp, token: string, imageUrl: string): Promise<number> => {
    const created = await t.app.inject({ method: 'POST', url: '/users/v1/data/webcams', headers: bearer(token), payload: { title: 'Garden', lat: 50, lon: 14, imageUrl } });
    expect(created.statusCode, created.body).toBe(201);
    return (created.json() as { value: { webcamId: number } }).value.webcamId;
  };

  it("relays the caller's own webcam image with its headers, from the cache for a minute; never another user's", async () => {
    const t = await start();
    const user = await registerUser(t.app);
    const other = await registerUser(t.app);
    hits.set('/cam.jpg', 0);
    const id = await addWebcam(t, user.token, `${origin}/cam.jpg`);
    const path = webcamImagePath(id);

    const answers = await Promise.all([1, 2].map(() => t.app.inject({ url: path, headers: bearer(user.token) })));
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('image/jpeg');
      expect(answer.headers['cache-control']).toBe(`private, max-age=${WEBCAM_IMAGE_CACHE_S}`);
      expect(answer.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(answer.rawPayload.equals(JPEG)).toBe(true);
    }
    // Two requests at once, one fetch; again within the minute, none; after it, a fresh one.
    expect(hits.get('/cam.jpg')).toBe(1);
    t.clock.advance((WEBCAM_IMAGE_CACHE_S - 1) * SECOND_MS);
    expect((await t.app.inject({ url: path, headers: bearer(user.token) })).statusCode).toBe(200);
    expect(hits.get('/cam.jpg')).toBe(1);
    t.clock.advance(2 * SECOND_MS);
    expect((await t.app.inject({ url: path, headers: bearer(user.token) })).statusCode).toBe(200);
    expect(hits.get('/cam.jpg')).toBe(2);

    for (const headers of [bearer(other.token), {}]) {
      const refused = await t.app.inject({ url: path, headers });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toBe(`Webcam ${id} not found`);
    }
    expect(hits.get('/cam.jpg')).toBe(2);
  });

  it("relays a directory webcam's image, public; 404 for an unknown id", async () => {
    const t = await start();
    const answer = await t.app.inject({ url: webcamImagePath(DIRECTORY_CAM.id) });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe(`public, max-age=${WEBCAM_IMAGE_CACHE_S}`);
    expect(answer.rawPayload.equals(JPEG)).toBe(true);
    for (const id of [42, USER_WEBCAM_ID_MIN + 7]) {
      const missing = await t.app.inject({ url: webcamImagePath(id) });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe(`Webcam ${id} not found`);
    }
    expect((await t.app.inject({ url: '/webcams/v1.0/image/abc' })).statusCode).toBe(400);
  });

  it('answers 502 with the reason when the image is not one, or its host has come to stand for a private address', async () => {
    const t = await start();
    const user = await registerUser(t.app);
    const page = await addWebcam(t, user.token, `${origin}/page.html`);
    const html = await t.app.inject({ url: webcamImagePath(page), headers: bearer(user.token) });
    expect(html.statusCode).toBe(502);
    expect(html.headers['cache-control']).toBe('no-store');
    expect(html.json().message).toMatch(/answered text\/html, not an image/);

    names.set('cams.example.org', [{ address: '93.184.215.14', family: 4 }]);
    const id = await addWebcam(t, user.token, 'https://cams.example.org/garden.jpg');
    // The name now points inside: the relay checks again before it connects.
    names.set('cams.example.org', [{ address: '127.0.0.1', family: 4 }]);
    const rebound = await t.app.inject({ url: webcamImagePath(id), headers: bearer(user.token) });
    expect(rebound.statusCode).toBe(502);
    expect(rebound.json().message).toBe("The webcam image address's host cams.example.org resolves to 127.0.0.1, which is not public (loopback)");
  });

  it('counts fetches, not cache hits: per user for their own webcams, per address for the directory; 429 with Retry-After over the limit', async () => {
    const t = await start({ webcamImageFetchesPerUser: 2, webcamImageFetchesPerIp: 1 });
    const user = await registerUser(t.app);
    const other = await registerUser(t.app);
    const cams = [];
    for (let k = 0; k < 3; k++) cams.push(await addWebcam(t, user.token, `${origin}/cam.jpg?cam=${k}`));
    const othersCam = await addWebcam(t, other.token, `${origin}/cam.jpg?cam=other`);
    hits.set('/cam.jpg', 0);
    const get = (id: number, token?: string) => t.app.inject({ url: webcamImagePath(id), headers: token ? bearer(token) : {} });

    expect((await get(cams[0], user.token)).statusCode).toBe(200);
    expect((await get(cams[1], user.token)).statusCode).toBe(200);
    // Cache hits are free.
    expect((await get(cams[0], user.token)).statusCode).toBe(200);
    expect(hits.get('/cam.jpg')).toBe(2);
    const refused = await get(cams[2], user.token);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBe(15 * 60);
    expect(refused.json().message).toBe('Too many webcam images fetched: try again in 15 min');
    expect(hits.get('/cam.jpg')).toBe(2);
    // Another user has limits of their own; the directory's images count per client address.
    expect((await get(othersCam, other.token)).statusCode).toBe(200);
    expect((await get(DIRECTORY_CAM.id)).statusCode).toBe(200);
    expect((await get(DIRECTORY_CAM.id)).statusCode).toBe(200);
    t.clock.advance((WEBCAM_IMAGE_CACHE_S + 1) * SECOND_MS);
    expect((await get(DIRECTORY_CAM.id)).statusCode).toBe(429);
    // The window over, fetched again.
    t.clock.advance(15 * 60 * SECOND_MS);
    expect((await get(cams[2], user.token)).statusCode).toBe(200);
    expect((await get(DIRECTORY_CAM.id)).statusCode).toBe(200);
  });
});
