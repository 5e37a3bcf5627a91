import { signal } from '@preact/signals-core';
import { describe, expect, it, vi } from 'vitest';
import type { CloudItem } from '../../common/account.ts';
import { ALERTS_CACHE_MS, type Alert } from '../../common/alerts.ts';
import { createAlerts, NOTIFICATION_POLL_MS } from './alerts.ts';
import type { SyncedCollection } from './collection.ts';
import type { AccountRequest } from './request.ts';

const ALERT: Alert = { lat: 50, lon: 14, name: ' Prague ', product: 'demo', state: 'normal', conditions: [{ type: 'wind', min: 8, directions: ['W', 'NW'] }] };

function fakeCollection() {
  const items = signal<readonly CloudItem<Alert>[]>([]);
  let n = 0;
  const collection = {
    name: 'alerts', items, loaded: signal(true),
    load: vi.fn(async () => {}),
    sync: vi.fn(async (): Promise<'unchanged' | 'changed'> => 'unchanged'),
    add: vi.fn(async (value: Alert) => {
      const item = { id: `a${++n}`, value, updated: 1000 + n };
      items.value = [...items.value, item];
      return item;
    }),
    update: vi.fn(async (id: string, value: Alert) => {
      const item = { id, value, updated: 2000 };
      items.value = items.value.map((i) => (i.id === id ? item : i));
      return item;
    }),
    remove: vi.fn(async (id: string) => {
      items.value = items.value.filter((i) => i.id !== id);
    }),
    clear: vi.fn(async () => {}),
  } satisfies SyncedCollection<Alert>;
  return collection;
}

function setup({ loggedIn = signal(true), items = [] as CloudItem<Alert>[] } = {}) {
  let t = 1_000_000;
  const collection = fakeCollection();
  collection.items.value = items;
  const calls: Array<[string, string, unknown]> = [];
  let newCount = 3;
  const request = (async (method: string, path: string, body?: unknown) => {
    calls.push([method, path, body]);
    const data = path === '/notif/v1/notifications' ? (method === 'GET' ? { newCount, notifications: [] } : { removed: 3, newCount: 0 })
      : path.endsWith('/timestamps') ? { id: 'a1', product: 'demo', refTime: 0, timestamps: [1, 2] } : { updated: 1, newCount: --newCount };
    return { status: 200, data, header: () => null };
  }) as AccountRequest;
  const intervals: Array<{ run: () => void; ms: number }> = [];
  const errors: unknown[] = [];
  const alerts = createAlerts({
    collection, request, now: () => t, onError: (e) => errors.push(e), logError: () => {}, loggedIn,
    setInterval: (run, ms) => intervals.push({ run, ms }), clearInterval: () => intervals.splice(0),
  });
  return { alerts, collection, calls, intervals, errors, advance: (ms: number) => void (t += ms) };
}

describe('alerts in the browser', () => {
  it('adds a checked alert (name trimmed) and refuses an invalid one', async () => {
    const { alerts, collection } = setup();
    const added = await alerts.add(ALERT);
    expect(added).toMatchObject({ id: 'a1', name: 'Prague', state: 'normal' });
    expect(alerts.list.value).toHaveLength(1);
    expect(await alerts.add({ ...ALERT, conditions: [] })).toBeNull();
    expect(collection.add).toHaveBeenCalledTimes(1);
  });

  it('reloads from the cloud only when the copy is older than 30 min', async () => {
    const { alerts, collection, advance } = setup();
    await alerts.refresh();
    await alerts.refresh();
    expect(collection.sync).toHaveBeenCalledTimes(1);
    advance(ALERTS_CACHE_MS - 1);
    await alerts.refresh();
    expect(collection.sync).toHaveBeenCalledTimes(1);
    advance(1);
    await alerts.refresh();
    expect(collection.sync).toHaveBeenCalledTimes(2);
    await alerts.refresh(true);
    expect(collection.sync).toHaveBeenCalledTimes(3);
  });

  it('starts polling the badge after the first alert change, once', async () => {
    const { alerts, calls, intervals } = setup();
    await alerts.refresh();
    expect(alerts.polling.value).toBe(false);
    const added = await alerts.add(ALERT);
    await Promise.resolve();
    expect(alerts.polling.value).toBe(true);
    expect(intervals).toEqual([{ run: expect.any(Function), ms: NOTIFICATION_POLL_MS }]);
    await vi.waitFor(() => expect(alerts.newCount.value).toBe(3));
    await alerts.setState(added!.id, 'suspended');
    expect(alerts.list.value[0].state).toBe('suspended');
    expect(intervals).toHaveLength(1);
    expect(calls.filter(([m, p]) => m === 'GET' && p === '/notif/v1/notifications')).toHaveLength(1);
    await alerts.markOpened(['x']);
    expect(alerts.newCount.value).toBe(2);
    await alerts.clearNotifications();
    expect(alerts.newCount.value).toBe(0);
    expect(await alerts.timestamps(added!.id)).toEqual([1, 2]);
    expect(calls.at(-1)).toEqual(['GET', '/users/v4/alerts/a1/timestamps', undefined]);
    alerts.stop();
    expect(alerts.polling.value).toBe(false);
  });

  it('does not poll when a change leaves no alerts', async () => {
    const { alerts, collection, intervals } = setup({ items: [{ id: 'z', value: ALERT, updated: 1 }] });
    await alerts.remove('z');
    expect(collection.remove).toHaveBeenCalledWith('z');
    expect(intervals).toEqual([]);
    expect(alerts.polling.value).toBe(false);
  });

  it('the list it starts with is no change; the first list read from the store or the cloud is', async () => {
    const { alerts, collection, calls, intervals } = setup({ items: [{ id: 'a', value: ALERT, updated: 1 }] });
    expect(alerts.polling.value).toBe(false);
    // The cloud answers the user's alerts (as after a login or a reload).
    collection.sync.mockImplementationOnce(async () => {
      collection.items.value = [{ id: 'a', value: ALERT, updated: 1 }, { id: 'b', value: { ...ALERT, name: 'Brno' }, updated: 2 }];
      return 'changed';
    });
    await alerts.refresh();
    expect(alerts.polling.value).toBe(true);
    expect(intervals).toHaveLength(1);
    await vi.waitFor(() => expect(alerts.newCount.value).toBe(3));
    expect(calls.filter(([m, p]) => m === 'GET' && p === '/notif/v1/notifications')).toHaveLength(1);
    // Each poll reads the badge again.
    intervals[0].run();
    await vi.waitFor(() => expect(calls.filter(([m, p]) => m === 'GET' && p === '/notif/v1/notifications')).toHaveLength(2));
  });

  it('stops when the last alert goes and starts again with a new one', async () => {
    const { alerts, intervals } = setup();
    const added = await alerts.add(ALERT);
    expect(alerts.polling.value).toBe(true);
    await alerts.remove(added!.id);
    expect(alerts.polling.value).toBe(false);
    expect(intervals).toEqual([]);
    await alerts.add(ALERT);
    expect(alerts.polling.value).toBe(true);
    expect(intervals).toHaveLength(1);
  });

  it('never polls while nobody is logged in, and the badge is 0 then', async () => {
    const loggedIn = signal(false);
    const { alerts, collection, calls, intervals } = setup({ loggedIn });
    collection.items.value = [{ id: 'a', value: ALERT, updated: 1 }];
    expect(alerts.polling.value).toBe(false);
    expect(intervals).toEqual([]);
    loggedIn.value = true;
    expect(alerts.polling.value).toBe(true);
    await vi.waitFor(() => expect(alerts.newCount.value).toBe(3));
    loggedIn.value = false;
    expect(alerts.polling.value).toBe(false);
    expect(alerts.newCount.value).toBe(0);
    expect(calls.filter(([m]) => m === 'GET')).toHaveLength(1);
  });

  it('stop() ends polling for good', async () => {
    const { alerts, collection } = setup();
    await alerts.add(ALERT);
    alerts.stop();
    collection.items.value = [...collection.items.value];
    expect(alerts.polling.value).toBe(false);
  });
});
