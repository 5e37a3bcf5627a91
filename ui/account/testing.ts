/**
 * A fake account server for the unit tests of ui/account: the HTTP API of SPEC §7 in memory, behind
 * a fetch function, with a request log, answering as server/routes/users.ts does: settings are
 * merged key by key (a newer stamp wins); the settings and each collection answer 304 while their
 * stamp is the storeTs asked with (a collection sends its stamp in x-store-ts).
 */

import type { CloudItem, CloudSettingEntry } from '../../common/account.ts';

export interface LoggedRequest {
  method: string;
  path: string;
  auth: string | null;
  body: unknown;
}

interface FakeUser {
  id: string;
  email: string;
  password: string;
  settings: { data: Record<string, CloudSettingEntry>; storeTs: number } | null;
  collections: Map<string, { items: CloudItem[]; changedAt: number }>;
  devices: Map<string, unknown>;
}

export interface FakeCloud {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  log: LoggedRequest[];
  users: Map<string, FakeUser>;
  tokens: Map<string, string>;
  /** Makes every request fail as a network failure while true. */
  offline: boolean;
  /** Adds a user and returns a valid token of theirs. */
  addUser(email: string, password: string): string;
  userOf(token: string): FakeUser;
  requests(method: string, prefix: string): LoggedRequest[];
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export function createFakeCloud(now: () => number): FakeCloud {
  const users = new Map<string, FakeUser>();
  const tokens = new Map<string, string>();
  const log: LoggedRequest[] = [];
  let nextId = 1;

  const newUser = (email: string, password: string): FakeUser => {
    const user: FakeUser = { id: `u${nextId++}`, email, password, settings: null, collections: new Map(), devices: new Map() };
    users.set(user.id, user);
    return user;
  };
  const issue = (user: FakeUser) => {
    const token = `t${nextId++}-${user.id}`;
    tokens.set(token, user.id);
    return token;
  };
  const userInfo = (user: FakeUser) => ({ id: user.id, email: user.email, username: user.email.split('@')[0], avatar: null });
  /** The contract's AuthAnswer (common/api/account.ts), as the real server answers it. */
  const authAnswer = (user: FakeUser, token: string) => ({
    auth: true, token, expiresAt: now() + 30 * 24 * 3600_000, userInfo: userInfo(user), subscriptionInfo: null, authHash: `h-${user.id}`,
  });

  const cloud: FakeCloud = {
    log,
    users,
    tokens,
    offline: false,
    addUser: (email, password) => issue(newUser(email, password)),
    userOf: (token) => users.get(tokens.get(token)!)!,
    requests: (method, prefix) => log.filter((r) => r.method === method && r.path.startsWith(prefix)),
    async fetch(url, init) {
      const method = init.method ?? 'GET';
      const headers = (init.headers ?? {}) as Record<string, string>;
      const auth = headers.Authorization ?? null;
      const body = typeof init.body === 'string' ? JSON.parse(init.body) as unknown : undefined;
      log.push({ method, path: url, auth, body });
      if (cloud.offline) throw new TypeError('Failed to fetch');
      const { pathname, searchParams } = new URL(url, 'http://isobar.test');
      const token = auth?.startsWith('Bearer ') ? auth.slice(7) : null;
      const user = token && tokens.has(token) ? users.get(tokens.get(token)!)! : null;

      if (method === 'POST' && pathname === '/users/v1/login') {
        const { email, password } = body as { email: string; password: string };
        const found = [...users.values()].find((u) => u.email === email && u.password === password);
        return found ? json(200, authAnswer(found, issue(found))) : json(401, { message: 'Wrong email or password' });
      }
      if (method === 'POST' && pathname === '/users/v1/register') {
        const { email, password } = body as { email: string; password: string };
        if ([...users.values()].some((u) => u.email === email)) return json(409, { message: 'Email already registered' });
        const created = newUser(email, password);
        return json(201, authAnswer(created, issue(created)));
      }
      if (method === 'GET' && pathname === '/api/info') {
        if (!user) return json(200, { auth: false });
        return json(200, authAnswer(user, token!));
      }
      if (!user) return json(401, { message: 'Unauthorized' });
      if (method === 'GET' && pathname === '/api/logout') {
        tokens.delete(token!);
        return new Response(null, { status: 204 });
      }
      if (pathname === '/users/settings') {
        if (method === 'GET') {
          const since = Number(searchParams.get('storeTs') ?? 0);
          const current = user.settings?.storeTs ?? 0;
          if (since === current) return new Response(null, { status: 304 });
          return json(200, { version: 4, data: user.settings?.data ?? {}, storeTs: current });
        }
        const blob = body as { version: number; data: Record<string, CloudSettingEntry> };
        if (blob.version !== 4) return json(400, { message: 'version 4 only' });
        if (Object.values(blob.data).every((entry, i) => entry.ts <= (user.settings?.data[Object.keys(blob.data)[i]]?.ts ?? -1))) {
          return json(200, { storeTs: user.settings?.storeTs ?? 0, ignored: Object.keys(blob.data) });
        }
        const data = { ...(user.settings?.data ?? {}) };
        for (const [key, entry] of Object.entries(blob.data)) if (!data[key] || entry.ts > data[key].ts) data[key] = entry;
        user.settings = { data, storeTs: now() };
        return json(200, { storeTs: user.settings.storeTs });
      }
      const collection = /^\/users\/v1\/data\/(favs|alerts|notams|colors)(?:\/([^/]+))?$/.exec(pathname);
      if (collection) {
        const [, name, id] = collection;
        const stored = user.collections.get(name) ?? { items: [], changedAt: 0 };
        user.collections.set(name, stored);
        if (method === 'GET' && !id) {
          const since = Number(searchParams.get('storeTs') ?? 0);
          if (since === stored.changedAt) return new Response(null, { status: 304 });
          return new Response(JSON.stringify(stored.items), { status: 200, headers: { 'x-store-ts': String(stored.changedAt) } });
        }
        if (method === 'POST' && !id) {
          const item = { id: `f${nextId++}`, value: body, updated: now() };
          stored.items.push(item);
          stored.changedAt = item.updated;
          return json(201, item);
        }
        const index = stored.items.findIndex((i) => i.id === id);
        if (index < 0) return json(404, { message: 'No such item' });
        if (method === 'PUT') {
          stored.items[index] = { id: id!, value: body, updated: now() };
          stored.changedAt = now();
          return json(200, { id, updated: stored.items[index].updated });
        }
        if (method === 'DELETE') {
          stored.items.splice(index, 1);
          stored.changedAt = now();
          return json(200, { id, storeTs: stored.changedAt });
        }
      }
      const device = /^\/users\/v3\/devices\/([^/]+)$/.exec(pathname);
      if (device && (method === 'PUT' || method === 'POST')) {
        user.devices.set(device[1], body);
        return json(200, { ok: true });
      }
      return json(404, { message: `No route ${method} ${pathname}` });
    },
  };
  return cloud;
}
