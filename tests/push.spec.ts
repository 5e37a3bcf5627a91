/**
 * Web Push end to end (issue 5 item 5: "where the browser allows, a Web Push message (VAPID,
 * through a maintained library)"), in Debian Chromium against the real server:
 *
 *   the alerts window's "Turn on" asks the notification permission, registers /sw.js, subscribes
 *   with the server's VAPID key and registers the device with its subscription; "Send a test
 *   notification" makes the server sign (VAPID) and encrypt (RFC 8291) a message and POST it to
 *   the subscription's push service; the service worker turns the delivered message into a shown
 *   notification and the open page's badge counts it.
 *
 * The one part that cannot run here is the browser vendor's push service (Chromium subscribes
 * through Google's servers: no network here). The test stands in for it: PushManager.subscribe
 * answers a subscription whose endpoint is a local HTTP server and whose keys the test holds; that
 * server checks the VAPID header, decrypts the body with the subscription's private key (http_ece,
 * the RFC 8188 library web-push itself uses) and hands the plaintext to the browser through the
 * DevTools protocol (ServiceWorker.deliverPushMessage), as the push service would. The server
 * refuses push endpoints on local addresses (server/alerts/pushEndpoint.ts); the stand-in's origin is
 * the one playwright.config.ts lets through (ISOBAR_PUSH_ALLOW_ORIGINS), and another local one is
 * still refused.
 */

import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { expect, type Page } from '@playwright/test';
import { newContext, test } from './fixtures.ts';
import ece from 'http_ece';
import { E2E_PUSH_SERVICE_ORIGIN } from '../playwright.config.ts';

test.use({ locale: 'en-US', timezoneId: 'UTC' });

const PASSWORD = 'Cumulus42';

interface Received { headers: IncomingHttpHeaders; plaintext: string }

async function pushService(): Promise<{ server: Server; url: string; received: Received[]; keys: { p256dh: string; auth: string } }> {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      try {
        const plaintext = ece.decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: ecdh, authSecret: auth.toString('base64url') }).toString('utf8');
        received.push({ headers: request.headers, plaintext });
        response.writeHead(201).end();
      } catch (error) {
        response.writeHead(400).end(String(error));
      }
    });
  });
  const { hostname, port } = new URL(E2E_PUSH_SERVICE_ORIGIN);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(Number(port), hostname, resolve));
  return { server, url: `${E2E_PUSH_SERVICE_ORIGIN}/push/device-1`, received, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

async function register(page: Page): Promise<void> {
  await page.goto('/register');
  const form = page.getByTestId('auth-register');
  await form.getByTestId('auth-email').fill(`push-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`);
  await form.getByTestId('auth-password').fill(PASSWORD);
  await form.getByTestId('auth-passwordConfirm').fill(PASSWORD);
  await form.getByTestId('auth-submit').click();
  await expect(page.getByTestId('account-button')).toHaveAttribute('data-logged-in', 'true');
}

test('a test notification travels server -> push service -> service worker -> notification and badge', async ({ browser, baseURL }) => {
  const service = await pushService();
  const context = await newContext(browser, { locale: 'en-US', timezoneId: 'UTC' });
  try {
    await context.grantPermissions(['notifications'], { origin: baseURL! });
    // The stand-in for the vendor's push service (see the file's header): only the address and keys
    // of the subscription come from the test; the worker's registration is the page's own.
    await context.addInitScript(({ endpoint, keys }) => {
      const subscription = () => ({
        endpoint, expirationTime: null, options: { userVisibleOnly: true },
        toJSON: () => ({ endpoint, expirationTime: null, keys }),
        unsubscribe: async () => {
          (window as unknown as { pushSubscribed?: boolean }).pushSubscribed = false;
          return true;
        },
      });
      PushManager.prototype.subscribe = async function subscribe(options?: PushSubscriptionOptionsInit) {
        const key = options?.applicationServerKey;
        if (!(key instanceof Uint8Array) || key.length !== 65) throw new Error('no VAPID key given');
        (window as unknown as { pushSubscribed?: boolean; vapidKey?: number[] }).pushSubscribed = true;
        (window as unknown as { vapidKey?: number[] }).vapidKey = Array.from(key as Uint8Array);
        return subscription() as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async function getSubscription() {
        return (window as unknown as { pushSubscribed?: boolean }).pushSubscribed ? subscription() as unknown as PushSubscription : null;
      };
    }, { endpoint: service.url, keys: service.keys });

    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const registrations: string[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
      for (const r of event.registrations) if (!r.isDeleted && !registrations.includes(r.registrationId)) registrations.push(r.registrationId);
    });
    await cdp.send('ServiceWorker.enable');

    await register(page);
    await page.goto('/alerts');
    const push = page.locator('.alerts-push');
    await expect(push).toHaveAttribute('data-push-state', 'off');
    await push.getByRole('button', { name: 'Turn on' }).click();
    await expect(push).toHaveAttribute('data-push-state', 'on');
    // Subscribed with the server's own VAPID public key.
    const serverKey = (await (await page.request.get('/notif/v1/vapid-public-key')).json()).publicKey as string;
    expect(Buffer.from(await page.evaluate(() => (window as unknown as { vapidKey: number[] }).vapidKey)).toString('base64url')).toBe(serverKey);
    await page.screenshot({ path: 'test-results/push-on-1280x720.png', animations: 'disabled' });

    await page.getByTestId('alerts-send-test').click();
    await expect.poll(() => service.received.length).toBe(1);
    const message = service.received[0];
    expect(message.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${serverKey}$`));
    expect(message.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(message.headers.ttl)).toBeGreaterThan(0);
    const payload = JSON.parse(message.plaintext) as { type: string; title: string; body: string; newCount: number; id: string };
    expect(payload).toMatchObject({ type: 'test', title: 'Isobar', body: 'This is a test notification', newCount: 1 });

    // The push service delivers it to the browser: the service worker shows it. (Delivered again on
    // each try until the worker is active: a message to a worker still installing is dropped; one
    // tag, so repeats replace the notification. A notification shown after a try's look is seen by
    // the next try.)
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const origin = new URL(baseURL!).origin;
    await expect.poll(async () => {
      const registrationId = registrations.at(-1);
      if (registrationId) await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: message.plaintext });
      return page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag }));
      });
    }).toEqual([{ title: 'Isobar', body: 'This is a test notification', tag: payload.id }]);
    // ... and tells the page, which reports it received and shows the count.
    await expect(page.getByTestId('alerts-new-count')).toHaveText('1 new notification');

    // Turned off: the device no longer carries a subscription; the next test reaches no push service.
    await push.getByRole('button', { name: 'Turn off' }).click();
    await expect(push).toHaveAttribute('data-push-state', 'off');
    await page.getByTestId('alerts-send-test').click();
    await expect(page.getByTestId('alerts-new-count')).toHaveText('2 new notifications');
    expect(service.received).toHaveLength(1);
  } finally {
    await context.close();
    service.server.close();
  }
});

test('the server refuses push endpoints on its own network, the allowed stand-in aside', async ({ request }) => {
  const email = `push-ssrf-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const registered = await request.post('/users/v1/register', { data: { email, password: PASSWORD, passwordConfirm: PASSWORD } });
  expect(registered.status()).toBe(201);
  const headers = { authorization: `Bearer ${(await registered.json() as { token: string }).token}` };
  const keys = { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XLjDBdF8J8pL_gYt3b8A4M4', auth: 'tBHItJI5svbpez7KI4CCXg' };
  const other = new URL(E2E_PUSH_SERVICE_ORIGIN);
  other.port = String(Number(other.port) + 1);
  for (const [endpoint, reason] of [
    [`${other.origin}/push`, 'must be an https URL'],
    ['https://127.0.0.1:18999/push', 'address 127.0.0.1 is not public (loopback)'],
    ['https://2130706433/push', 'address 127.0.0.1 is not public (loopback)'],
    ['https://[::ffff:127.0.0.1]/push', 'is not public (loopback)'],
    ['https://localhost/push', 'resolves to'],
  ]) {
    const answer = await request.put('/users/v3/devices/probe', { headers, data: { platform: 'web', pushSubscription: { endpoint, keys } } });
    expect(answer.status(), endpoint).toBe(400);
    expect((await answer.json() as { message: string }).message, endpoint).toContain(reason);
  }
  const allowed = await request.put('/users/v3/devices/probe', { headers, data: { platform: 'web', pushSubscription: { endpoint: `${E2E_PUSH_SERVICE_ORIGIN}/push/x`, keys } } });
  expect(allowed.status()).toBe(200);
});

test('where notifications are not allowed, the window says so and subscribes nothing', async ({ browser }) => {
  // No permission granted: Chromium's headless prompt is dismissed, as a user who blocks it.
  const context = await newContext(browser, { locale: 'en-US', timezoneId: 'UTC' });
  try {
    await context.addInitScript(() => {
      PushManager.prototype.subscribe = async function subscribe() {
        (window as unknown as { subscribeCalls?: number }).subscribeCalls = ((window as unknown as { subscribeCalls?: number }).subscribeCalls ?? 0) + 1;
        throw new Error('subscribe must not be called without permission');
      };
    });
    const page = await context.newPage();
    await register(page);
    await page.goto('/alerts');
    const push = page.locator('.alerts-push');
    await expect(push).toHaveAttribute('data-push-state', 'off');
    await push.getByRole('button', { name: 'Turn on' }).click();
    await expect(push).toHaveAttribute('data-push-state', 'denied');
    await expect(push).toContainText('Notifications are blocked for this site');
    expect(await page.evaluate(() => (window as unknown as { subscribeCalls?: number }).subscribeCalls ?? 0)).toBe(0);
  } finally {
    await context.close();
  }
});
