/**
 * NUL characters at the edge (issue 12: a NUL byte in an email gave a 500 on PostgreSQL and a 401 on
 * SQLite): on both databases, through the whole app, every text field with one is a 400 and nothing
 * is stored.
 */

import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { testDatabases, type TestDatabase } from '../db/testing.ts';
import { bearer, PASSWORD, registerUser, TEST_KDF } from '../routes/testing.ts';
import { findNul } from './textInput.ts';

describe('findNul', () => {
  it.each([
    ['plain', null], ['a\u0000b', ''], [{ a: ['x', { b: 'y\u0000' }] }, '/a/1/b'], [{ 'k\u0000': 1 }, '/k\\u0000'], [[1, null, true], null],
  ] as const)('%j -> %j', (value, where) => {
    expect(findNul(value)).toBe(where);
  });
});

describe.each(testDatabases())('NUL characters in requests on $name', ({ make }) => {
  let made: TestDatabase;
  let db: Database;
  let app: FastifyInstance;
  afterEach(async () => {
    await app?.close();
    await db?.close();
    await made?.cleanup();
  });

  const start = async () => {
    made = await make();
    db = await openDatabase(made.config);
    app = await buildApp({ distDir: null, dataDir: null, prewarm: false, liveSources: null, accounts: { database: db, kdf: TEST_KDF } });
  };

  const expect400 = (response: { statusCode: number; json(): { message: string } }, where: RegExp) => {
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(where);
    expect(response.json().message).toMatch(/NUL character/);
  };

  it('refuses a NUL in the email or password of register and login, and stores no user', async () => {
    await start();
    expect400(await app.inject({ method: 'POST', url: '/users/v1/register', payload: { email: 'a\u0000b@example.test', password: PASSWORD, passwordConfirm: PASSWORD } }), /body\/email/);
    expect400(await app.inject({ method: 'POST', url: '/users/v1/login', payload: { email: 'a\u0000b@example.test', password: PASSWORD } }), /body\/email/);
    expect400(await app.inject({ method: 'POST', url: '/users/v1/login', payload: { email: 'ab@example.test', password: `${PASSWORD}\u0000` } }), /body\/password/);
    expect(Number((await db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM users'))?.n)).toBe(0);
  });

  it('refuses a NUL anywhere in a collection item, a setting, a path or a query, and stores nothing', async () => {
    await start();
    const user = await registerUser(app);
    const auth = bearer(user.token);
    expect400(await app.inject({ method: 'POST', url: '/users/v1/data/favs', headers: auth, payload: { type: 'fav', title: 'Home\u0000', lat: 1, lon: 2 } }), /body\/title/);
    expect400(await app.inject({
      method: 'POST', url: '/users/settings', headers: auth, payload: { version: 4, data: { 'overlay\u0000': { value: 'wind', ts: Date.now() } } },
    }), /body\/data\/overlay/);
    expect400(await app.inject({ method: 'PUT', url: '/users/v3/devices/dev%00ice', headers: auth, payload: { platform: 'desktop' } }), /params\/deviceID/);
    expect400(await app.inject({ url: '/search/v1/paris?lang=fr%00' }), /querystring\/lang/);
    expect(Number((await db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM user_items'))?.n)).toBe(0);
    const settings = await app.inject({ url: '/users/settings', headers: auth });
    expect(JSON.stringify(settings.json())).not.toContain('overlay\\u0000');
  });
});
