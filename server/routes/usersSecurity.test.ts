/**
 * Security of the account API (issue 5 item 7): a matrix over every user path and every kind of
 * credential that must not work (none, malformed, unknown, expired, revoked) or must only reach its
 * own user (another user's valid token); and hostile input — SQL meta characters, huge strings,
 * deep nesting, oversized bodies — refused cleanly or stored verbatim without effect.
 */

import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_COLLECTIONS } from '../../common/account.ts';
import { tokenIdOf } from '../auth/accounts.ts';
import { testDatabases } from '../db/testing.ts';
import { DeviceStore } from '../db/deviceStore.ts';
import { stripeRoutes } from './stripe.ts';
import { accountsTestApp, bearer, PASSWORD, registerUser, T0, type AccountsTestApp, type TestUser } from './testing.ts';

const MARKER = `secret-of-a-${randomBytes(6).toString('hex')}`;
const B_PASSWORD = 'Other2Password';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface UserPath {
  name: string;
  method: Method;
  url: (a: AState) => string;
  body?: unknown | ((a: AState) => unknown);
  /** Status when another logged-in user calls it. */
  otherUser: number;
}

interface AState {
  user: TestUser;
  items: Record<string, string>;
  deviceId: string;
  notification: string;
}

/** An item of the collection holding the text (A's hold the marker; what others send does not). */
const itemFor = (collection: string, text = 'not-secret') => (collection === 'favs' ? { type: 'fav', title: text, lat: 1, lon: 2 } : collection === 'colors'
  ? { id: text, gradient: [[0, [0, 0, 0, 255]], [1, [255, 255, 255, 255]]] }
  : collection === 'alerts'
    ? { name: text, lat: 1, lon: 2, product: 'demo', state: 'normal', conditions: [{ type: 'temperature', min: 280 }] }
    // An address written as a public IP: no name to resolve.
    : collection === 'webcams' ? { title: text, lat: 1, lon: 2, imageUrl: 'https://93.184.215.14/cam.jpg' }
    : { note: text });

/** Every path behind the bearer token (server/routes/users.ts). */
const USER_PATHS: UserPath[] = [
  { name: 'GET settings', method: 'GET', url: () => '/users/settings', otherUser: 200 },
  { name: 'GET settings?storeTs', method: 'GET', url: () => '/users/settings?storeTs=1', otherUser: 200 },
  { name: 'POST settings', method: 'POST', url: () => '/users/settings', body: { version: 4, data: { map: { value: 'winter', ts: T0 } } }, otherUser: 200 },
  ...SYNC_COLLECTIONS.flatMap((c): UserPath[] => [
    { name: `GET ${c}`, method: 'GET', url: () => `/users/v1/data/${c}`, otherUser: 200 },
    { name: `POST ${c}`, method: 'POST', url: () => `/users/v1/data/${c}`, body: itemFor(c), otherUser: 201 },
    { name: `PUT ${c}/{id of A}`, method: 'PUT', url: (a) => `/users/v1/data/${c}/${a.items[c]}`, body: itemFor(c), otherUser: 404 },
    { name: `DELETE ${c}/{id of A}`, method: 'DELETE', url: (a) => `/users/v1/data/${c}/${a.items[c]}`, otherUser: 404 },
  ]),
  { name: 'PUT device of A', method: 'PUT', url: (a) => `/users/v3/devices/${a.deviceId}`, body: { platform: 'evil', deactivated: true }, otherUser: 200 },
  { name: 'POST device of A', method: 'POST', url: (a) => `/users/v3/devices/${a.deviceId}`, body: { platform: 'evil', deactivated: true }, otherUser: 200 },
  { name: 'GET logout', method: 'GET', url: () => '/api/logout', otherUser: 200 },
  { name: 'POST password', method: 'POST', url: () => '/users/v1/password', body: { password: PASSWORD, newPassword: 'Hacked1Password' }, otherUser: 403 },
  // Notifications and alert times (server/routes/notifications.ts).
  { name: 'GET notifications', method: 'GET', url: () => '/notif/v1/notifications', otherUser: 200 },
  { name: 'DELETE notifications', method: 'DELETE', url: () => '/notif/v1/notifications', otherUser: 200 },
  { name: 'POST received {ids of A}', method: 'POST', url: () => '/notif/v1/interactions/received', body: (a: AState) => ({ ids: [a.notification] }), otherUser: 200 },
  { name: 'POST opened {ids of A}', method: 'POST', url: () => '/notif/v1/interactions/opened', body: (a: AState) => ({ ids: [a.notification] }), otherUser: 200 },
  { name: 'POST send-test to A\'s device', method: 'POST', url: () => '/notif/v1/notifications/send-test', body: (a: AState) => ({ deviceID: a.deviceId }), otherUser: 201 },
  { name: 'GET timestamps of A\'s alert', method: 'GET', url: (a) => `/users/v4/alerts/${a.items.alerts}/timestamps`, otherUser: 404 },
  // Premium checkout (server/routes/stripe.ts): a session for the caller only.
  { name: 'POST checkout', method: 'POST', url: () => '/users/v1/subscription/checkout', body: {}, otherUser: 200 },
];

type Credential = 'none' | 'malformed' | 'not bearer' | 'unknown' | 'expired' | 'revoked' | 'other user';
const REFUSED: Credential[] = ['none', 'malformed', 'not bearer', 'unknown', 'expired', 'revoked'];

describe.each(testDatabases())('security matrix on $name', (backend) => {
  let t: AccountsTestApp;
  let a: AState;
  let b: TestUser;
  const headers: Partial<Record<Credential, Record<string, string>>> = {};

  const snapshotOfA = async () => {
    const auth = bearer(a.user.token);
    const settings = (await t.app.inject({ url: '/users/settings', headers: auth })).json();
    const collections = await Promise.all(SYNC_COLLECTIONS.map(async (c) => (await t.app.inject({ url: `/users/v1/data/${c}`, headers: auth })).json()));
    const devices = await new DeviceStore(t.db, t.clock.now).list(a.user.id);
    const info = (await t.app.inject({ url: '/api/info', headers: auth })).json();
    const notifications = await t.app.alerts.list(a.user.id);
    return { settings, collections, devices, notifications, auth: info.auth, id: info.userInfo?.id };
  };
  let before: Awaited<ReturnType<typeof snapshotOfA>>;

  beforeAll(async () => {
    t = await accountsTestApp(backend, {}, async (app) => void await app.register(stripeRoutes, {
      accounts: app.accounts,
      config: { secretKey: 'sk_test_matrix', priceId: 'price_matrix', publicUrl: 'https://isobar.test' },
      client: { checkout: { sessions: { create: async (params) => ({ id: 'cs_test', url: `https://checkout.stripe.test/${params.client_reference_id}` }) } } },
    }));
    const user = await registerUser(t.app, 'alice@example.test');
    a = { user, items: {}, deviceId: 'alice-laptop', notification: '' };
    await t.app.inject({ method: 'POST', url: '/users/settings', headers: bearer(user.token), payload: { version: 4, data: { map: { value: 'sat', ts: T0 - 10 }, userInterests: { value: [MARKER], ts: T0 - 10 } } } });
    for (const c of SYNC_COLLECTIONS) {
      a.items[c] = (await t.app.inject({ method: 'POST', url: `/users/v1/data/${c}`, headers: bearer(user.token), payload: itemFor(c, MARKER) })).json().id;
    }
    await t.app.inject({ method: 'PUT', url: `/users/v3/devices/${a.deviceId}`, headers: bearer(user.token), payload: { platform: MARKER } });
    a.notification = (await t.app.alerts.notify(user.id, 'test', { title: MARKER, body: MARKER })).id;
    b = await registerUser(t.app, 'bob@example.test', B_PASSWORD);

    const loginA = async () => (await t.app.inject({ method: 'POST', url: '/users/v1/login', payload: { email: 'alice@example.test', password: PASSWORD } })).json().token as string;
    const expired = await loginA();
    await t.db.run('UPDATE auth_tokens SET expires = ? WHERE id = ?', [T0 - 1, tokenIdOf(expired)]);
    const revoked = await loginA();
    expect((await t.app.inject({ url: '/api/logout', headers: bearer(revoked) })).statusCode).toBe(200);
    headers.none = {};
    headers.malformed = { authorization: 'Bearer not a token at all' };
    headers['not bearer'] = { authorization: `Basic ${Buffer.from(`alice@example.test:${PASSWORD}`).toString('base64')}` };
    headers.unknown = bearer(randomBytes(32).toString('base64url'));
    headers.expired = bearer(expired);
    headers.revoked = bearer(revoked);
    before = await snapshotOfA();
    expect(JSON.stringify(before)).toContain(MARKER);
    expect(before.auth).toBe(true);
  });

  afterAll(async () => {
    await t.close();
  });

  const call = (path: UserPath, h: Record<string, string>): Promise<LightMyRequestResponse> => t.app.inject({
    method: path.method, url: path.url(a), headers: h,
    ...(path.body === undefined ? {} : { payload: (typeof path.body === 'function' ? path.body(a) : path.body) as object }),
  });

  const cases = USER_PATHS.flatMap((path) => REFUSED.map((credential) => [path.name, credential, path] as const));

  it.each(cases)('%s with %s credentials: 401, nothing read or changed', async (_name, credential, path) => {
    const response = await call(path, headers[credential]!);
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
    expect(response.body).not.toContain(MARKER);
    expect(await snapshotOfA()).toEqual(before);
  });

  it.each(USER_PATHS.map((path) => [path.name, path] as const))('%s with another user\'s token: only their own data', async (_name, path) => {
    // Logout ends the session it is called with: give it one of its own.
    const token = path.name === 'GET logout'
      ? (await t.app.inject({ method: 'POST', url: '/users/v1/login', payload: { email: 'bob@example.test', password: B_PASSWORD } })).json().token as string
      : b.token;
    const response = await call(path, bearer(token));
    expect(response.statusCode).toBe(path.otherUser);
    expect(response.body).not.toContain(MARKER);
    expect(response.body).not.toContain(a.user.id);
    expect(await snapshotOfA()).toEqual(before);
  });

  it.each(REFUSED)('/api/info with %s credentials answers auth false', async (credential) => {
    const response = await t.app.inject({ url: '/api/info', headers: headers[credential]! });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ auth: false });
  });

  it('/api/info with another user\'s token tells about that user only', async () => {
    const body = (await t.app.inject({ url: '/api/info', headers: bearer(b.token) })).json();
    expect(body.userInfo.email).toBe('bob@example.test');
    expect(JSON.stringify(body)).not.toContain(a.user.id);
  });

  it('what the other user wrote stayed theirs', async () => {
    const bSettings = (await t.app.inject({ url: '/users/settings', headers: bearer(b.token) })).json();
    expect(bSettings.data.map.value).toBe('winter');
    const bDevices = await new DeviceStore(t.db, t.clock.now).list(b.id);
    expect(bDevices).toEqual([expect.objectContaining({ deviceID: a.deviceId, platform: 'evil', deactivated: true })]);
  });
});

describe.each(testDatabases())('hostile input on $name', (backend) => {
  let t: AccountsTestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await accountsTestApp(backend);
    user = await registerUser(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  const SQL_META = [
    "'; DROP TABLE users; --",
    "\" OR 1=1 --",
    "Robert'); DELETE FROM user_items WHERE ('1'='1",
    '\\\'; SELECT pg_sleep(5); --',
    '?; $1; :name; @p',
    '%_%',
    '\u0000 NUL',
    '\u{1F600} \u202E rtl \uFEFF',
    '<script>alert(1)</script>',
    '{"$gt": ""}',
  ];

  it.each(SQL_META)('stores %j verbatim as a favourite title and a setting, without effect', async (text) => {
    const counts = async () => ({
      users: await t.db.get('SELECT COUNT(*) AS n FROM users'),
      tables: await t.db.get('SELECT COUNT(*) AS n FROM schema_migrations'),
    });
    const beforeCounts = await counts();
    const created = await t.app.inject({ method: 'POST', url: '/users/v1/data/favs', headers: bearer(user.token), payload: { type: 'station', title: text, stationId: text } });
    expect(created.statusCode).toBe(201);
    const list = (await t.app.inject({ url: '/users/v1/data/favs', headers: bearer(user.token) })).json() as { id: string; value: { title: string } }[];
    expect(list.find((i) => i.id === created.json().id)?.value).toEqual({ type: 'station', title: text, stationId: text });
    t.clock.advance(1);
    const posted = await t.app.inject({ method: 'POST', url: '/users/settings', headers: bearer(user.token), payload: { version: 4, data: { userInterests: { value: [text], ts: t.clock.now() } } } });
    expect(posted.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/users/settings', headers: bearer(user.token) })).json().data.userInterests.value).toEqual([text]);
    expect(await counts()).toEqual(beforeCounts);
  });

  it.each(SQL_META.filter((s) => !s.includes('\u0000')))('a login with %j as the email is an ordinary failed login', async (text) => {
    const response = await t.app.inject({ method: 'POST', url: '/users/v1/login', payload: { email: `${text}@x`, password: text }, remoteAddress: `10.1.${SQL_META.indexOf(text)}.1` });
    expect([400, 401]).toContain(response.statusCode);
    expect(await t.db.get('SELECT COUNT(*) AS n FROM users')).toEqual({ n: 1 });
  });

  it.each([
    ['an email of 10 000 characters', { email: `${'a'.repeat(10_000)}@example.test`, password: PASSWORD }, 413],
    ['an email of 300 characters', { email: `${'a'.repeat(300)}@example.test`, password: PASSWORD }, 400],
    ['a password of 300 characters', { email: 'long@example.test', password: `Aa1${'x'.repeat(297)}` }, 400],
    ['a username of 1000 characters', { email: 'long@example.test', password: PASSWORD, username: 'u'.repeat(1000) }, 400],
    ['an email that is an object', { email: { $gt: '' }, password: PASSWORD }, 400],
    ['a password that is a list', { email: 'list@example.test', password: [PASSWORD, PASSWORD] }, 400],
  ])('register refuses %s', async (_name, body, status) => {
    const response = await t.app.inject({ method: 'POST', url: '/users/v1/register', payload: body, remoteAddress: `10.2.0.${status}` });
    expect(response.statusCode).toBe(status);
    expect(await t.db.get('SELECT COUNT(*) AS n FROM users')).toEqual({ n: 1 });
  });

  const nested = (depth: number) => {
    let value: unknown = 'leaf';
    for (let i = 0; i < depth; i++) value = { next: value };
    return value;
  };

  it.each([
    ['nested 17 deep', { rule: nested(17) }, 400],
    ['nested 5000 deep (in 32 KB)', JSON.stringify({ rule: nested(2000) }), 400],
    ['a list nested 10 000 deep', `{"rule":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, 400],
    ['over 32 KB', { note: 'x'.repeat(33 * 1024) }, 413],
    ['a string of 1 MB', { note: 'x'.repeat(1024 * 1024) }, 413],
    ['not JSON', '{"note": ', 400],
    ['a __proto__ key', '{"__proto__": {"admin": true}}', 400],
    ['a constructor.prototype key', '{"constructor": {"prototype": {"admin": true}}}', 400],
  ])('an alert %s is refused cleanly', async (_name, body, status) => {
    const beforeList = (await t.app.inject({ url: '/users/v1/data/alerts', headers: bearer(user.token) })).json();
    const response = await t.app.inject({
      method: 'POST', url: '/users/v1/data/alerts', headers: { ...bearer(user.token), 'content-type': 'application/json' },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
    expect(response.statusCode).toBe(status);
    expect(response.json().statusCode).toBe(status);
    expect((await t.app.inject({ url: '/users/v1/data/alerts', headers: bearer(user.token) })).json()).toEqual(beforeList);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('a nested value 16 deep is stored and read back', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/users/v1/data/notams', headers: bearer(user.token), payload: nested(16) as object });
    expect(response.statusCode).toBe(201);
    expect(response.json().value).toEqual(nested(16));
  });

  it('an item id with SQL in the path is refused by its pattern', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: `/users/v1/data/favs/${encodeURIComponent("x' OR '1'='1")}`, headers: bearer(user.token) });
    expect(response.statusCode).toBe(400);
  });

  it('a storeTs that is not a number is refused', async () => {
    expect((await t.app.inject({ url: "/users/settings?storeTs=1'--", headers: bearer(user.token) })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/users/v1/data/favs?storeTs=-1', headers: bearer(user.token) })).statusCode).toBe(400);
  });
});
