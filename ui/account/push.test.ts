import { describe, expect, it, vi } from 'vitest';
import { applicationServerKey, createPush, type PushBrowser, type PushSubscriptionJson } from './push.ts';

// A real P-256 public key (uncompressed point), base64url as web-push makes it.
const KEY = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';

function fakeBrowser(options: { permission?: NotificationPermission; answer?: NotificationPermission; subscribeFails?: boolean; existing?: boolean } = {}) {
  let permission = options.permission ?? 'default';
  const json: PushSubscriptionJson = { endpoint: 'https://push.example/abc', expirationTime: null, keys: { p256dh: 'p', auth: 'a' } };
  let current: { toJSON(): unknown; unsubscribe(): Promise<boolean> } | null = null;
  const made = () => ({ toJSON: () => json, unsubscribe: vi.fn(async () => { current = null; return true; }) });
  if (options.existing) current = made();
  const listeners = new Map<string, (e: Event) => void>();
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async (opts: PushSubscriptionOptionsInit) => {
      if (options.subscribeFails) throw new DOMException('Registration failed - push service error', 'AbortError');
      expect(opts.userVisibleOnly).toBe(true);
      current = made();
      return current;
    }),
  };
  const register = vi.fn(async () => ({ pushManager }));
  const browser: PushBrowser = {
    supported: true,
    serviceWorker: {
      register: register as never,
      addEventListener: ((type: string, fn: (e: Event) => void) => listeners.set(type, fn)) as never,
      removeEventListener: ((type: string) => listeners.delete(type)) as never,
    },
    permission: () => permission,
    requestPermission: vi.fn(async () => {
      permission = options.answer ?? 'granted';
      return permission;
    }),
  };
  return { browser, register, pushManager, listeners, json };
}

describe('applicationServerKey', () => {
  it('decodes a base64url P-256 key into its 65 bytes', () => {
    const bytes = applicationServerKey(KEY);
    expect(bytes.length).toBe(65);
    expect(bytes[0]).toBe(4);
  });
  it('refuses what is not such a key', () => {
    expect(() => applicationServerKey('not a key!')).toThrow(/base64url/);
    expect(() => applicationServerKey('AAAA')).toThrow(/P-256/);
  });
});

describe('createPush', () => {
  it('start never asks: it registers the worker and reads an earlier subscription', async () => {
    const f = fakeBrowser({ permission: 'granted', existing: true });
    const push = createPush({ browser: f.browser, publicKey: async () => KEY, saveDevice: vi.fn(), onMessage: vi.fn() });
    await push.start();
    expect(f.register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
    expect(f.browser.requestPermission).not.toHaveBeenCalled();
    expect(push.state.value).toBe('on');
    expect(push.subscription.value).toEqual(f.json);
  });

  it('enable asks, subscribes with the server key and registers the device with the subscription', async () => {
    const f = fakeBrowser();
    const saveDevice = vi.fn(async () => {});
    const push = createPush({ browser: f.browser, publicKey: async () => KEY, saveDevice, onMessage: vi.fn() });
    await push.start();
    expect(push.state.value).toBe('off');
    expect(await push.enable()).toBe(true);
    expect(f.browser.requestPermission).toHaveBeenCalledOnce();
    expect(f.pushManager.subscribe.mock.calls[0][0].applicationServerKey).toEqual(applicationServerKey(KEY));
    expect(saveDevice).toHaveBeenCalledWith(f.json);
    expect(push.state.value).toBe('on');

    await push.disable();
    expect(saveDevice).toHaveBeenLastCalledWith(null);
    expect(push.subscription.value).toBeNull();
    expect(push.state.value).toBe('off');
  });

  it('a refusal leaves it denied and subscribes nothing', async () => {
    const f = fakeBrowser({ answer: 'denied' });
    const saveDevice = vi.fn();
    const push = createPush({ browser: f.browser, publicKey: async () => KEY, saveDevice, onMessage: vi.fn() });
    expect(await push.enable()).toBe(false);
    expect(push.state.value).toBe('denied');
    expect(f.pushManager.subscribe).not.toHaveBeenCalled();
    expect(saveDevice).not.toHaveBeenCalled();
  });

  it('a push service error is failed with its reason and can be tried again', async () => {
    const f = fakeBrowser({ permission: 'granted', subscribeFails: true });
    const logError = vi.fn();
    const push = createPush({ browser: f.browser, publicKey: async () => KEY, saveDevice: vi.fn(), onMessage: vi.fn(), logError });
    expect(await push.enable()).toBe(false);
    expect(push.state.value).toBe('failed');
    expect(push.error.value).toMatch(/push service error/);
    expect(logError).toHaveBeenCalled();
  });

  it('a server without push keys fails cleanly', async () => {
    const f = fakeBrowser({ permission: 'granted' });
    const push = createPush({ browser: f.browser, publicKey: () => Promise.reject(new Error('Web Push is not configured on this server')), saveDevice: vi.fn(), onMessage: vi.fn(), logError: () => {} });
    expect(await push.enable()).toBe(false);
    expect(push.error.value).toMatch(/not configured/);
  });

  it('an unsupported browser says so and touches nothing', async () => {
    const push = createPush({ browser: { supported: false, permission: () => 'default', requestPermission: vi.fn() }, publicKey: vi.fn(), saveDevice: vi.fn(), onMessage: vi.fn() });
    await push.start();
    expect(push.state.value).toBe('unsupported');
    expect(await push.enable()).toBe(false);
  });

  it('passes the worker\'s messages on, and only those', async () => {
    const f = fakeBrowser({ permission: 'granted' });
    const onMessage = vi.fn();
    const push = createPush({ browser: f.browser, publicKey: async () => KEY, saveDevice: vi.fn(), onMessage });
    await push.start();
    const deliver = f.listeners.get('message')!;
    deliver({ data: { kind: 'isobar-push', id: 'n1', newCount: 4 } } as unknown as Event);
    deliver({ data: { kind: 'something-else' } } as unknown as Event);
    expect(onMessage).toHaveBeenCalledOnce();
    expect(onMessage).toHaveBeenCalledWith({ kind: 'isobar-push', id: 'n1', newCount: 4 });
    push.stop();
    expect(f.listeners.has('message')).toBe(false);
  });
});
