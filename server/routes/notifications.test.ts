import { createECDH, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Alert } from '../../common/alerts.ts';
import { FREE_STEP_HOURS, premiumFrom } from '../../common/entitlements.ts';
import { webPushSender } from '../alerts/push.ts';
import type { ResolvedAddress } from '../alerts/pushEndpoint.ts';
import { NOTIFICATIONS_PER_USER_MAX, PUSH_DEVICES_PER_USER_MAX, SEND_TEST_WINDOW_MS, SEND_TESTS_PER_USER } from '../auth/limits.ts';
import { ServedProducts } from '../data/servedProducts.ts';
import { DeviceStore } from '../db/deviceStore.ts';
import { DemoTileStore } from '../demo/demoTiles.ts';
import { dropSchema, testDatabases, testPostgresUrl } from '../db/testing.ts';
import type { PushJob } from '../alerts/alertService.ts';
import { QUEUES } from '../jobs/jobQueue.ts';
import { startPgBossQueue } from '../jobs/pgBossQueue.ts';
import { jobSchemaName } from '../jobs/testing.ts';
import { accountsTestApp, bearer, registerUser, type AccountsTestApp, type TestUser } from './testing.ts';

interface PushHit { url: string; headers: IncomingHttpHeaders; body: Buffer }

/** A local HTTP server standing in for the browser vendor's push service; `gone` paths answer 410 (unsubscribed). */
async function pushService(): Promise<{ server: Server; url: string; hits: PushHit[]; gone: Set<string> }> {
  const hits: PushHit[] = [];
  const gone = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(gone.has(req.url ?? '') ? 410 : 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, gone };
}

/** A subscription as a browser makes it: a P-256 public key and a 16-byte auth secret. */
function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') } };
}

describe.each(testDatabases())('alerts and notifications on $name', (backend) => {
  let t: AccountsTestApp;
  let push: Awaited<ReturnType<typeof pushService>>;
  let dir: string;
  let sources: ServedProducts;
  /** What the push code's resolver answers (no DNS is asked in these tests). */
  let dns: Record<string, string[]>;

  const start = async () => {
    dir = await mkdtemp(join(tmpdir(), 'isobar-push-'));
    push = await pushService();
    dns = { 'fcm.example.test': ['142.250.74.10'], 'internal.example.test': ['10.0.0.7'] };
    const resolve = async (host: string): Promise<ResolvedAddress[]> => (dns[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    let now = () => 0;
    sources = new ServedProducts({ now: () => now(), demoTiles: new DemoTileStore(), stored: null });
    // The local push service stands in for the vendor's: its origin is the one let through the endpoint check.
    t = await accountsTestApp(backend, { served: sources, push: webPushSender(join(dir, 'vapid.json'), { env: {}, resolve, allowedOrigins: [push.url] }) });
    now = t.clock.now;
    return t;
  };

  afterEach(async () => {
    await t?.close();
    await new Promise((resolve) => push?.server.close(resolve));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const api = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(user.token), ...(payload === undefined ? {} : { payload: payload as object }) });

  /**
   * The demo forecast at the place as a free user's alerts see it (3-hour steps before the premium
   * days, common/entitlements.ts), and a temperature threshold some hours pass and some do not.
   */
  async function demoForecast(lat: number, lon: number) {
    const run = await (await sources.byIdent('demo')).current();
    const forecast = await run.point(lat, lon, { step: FREE_STEP_HOURS, to: premiumFrom(run.refTime) - 1 });
    const temps = forecast.data.temp.filter((x): x is number => x !== null).sort((a, b) => a - b);
    const threshold = temps[Math.floor(temps.length / 2)];
    const expected = forecast.ts.filter((_, i) => (forecast.data.temp[i] ?? -Infinity) >= threshold);
    return { forecast, threshold, expected };
  }

  it('a stored alert on the demo product triggers at the hours its conditions hold, once', async () => {
    await start();
    const user = await registerUser(t.app, 'alice@example.test');
    const { threshold, expected } = await demoForecast(50, 14);
    expect(expected.length).toBeGreaterThan(0);
    const alert: Alert = { lat: 50, lon: 14, name: 'Prague', product: 'demo', state: 'normal', conditions: [{ type: 'temperature', min: threshold }] };
    const created = await api(user, 'POST', '/users/v1/data/alerts', alert);
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;

    const triggered = await t.app.alerts.evaluateProduct('demo');
    expect(triggered).toMatchObject([{ userId: user.id, alertId: id, timestamps: expected, notified: true }]);

    const list = (await api(user, 'GET', '/notif/v1/notifications')).json();
    expect(list.newCount).toBe(1);
    expect(list.notifications[0]).toMatchObject({ type: 'alert', opened: null, payload: { alertId: id, product: 'demo', timestamps: expected, title: 'Prague' } });
    const stored = (await api(user, 'GET', '/users/v1/data/alerts')).json();
    expect(stored[0].value.state).toBe('triggered');
    const times = await api(user, 'GET', `/users/v4/alerts/${id}/timestamps`);
    expect(times.statusCode).toBe(200);
    expect(times.json()).toMatchObject({ id, product: 'demo', timestamps: expected });

    // The same run again: nothing new to tell.
    expect((await t.app.alerts.evaluateProduct('demo'))[0].notified).toBe(false);
    expect((await api(user, 'GET', '/notif/v1/notifications')).json().newCount).toBe(1);
    // Another product's run does not touch it.
    expect(await t.app.alerts.evaluateProduct('ecmwf').catch(() => [])).toEqual([]);
  });

  it('suspended alerts and alerts whose conditions never hold give no notification', async () => {
    await start();
    const user = await registerUser(t.app, 'bob@example.test');
    await api(user, 'POST', '/users/v1/data/alerts', { lat: 50, lon: 14, name: 'Off', product: 'demo', state: 'suspended', conditions: [{ type: 'temperature', min: 150 }] });
    await api(user, 'POST', '/users/v1/data/alerts', { lat: 50, lon: 14, name: 'Never', product: 'demo', state: 'normal', conditions: [{ type: 'temperature', min: 349 }] });
    expect(await t.app.alerts.evaluateProduct('demo')).toEqual([]);
    expect((await api(user, 'GET', '/notif/v1/notifications')).json()).toEqual({ newCount: 0, notifications: [] });
  });

  it.runIf(backend.name === 'postgres')('through the PostgreSQL queue, a test notification is a push job another instance makes', async () => {
    await start();
    const url = testPostgresUrl()!;
    const schema = jobSchemaName();
    // This app as a web process sends; another queue instance (an ingest process's) works the pushes.
    const web = await startPgBossQueue({ url, schema, pollMs: 50 });
    const ingest = await startPgBossQueue({ url, schema, pollMs: 50 });
    try {
      t.app.alerts.pushThrough(web);
      const user = await registerUser(t.app, 'jobs@example.test');
      await api(user, 'PUT', '/users/v3/devices/laptop', { platform: 'web', pushSubscription: browserSubscription(`${push.url}/push/job`) });
      expect((await api(user, 'POST', '/notif/v1/notifications/send-test', {})).statusCode).toBe(201);
      // Stored at once; pushed once a worker takes the job.
      expect(push.hits).toHaveLength(0);
      expect(await web.waiting(QUEUES.push)).toBe(1);
      await ingest.work<PushJob, null>(QUEUES.push, async (job) => {
        await t.app.alerts.deliverPush(job);
        return null;
      });
      await vi.waitFor(() => expect(push.hits.map((hit) => hit.url)).toEqual(['/push/job']), { timeout: 5000 });
    } finally {
      await web.stop();
      await ingest.stop();
      await dropSchema(url, schema);
    }
  });

  it('interactions, removal, the test notification pushed through Web Push, and user isolation', async () => {
    await start();
    const user = await registerUser(t.app, 'carol@example.test');
    const other = await registerUser(t.app, 'dave@example.test', 'Other1Password');
    const subscription = browserSubscription(`${push.url}/push/abc`);
    expect((await api(user, 'PUT', '/users/v3/devices/laptop', { platform: 'web', subscription: 'free', pushSubscription: subscription })).statusCode).toBe(200);

    const sent = await api(user, 'POST', '/notif/v1/notifications/send-test', { deviceID: 'laptop', notificationType: 'test', registrationHash: 'h' });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ type: 'test', payload: { deviceID: 'laptop', notificationType: 'test' } });
    expect(push.hits).toHaveLength(1);
    expect(push.hits[0].url).toBe('/push/abc');
    expect(push.hits[0].headers['content-encoding']).toBe('aes128gcm');
    expect(push.hits[0].headers.authorization).toMatch(/^vapid t=.+, k=.+/);
    expect(push.hits[0].headers.ttl).toBe(String(24 * 3600));
    expect(push.hits[0].body.length).toBeGreaterThan(86);
    // The VAPID keys were made on first use and kept.
    const keys = JSON.parse(await readFile(join(dir, 'vapid.json'), 'utf8'));
    expect((await t.app.inject({ url: '/notif/v1/vapid-public-key' })).json()).toEqual({ publicKey: keys.publicKey });

    await api(user, 'POST', '/notif/v1/notifications/send-test', {});
    let list = (await api(user, 'GET', '/notif/v1/notifications')).json();
    expect(list.newCount).toBe(2);
    const received = await api(user, 'POST', '/notif/v1/interactions/received', { ids: [list.notifications[0].id] });
    expect(received.json()).toEqual({ updated: 1, newCount: 2 });
    // Another user cannot mark, list or remove them.
    expect((await api(other, 'POST', '/notif/v1/interactions/opened', {})).json()).toEqual({ updated: 0, newCount: 0 });
    expect((await api(other, 'DELETE', '/notif/v1/notifications')).json()).toEqual({ removed: 0, newCount: 0 });
    expect((await api(user, 'POST', '/notif/v1/interactions/opened', { ids: [list.notifications[1].id] })).json()).toEqual({ updated: 1, newCount: 1 });
    list = (await api(user, 'GET', '/notif/v1/notifications')).json();
    expect(list.notifications.find((n: { opened: number | null }) => n.opened !== null).received).not.toBeNull();
    expect((await api(user, 'DELETE', '/notif/v1/notifications')).json()).toEqual({ removed: 2, newCount: 0 });
    expect((await api(user, 'GET', '/notif/v1/notifications')).json()).toEqual({ newCount: 0, notifications: [] });

    const alertId = (await api(user, 'POST', '/users/v1/data/alerts', { lat: 50, lon: 14, name: 'X', product: 'demo', state: 'normal', conditions: [{ type: 'temperature', min: 150 }] })).json().id;
    expect((await api(other, 'GET', `/users/v4/alerts/${alertId}/timestamps`)).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/users/v4/alerts/${alertId}/timestamps` })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/notif/v1/notifications' })).statusCode).toBe(401);
    expect((await api(user, 'POST', '/notif/v1/interactions/opened', { ids: ['bad id!'] })).statusCode).toBe(400);
  });

  it.each([
    ['http://127.0.0.1:18999/push', 'must be an https URL'],
    ['https://127.0.0.1:18999/push', 'address 127.0.0.1 is not public (loopback)'],
    ['https://2130706433/push', 'address 127.0.0.1 is not public (loopback)'],
    ['https://[::ffff:127.0.0.1]/push', 'is not public (loopback)'],
    ['https://[::1]:18999/push', 'address ::1 is not public (loopback)'],
    ['https://169.254.169.254/latest', 'is not public (linkLocal)'],
    ['https://internal.example.test/push', 'host internal.example.test resolves to 10.0.0.7, which is not public (private)'],
    ['https://unknown.example.test/push', 'cannot be resolved'],
  ])('a device with the push endpoint %s is refused (%s) and nothing is stored', async (endpoint, reason) => {
    await start();
    const user = await registerUser(t.app, 'frank@example.test');
    const response = await api(user, 'PUT', '/users/v3/devices/laptop', { platform: 'web', pushSubscription: browserSubscription(endpoint) });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(reason);
    expect(await t.db.all('SELECT device_id FROM devices WHERE user_id = ?', [user.id])).toEqual([]);
    // A public push service's endpoint is taken.
    expect((await api(user, 'PUT', '/users/v3/devices/laptop', { platform: 'web', pushSubscription: browserSubscription('https://fcm.example.test/fcm/send/x') })).statusCode).toBe(200);
  });

  it(`test notifications: ${SEND_TESTS_PER_USER} per user per window, then 429 until the window ends`, async () => {
    await start();
    const user = await registerUser(t.app, 'gina@example.test');
    const other = await registerUser(t.app, 'hank@example.test', 'Other1Password');
    await api(user, 'PUT', '/users/v3/devices/laptop', { platform: 'web', pushSubscription: browserSubscription(`${push.url}/push/g`) });
    for (let i = 0; i < SEND_TESTS_PER_USER; i++) expect((await api(user, 'POST', '/notif/v1/notifications/send-test', {})).statusCode).toBe(201);
    t.clock.advance(SEND_TEST_WINDOW_MS - 60_000);
    const refused = await api(user, 'POST', '/notif/v1/notifications/send-test', {});
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.json().message).toContain(`At most ${SEND_TESTS_PER_USER} test notifications`);
    expect(push.hits).toHaveLength(SEND_TESTS_PER_USER);
    expect((await api(user, 'GET', '/notif/v1/notifications')).json().newCount).toBe(SEND_TESTS_PER_USER);
    // Another user has their own count; the window's end lets the first one send again.
    expect((await api(other, 'POST', '/notif/v1/notifications/send-test', {})).statusCode).toBe(201);
    t.clock.advance(60_000);
    expect((await api(user, 'POST', '/notif/v1/notifications/send-test', {})).statusCode).toBe(201);
  });

  it(`a notification is pushed to the ${PUSH_DEVICES_PER_USER_MAX} most recently registered devices, once per endpoint`, async () => {
    await start();
    const user = await registerUser(t.app, 'ivan@example.test');
    const devices = PUSH_DEVICES_PER_USER_MAX + 2;
    for (let i = 0; i < devices; i++) {
      t.clock.advance(1000);
      expect((await api(user, 'PUT', `/users/v3/devices/d${i}`, { platform: 'web', pushSubscription: browserSubscription(`${push.url}/push/d${i}`) })).statusCode).toBe(200);
    }
    // The newest device shares the last one's endpoint (one browser registered under two ids).
    t.clock.advance(1000);
    await api(user, 'PUT', '/users/v3/devices/twin', { platform: 'web', pushSubscription: browserSubscription(`${push.url}/push/d${devices - 1}`) });
    expect((await api(user, 'POST', '/notif/v1/notifications/send-test', {})).statusCode).toBe(201);
    const expected = Array.from({ length: PUSH_DEVICES_PER_USER_MAX }, (_, k) => `/push/d${devices - 1 - k}`);
    expect(push.hits.map((h) => h.url)).toEqual(expected);
  });

  it('forgets a push subscription its push service says is gone (404 or 410), and keeps the others', async () => {
    await start();
    const user = await registerUser(t.app, 'judith@example.test');
    for (const id of ['phone', 'laptop']) {
      t.clock.advance(1000);
      expect((await api(user, 'PUT', `/users/v3/devices/${id}`, { platform: 'web', pushSubscription: browserSubscription(`${push.url}/push/${id}`) })).statusCode).toBe(200);
    }
    push.gone.add('/push/phone');
    expect((await api(user, 'POST', '/notif/v1/notifications/send-test', {})).statusCode).toBe(201);
    expect(push.hits.map((h) => h.url).sort()).toEqual(['/push/laptop', '/push/phone']);
    const devices = await new DeviceStore(t.db, t.clock.now).list(user.id);
    expect(devices.find((d) => d.deviceID === 'phone')?.pushSubscription).toBeNull();
    expect(devices.find((d) => d.deviceID === 'laptop')?.pushSubscription?.endpoint).toBe(`${push.url}/push/laptop`);
    // The next notification goes only where a subscription is left.
    push.hits.length = 0;
    expect((await api(user, 'POST', '/notif/v1/notifications/send-test', {})).statusCode).toBe(201);
    expect(push.hits.map((h) => h.url)).toEqual(['/push/laptop']);
  });

  it(`keeps the newest ${NOTIFICATIONS_PER_USER_MAX} notifications of a user`, async () => {
    await start();
    const user = await registerUser(t.app, 'judy@example.test');
    const other = await registerUser(t.app, 'kate@example.test', 'Other1Password');
    await t.app.alerts.notify(other.id, 'test', { title: 'other', body: 'kept' });
    const made: string[] = [];
    for (let i = 0; i < NOTIFICATIONS_PER_USER_MAX + 5; i++) {
      t.clock.advance(1000);
      made.push((await t.app.alerts.notify(user.id, 'test', { title: `n${i}`, body: 'b' })).id);
    }
    const rows = await t.db.all<{ id: string }>('SELECT id FROM notifications WHERE user_id = ?', [user.id]);
    expect(rows.map((r) => r.id).sort()).toEqual(made.slice(5).sort());
    const list = (await api(user, 'GET', '/notif/v1/notifications')).json();
    expect(list.newCount).toBe(NOTIFICATIONS_PER_USER_MAX);
    expect(list.notifications.map((n: { id: string }) => n.id)).toEqual(made.slice(5).reverse());
    expect((await api(other, 'GET', '/notif/v1/notifications')).json().newCount).toBe(1);
  });

  it('refuses invalid alerts with the reason', async () => {
    await start();
    const user = await registerUser(t.app, 'erin@example.test');
    const response = await api(user, 'POST', '/users/v1/data/alerts', { lat: 50, lon: 14, name: 'X', product: 'demo', state: 'normal', conditions: [{ type: 'wind', directions: ['NNW'] }] });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Invalid alert: unknown direction "NNW"');
  });
});
