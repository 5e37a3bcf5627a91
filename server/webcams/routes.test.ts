/**
 * The webcam routes against a local HTTP server standing in for the Windy Webcams API v3 (its URL
 * layout, its x-windy-api-key header, its answer shape), and a user's own webcams in the account
 * database.
 *
 * No real answer of the Windy Webcams API is among the fixtures of ../shared/data (a v3 list
 * answer, GET /webcams/api/v3/webcams?nearby=...&include=images,location,urls, would be the file to
 * add): the answers below are written to the API's public documentation
 * (https://api.windy.com/webcams/api/v3/docs), field by field, and say so.
 */

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { USER_WEBCAM_ID_MIN } from '../../common/webcams.ts';
import type { Webcam, WebcamList } from '../../common/api/webcams.ts';
import { testDatabases } from '../db/testing.ts';
import { accountsTestApp, bearer, registerUser, type AccountsTestApp } from '../routes/testing.ts';
import type { HostResolver } from '../alerts/pushEndpoint.ts';
import { createWindyDirectory, WINDY_ATTRIBUTION } from './windyDirectory.ts';

const KEY = 'test-windy-key';

/** A webcam as the v3 documentation describes it (not a recorded answer: see the file's header). */
function documentedWebcam(id: number, title: string, lat: number, lon: number) {
  return {
    webcamId: id,
    title,
    viewCount: 1024,
    status: 'active',
    lastUpdatedOn: '2026-11-27T10:40:12.000Z',
    images: {
      current: {
        icon: `https://imgproxy.windy.com/_/icon/plain/current/${id}/original.jpg?token=t`,
        thumbnail: `https://imgproxy.windy.com/_/thumbnail/plain/current/${id}/original.jpg?token=t`,
        preview: `https://imgproxy.windy.com/_/preview/plain/current/${id}/original.jpg?token=t`,
      },
      sizes: { icon: { width: 48, height: 48 }, thumbnail: { width: 200, height: 112 }, preview: { width: 400, height: 224 } },
    },
    location: { city: 'Praha', region: 'Prague', region_code: 'CZ.52', country: 'Czech Republic', country_code: 'CZ', continent: 'Europe', continent_code: 'EU', latitude: lat, longitude: lon },
    urls: { detail: `https://www.windy.com/webcams/${id}`, edit: `https://www.windy.com/webcams/edit/${id}`, provider: 'https://www.example-provider.cz/' },
  };
}

const PRAGUE = { lat: 50.087, lon: 14.421 };
const CAMS = [
  documentedWebcam(1700000002, 'Praha - Petřín', 50.0835, 14.3951),
  documentedWebcam(1700000001, 'Praha - Old Town Square', 50.0875, 14.4213),
];
/** Half a webcam: no location (it must be left out and logged with its raw text). */
const HALF = { webcamId: 1700000003, title: 'Somewhere', images: CAMS[0].images };

let upstream: Server;
let base: string;
const asked: { url: string; key: string | undefined }[] = [];

beforeAll(async () => {
  upstream = createServer((req: IncomingMessage, res) => {
    asked.push({ url: req.url ?? '', key: req.headers['x-windy-api-key'] as string | undefined });
    res.setHeader('content-type', 'application/json');
    if (req.headers['x-windy-api-key'] !== KEY) {
      res.statusCode = 401;
      res.end(JSON.stringify({ message: 'Invalid API key' }));
      return;
    }
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/webcams/api/v3/webcams') {
      res.end(JSON.stringify({ total: 3, webcams: [...CAMS, HALF] }));
      return;
    }
    const one = /^\/webcams\/api\/v3\/webcams\/(\d+)$/.exec(url.pathname);
    const cam = one && CAMS.find((c) => c.webcamId === Number(one[1]));
    if (cam) {
      res.end(JSON.stringify(cam));
      return;
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ message: 'Not found' }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/webcams/api/v3`;
});
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

/** Names resolve as the test says: 'cams.example.org' to a public address, 'intranet.example.org' to a private one. */
const resolve: HostResolver = async (host) => {
  if (host === 'cams.example.org') return [{ address: '93.184.215.14', family: 4 }];
  if (host === 'intranet.example.org') return [{ address: '10.0.0.7', family: 4 }];
  return [];
};

describe.each(testDatabases())('webcams on $name', (backend) => {
  const apps: AccountsTestApp[] = [];
  const warnings: [string, string][] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
    warnings.length = 0;
    asked.length = 0;
  });
  const start = async (withDirectory = true) => {
    const directory = withDirectory ? createWindyDirectory({ key: KEY, baseUrl: base, warn: (m, raw) => warnings.push([m, raw]) }) : null;
    const t = await accountsTestApp(backend, { webcams: directory, webcamResolve: resolve });
    apps.push(t);
    return t;
  };

  it('lists the directory\'s webcams near a place, nearest first, in the server\'s shape; a half webcam is logged raw and left out', async () => {
    const t = await start();
    const response = await t.app.inject({ url: `/webcams/v1.0/list?nearby=${PRAGUE.lat},${PRAGUE.lon}&lang=cs&limit=5` });
    expect(response.statusCode).toBe(200);
    const list = response.json() as WebcamList;
    expect(list.directory).toBe(true);
    expect(list.webcams.map((w) => w.id)).toEqual([1700000001, 1700000002]);
    expect(list.webcams[0]).toMatchObject({
      title: 'Praha - Old Town Square', lat: 50.0875, lon: 14.4213, source: 'directory',
      imageUrl: CAMS[1].images.current.preview, imageTime: Date.parse('2026-11-27T10:40:12.000Z'),
      pageUrl: 'https://www.windy.com/webcams/1700000001', place: 'Praha, Prague, Czech Republic', attribution: WINDY_ATTRIBUTION,
    });
    expect(list.webcams[0].distanceKm).toBeLessThanOrEqual(0.1);
    expect(list.webcams[1].distanceKm).toBeCloseTo(1.9, 0);
    // The upstream's layout: the key in its header, nearby with the radius, the language, what to include.
    const query = new URL(asked[0].url, 'http://x').searchParams;
    expect(asked[0].key).toBe(KEY);
    expect(query.get('nearby')).toBe(`${PRAGUE.lat},${PRAGUE.lon},50`);
    expect(query.get('lang')).toBe('cs');
    expect(query.get('limit')).toBe('5');
    expect(query.get('include')).toBe('images,location,urls');
    expect(warnings).toHaveLength(1);
    expect(warnings[0][0]).toMatch(/no location/);
    expect(warnings[0][1]).toContain('"webcamId":1700000003');
  });

  it('answers a directory webcam\'s detail, and "not found" for an unknown id or without a directory', async () => {
    const t = await start();
    const one = await t.app.inject({ url: '/webcams/v1.0/detail/1700000002?lang=en' });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: 1700000002, title: 'Praha - Petřín', source: 'directory' });
    const unknown = await t.app.inject({ url: '/webcams/v1.0/detail/42' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Webcam 42 not found');
    const none = await start(false);
    expect((await none.app.inject({ url: '/webcams/v1.0/detail/1700000002' })).statusCode).toBe(404);
    const list = (await none.app.inject({ url: `/webcams/v1.0/list?nearby=${PRAGUE.lat},${PRAGUE.lon}` })).json() as WebcamList;
    expect(list).toEqual({ webcams: [], directory: false });
  });

  it('refuses a malformed nearby query with a clear 400', async () => {
    const t = await start();
    for (const nearby of ['50', '91,14', '50,14,0', '50,14,900', 'a,b']) {
      const response = await t.app.inject({ url: `/webcams/v1.0/list?nearby=${nearby}` });
      expect(response.statusCode, nearby).toBe(400);
    }
  });

  it('keeps a user\'s own webcams: created with a server id, listed and detailed for that user only, changed and removed', async () => {
    const t = await start();
    const user = await registerUser(t.app);
    const other = await registerUser(t.app);
    const cam = { title: 'My garden', lat: 50.09, lon: 14.43, imageUrl: 'https://cams.example.org/garden.jpg', pageUrl: 'https://cams.example.org/', webcamId: 5 };
    const created = await t.app.inject({ method: 'POST', url: '/users/v1/data/webcams', headers: bearer(user.token), payload: cam });
    expect(created.statusCode).toBe(400);
    expect(created.json().message).toBe('Invalid webcam: webcamId is not a user webcam id');
    const { webcamId: _, ...withoutId } = cam;
    const ok = await t.app.inject({ method: 'POST', url: '/users/v1/data/webcams', headers: bearer(user.token), payload: withoutId });
    expect(ok.statusCode, ok.body).toBe(201);
    const item = ok.json() as { id: string; value: { webcamId: number } };
    expect(item.value.webcamId).toBeGreaterThanOrEqual(USER_WEBCAM_ID_MIN);
    expect(Number.isSafeInteger(item.value.webcamId)).toBe(true);

    const listPath = `/webcams/v1.0/list?nearby=${PRAGUE.lat},${PRAGUE.lon}`;
    const mine = (await t.app.inject({ url: listPath, headers: bearer(user.token) })).json() as WebcamList;
    const own = mine.webcams.find((w) => w.source === 'user') as Webcam;
    expect(own).toMatchObject({ id: item.value.webcamId, title: 'My garden', itemId: item.id, imageUrl: cam.imageUrl, pageUrl: cam.pageUrl });
    expect(mine.webcams.map((w) => w.id)).toEqual([1700000001, item.value.webcamId, 1700000002]);
    const theirs = (await t.app.inject({ url: listPath, headers: bearer(other.token) })).json() as WebcamList;
    expect(theirs.webcams.some((w) => w.source === 'user')).toBe(false);
    expect((await t.app.inject({ url: `/webcams/v1.0/detail/${item.value.webcamId}`, headers: bearer(user.token) })).json()).toMatchObject({ title: 'My garden' });
    expect((await t.app.inject({ url: `/webcams/v1.0/detail/${item.value.webcamId}`, headers: bearer(other.token) })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/webcams/v1.0/detail/${item.value.webcamId}` })).statusCode).toBe(404);

    // A change keeps the server's id whatever the body says.
    const changed = await t.app.inject({ method: 'PUT', url: `/users/v1/data/webcams/${item.id}`, headers: bearer(user.token), payload: { ...withoutId, title: 'Garden, north' } });
    expect(changed.statusCode).toBe(200);
    const after = (await t.app.inject({ url: '/users/v1/data/webcams', headers: bearer(user.token) })).json() as { value: { title: string; webcamId: number } }[];
    expect(after.map((i) => i.value)).toEqual([{ ...withoutId, title: 'Garden, north', webcamId: item.value.webcamId }]);

    const removed = await t.app.inject({ method: 'DELETE', url: `/users/v1/data/webcams/${item.id}`, headers: bearer(user.token) });
    expect(removed.statusCode).toBe(200);
    expect((await t.app.inject({ url: `/webcams/v1.0/detail/${item.value.webcamId}`, headers: bearer(user.token) })).statusCode).toBe(404);
  });

  it.each([
    ['http://cams.example.org/a.jpg', 'Invalid webcam: imageUrl must be an https address'],
    ['https://me:secret@cams.example.org/a.jpg', 'Invalid webcam: imageUrl must not carry a user name or password'],
    [`https://cams.example.org/${'a'.repeat(2000)}.jpg`, 'Invalid webcam: imageUrl is longer than 2000 characters'],
    ['https://127.0.0.1/a.jpg', "Invalid webcam: The webcam image address's address 127.0.0.1 is not public (loopback)"],
    ['https://intranet.example.org/a.jpg', "Invalid webcam: The webcam image address's host intranet.example.org resolves to 10.0.0.7, which is not public (private)"],
    ['https://nowhere.example.org/a.jpg', "Invalid webcam: The webcam image address's host nowhere.example.org cannot be resolved"],
  ])('refuses image address %# and stores nothing', async (imageUrl, message) => {
    const t = await start();
    const user = await registerUser(t.app);
    const response = await t.app.inject({ method: 'POST', url: '/users/v1/data/webcams', headers: bearer(user.token), payload: { title: 'Cam', lat: 50, lon: 14, imageUrl } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect((await t.app.inject({ url: '/users/v1/data/webcams', headers: bearer(user.token) })).json()).toEqual([]);
  });
});
