import { afterEach, describe, expect, it } from 'vitest';
import { DEVICES_PER_USER_MAX } from '../auth/limits.ts';
import { testDatabases } from '../db/testing.ts';
import { DeviceStore } from '../db/deviceStore.ts';
import { accountsTestApp, bearer, PASSWORD, registerUser, T0, type AccountsTestApp } from './testing.ts';

const DEVICE = { platform: 'desktop', target: 'index', version: '0.1.0', cc: 'cz', subscription: null, screen: { width: 1920, height: 1080, devicePixelRatio: 2 } };

describe.each(testDatabases())('devices on $name (SPEC §3 Device, §7 /users/v3/devices/{deviceID})', (backend) => {
  const apps: AccountsTestApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });
  const start = async () => {
    const t = await accountsTestApp(backend);
    apps.push(t);
    return t;
  };
  const store = (t: AccountsTestApp) => new DeviceStore(t.db, t.clock.now);

  it.each(['PUT', 'POST'] as const)('%s creates or replaces the device of the user', async (method) => {
    const t = await start();
    const user = await registerUser(t.app);
    const first = await t.app.inject({ method, url: '/users/v3/devices/dev-1.a:b_c', headers: bearer(user.token), payload: DEVICE });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ...DEVICE, deviceID: 'dev-1.a:b_c', deactivated: false, updated: T0 });
    t.clock.advance(5);
    const second = await t.app.inject({ method, url: '/users/v3/devices/dev-1.a:b_c', headers: bearer(user.token), payload: { ...DEVICE, version: '0.2.0', unknown: 'dropped' } });
    expect(second.json()).toEqual({ ...DEVICE, version: '0.2.0', deviceID: 'dev-1.a:b_c', deactivated: false, updated: T0 + 5 });
    expect(await store(t).list(user.id)).toEqual([{ ...DEVICE, version: '0.2.0', deviceID: 'dev-1.a:b_c', deactivated: false, updated: T0 + 5 }]);
  });

  it('a device can deactivate itself, and logout deactivates the devices of that session only', async () => {
    const t = await start();
    const user = await registerUser(t.app, 'dev@example.test');
    const other = (await t.app.inject({ method: 'POST', url: '/users/v1/login', payload: { email: 'dev@example.test', password: PASSWORD } })).json().token as string;
    await t.app.inject({ method: 'PUT', url: '/users/v3/devices/laptop', headers: bearer(user.token), payload: DEVICE });
    await t.app.inject({ method: 'PUT', url: '/users/v3/devices/phone', headers: bearer(other), payload: { ...DEVICE, platform: 'mobile' } });
    expect((await t.app.inject({ method: 'PUT', url: '/users/v3/devices/old', headers: bearer(other), payload: { deactivated: true } })).json().deactivated).toBe(true);
    await t.app.inject({ url: '/api/logout', headers: bearer(user.token) });
    const devices = await store(t).list(user.id);
    expect(devices.map((d) => [d.deviceID, d.deactivated])).toEqual([['laptop', true], ['old', true], ['phone', false]]);
  });

  it.each([
    ['an id with a slash', '/users/v3/devices/a%2Fb', DEVICE],
    ['an id with spaces', '/users/v3/devices/a%20b', DEVICE],
    ['a text screen width', '/users/v3/devices/ok', { ...DEVICE, screen: { width: 'wide', height: 1, devicePixelRatio: 1 } }],
    ['a platform with control characters', '/users/v3/devices/ok', { ...DEVICE, platform: 'a\u0000b' }],
    ['a platform too long', '/users/v3/devices/ok', { ...DEVICE, platform: 'p'.repeat(33) }],
  ])('400 for %s', async (_name, url, payload) => {
    const t = await start();
    const user = await registerUser(t.app);
    const response = await t.app.inject({ method: 'PUT', url, headers: bearer(user.token), payload });
    expect(response.statusCode).toBe(400);
    expect(await store(t).list(user.id)).toEqual([]);
  });

  it('414 for an id too long for a path parameter', async () => {
    const t = await start();
    const user = await registerUser(t.app);
    const response = await t.app.inject({ method: 'PUT', url: `/users/v3/devices/${'x'.repeat(129)}`, headers: bearer(user.token), payload: DEVICE });
    expect(response.statusCode).toBe(414);
    expect(await store(t).list(user.id)).toEqual([]);
  });

  it('413 for a device body over 4 KB', async () => {
    const t = await start();
    const user = await registerUser(t.app);
    const response = await t.app.inject({ method: 'PUT', url: '/users/v3/devices/ok', headers: bearer(user.token), payload: { ...DEVICE, subscription: 'x'.repeat(5000) } });
    expect(response.statusCode).toBe(413);
  });

  it(`keeps at most ${DEVICES_PER_USER_MAX} devices per user, dropping the least recently seen`, async () => {
    const t = await start();
    const user = await registerUser(t.app);
    for (let i = 0; i < DEVICES_PER_USER_MAX; i++) {
      t.clock.advance(1);
      await t.db.run('INSERT INTO devices (user_id, device_id, value, deactivated, token_id, updated) VALUES (?, ?, ?, 0, NULL, ?)', [user.id, `d${i}`, '{}', t.clock.now()]);
    }
    await t.app.inject({ method: 'PUT', url: '/users/v3/devices/newest', headers: bearer(user.token), payload: DEVICE });
    const ids = (await store(t).list(user.id)).map((d) => d.deviceID);
    expect(ids).toHaveLength(DEVICES_PER_USER_MAX);
    expect(ids).toContain('newest');
    expect(ids).not.toContain('d0');
  });
});
