import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OFFLINE_REPROBE_MS, ONLINE_MESSAGE_DELAY_MS, ONLINE_MESSAGE_MS, TOP_MESSAGE_REPLACE_MS } from '../../common/limits.ts';
import { createConnectionModel, OFFLINE_MESSAGE_KEY, ONLINE_MESSAGE_KEY } from './connectionModel.ts';
import { createMessagesModel } from './messages.ts';

/** A site that answers with `status` (a number) or not at all (null). */
function fakeSite(initial: number | null) {
  const site = { status: initial, calls: [] as { url: string; init: RequestInit }[] };
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    site.calls.push({ url, init });
    if (site.status === null) throw new TypeError('Failed to fetch');
    return { status: site.status };
  });
  return { site, fetch };
}

function fakeTarget() {
  const listeners = new Map<string, () => void>();
  return {
    addEventListener: (type: string, fn: () => void) => listeners.set(type, fn),
    removeEventListener: (type: string) => listeners.delete(type),
    fire: (type: string) => listeners.get(type)?.(),
  };
}

function setup(status: number | null, mobile = false) {
  const { site, fetch } = fakeSite(status);
  const messages = createMessagesModel();
  const target = fakeTarget();
  const classes = new Set<string>();
  const root = { classList: { toggle: (name: string, on?: boolean) => (on ? classes.add(name) : classes.delete(name), !!on) } };
  const reload = vi.fn();
  const changes: boolean[] = [];
  const model = createConnectionModel({
    messages, fetch, target: target as never, root: root as never, reload, mobile: () => mobile, onChange: (online) => changes.push(online),
  });
  return { site, fetch, messages, target, classes, reload, model, changes };
}

/** Lets the probe's promise chain settle under fake timers. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('connection model (SPEC §4 Connection)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    [null, false],
    [0, false],
    [199, false],
    [200, true],
    [204, true],
    [304, true],
    [399, true],
    [400, false],
    [404, false],
    [500, false],
    [503, false],
  ])('a probe answered %s means online: %s (200 to 399 restores)', async (status, online) => {
    const t = setup(status);
    await expect(t.model.probe()).resolves.toBe(online);
    expect(t.model.online.value).toBe(online);
  });

  it('probes the site icon with HEAD, never from the HTTP cache', async () => {
    const t = setup(200);
    await t.model.probe();
    expect(t.site.calls[0].url).toMatch(/^\/favicon\.svg\?probe=\d+$/);
    expect(t.site.calls[0].init).toMatchObject({ method: 'HEAD', cache: 'no-store' });
  });

  it('an offline event probes; a failed probe marks offline with the class and the message', async () => {
    const t = setup(null);
    t.target.fire('offline');
    expect(t.model.state.value).toBe('checking');
    await settle();
    expect(t.model.state.value).toBe('offline');
    expect(t.classes.has('offline')).toBe(true);
    expect(t.messages.top.value).toMatchObject({ key: OFFLINE_MESSAGE_KEY, kind: 'error' });
    expect(t.changes).toEqual([false]);
  });

  it('offline, it re-probes every 2 s until the site answers', async () => {
    const t = setup(null);
    await t.model.probe();
    expect(t.fetch).toHaveBeenCalledTimes(1);
    for (let n = 2; n <= 5; n++) {
      await vi.advanceTimersByTimeAsync(OFFLINE_REPROBE_MS - 1);
      expect(t.fetch).toHaveBeenCalledTimes(n - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(t.fetch).toHaveBeenCalledTimes(n);
    }
    expect(t.model.state.value).toBe('offline');
    t.site.status = 200;
    await vi.advanceTimersByTimeAsync(OFFLINE_REPROBE_MS);
    expect(t.model.state.value).toBe('online');
    await vi.advanceTimersByTimeAsync(OFFLINE_REPROBE_MS * 3);
    expect(t.fetch).toHaveBeenCalledTimes(6);
  });

  it('back online: class and offline message go, the online message shows after 500 ms for 10 s, a click reloads', async () => {
    const t = setup(null);
    await t.model.probe();
    t.site.status = 200;
    await vi.advanceTimersByTimeAsync(OFFLINE_REPROBE_MS);
    expect(t.classes.has('offline')).toBe(false);
    expect(t.changes).toEqual([false, true]);
    // The offline message leaves (200 ms); the online one waits for its 500 ms.
    expect(t.messages.top.value?.phase).toBe('leaving');
    await vi.advanceTimersByTimeAsync(TOP_MESSAGE_REPLACE_MS);
    expect(t.messages.top.value).toBeNull();
    await vi.advanceTimersByTimeAsync(ONLINE_MESSAGE_DELAY_MS - TOP_MESSAGE_REPLACE_MS - 1);
    expect(t.messages.top.value).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    const online = t.messages.top.value!;
    expect(online).toMatchObject({ key: ONLINE_MESSAGE_KEY, kind: 'success', phase: 'shown' });
    online.onClick!();
    expect(t.reload).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(ONLINE_MESSAGE_MS - 1);
    expect(t.messages.top.value?.phase).toBe('shown');
    await vi.advanceTimersByTimeAsync(1);
    expect(t.messages.top.value?.phase).toBe('leaving');
    await vi.advanceTimersByTimeAsync(TOP_MESSAGE_REPLACE_MS);
    expect(t.messages.top.value).toBeNull();
  });

  it('a probe that succeeds without having gone offline shows nothing', async () => {
    const t = setup(200);
    t.model.reportRequestFailure(new TypeError('Failed to fetch'));
    await vi.advanceTimersByTimeAsync(ONLINE_MESSAGE_DELAY_MS + 10);
    expect(t.fetch).toHaveBeenCalledTimes(1);
    expect(t.messages.top.value).toBeNull();
    expect(t.changes).toEqual([]);
  });

  it.each([
    ['a network failure (TypeError)', new TypeError('Failed to fetch'), 1],
    ['a status 0 error', Object.assign(new Error('Request failed'), { status: 0 }), 1],
    ['an HTTP error answer', Object.assign(new Error('Request failed for URL /x'), { status: 500 }), 0],
    ['an aborted request', new DOMException('aborted', 'AbortError'), 0],
  ])('%s probes %i times', async (_name, error, probes) => {
    const t = setup(200);
    t.model.reportRequestFailure(error);
    await settle();
    expect(t.fetch).toHaveBeenCalledTimes(probes);
  });

  it('failures while a probe runs share it; offline ones wait for the 2 s re-probe', async () => {
    const t = setup(null);
    const first = t.model.probe();
    t.model.reportRequestFailure(new TypeError('x'));
    t.target.fire('offline');
    await first;
    expect(t.fetch).toHaveBeenCalledTimes(1);
    t.model.reportRequestFailure(new TypeError('x'));
    await settle();
    expect(t.fetch).toHaveBeenCalledTimes(1);
  });

  it('the online event probes at once while offline', async () => {
    const t = setup(null);
    await t.model.probe();
    t.site.status = 200;
    t.target.fire('online');
    await settle();
    expect(t.model.state.value).toBe('online');
  });

  it.each([
    [false, 6],
    [true, 3],
  ])('mobile %s: more than %i tile failures start a probe (SPEC §8)', async (mobile, limit) => {
    const t = setup(200, mobile);
    for (let i = 0; i < limit; i++) t.model.reportTileFailure();
    await settle();
    expect(t.fetch).not.toHaveBeenCalled();
    t.model.reportTileFailure();
    await settle();
    expect(t.fetch).toHaveBeenCalledTimes(1);
  });

  it('a probe without an answer fails after its time-out', async () => {
    const messages = createMessagesModel();
    const hanging = vi.fn((_url: string, init: RequestInit) => new Promise<{ status: number }>((_resolve, reject) => {
      init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    }));
    const model = createConnectionModel({ messages, fetch: hanging, target: fakeTarget() as never, root: null });
    const result = model.probe();
    await vi.advanceTimersByTimeAsync(5000);
    await expect(result).resolves.toBe(false);
    expect(model.state.value).toBe('offline');
    model.dispose();
  });

  it('dispose stops re-probing', async () => {
    const t = setup(null);
    await t.model.probe();
    t.model.dispose();
    await vi.advanceTimersByTimeAsync(OFFLINE_REPROBE_MS * 5);
    expect(t.fetch).toHaveBeenCalledTimes(1);
  });
});
