/**
 * Durability (issue 5 item 7): a write the server acknowledged survives the server being killed.
 * A real server process (usersCrashServer.ts) takes a stream of concurrent favourite creates,
 * updates, deletes and settings uploads; it is killed with SIGKILL (no shutdown code runs) while
 * requests are in flight. Then the database is opened again: every acknowledged write is there,
 * and the database is consistent. Writes that got no answer may or may not be there: the client
 * retries those.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.ts';
import { testDatabases, type TestDatabase } from '../db/testing.ts';
import { TEST_KDF } from './testing.ts';

const SERVER = fileURLToPath(new URL('./usersCrashServer.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function startServer(made: TestDatabase): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    cwd: ROOT,
    env: { ...process.env, ISOBAR_TEST_DB_CONFIG: JSON.stringify(made.config), ISOBAR_TEST_KDF: JSON.stringify(TEST_KDF), ISOBAR_TEST_NO_LIMITS: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start in 60 s')), 60_000);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
    lines.on('line', (line) => {
      const m = /^listening (\d+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

describe.each(testDatabases())('durability on $name', (backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('keeps every acknowledged write when the server is killed mid-sync', async () => {
    const made = await backend.make();
    cleanups.push(() => made.cleanup());
    const { child, url } = await startServer(made);
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
    });
    const request = async (method: string, path: string, token: string | null, body?: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: response.status === 304 ? null : await response.json() };
    };
    const registered = await request('POST', '/users/v1/register', null, { email: 'crash@example.test', password: 'Crash1Password' });
    expect(registered.status).toBe(201);
    const token = registered.body.token as string;
    const userId = registered.body.userInfo.id as string;

    // Acknowledged writes, as the client saw them.
    const created = new Map<string, string>();
    const updatedTitles = new Map<string, string>();
    const deleted = new Set<string>();
    // Sent but maybe unanswered: their outcome is open.
    const triedUpdate = new Set<string>();
    const triedDelete = new Set<string>();
    let settingTs = 0;
    let acknowledged = 0;
    let killed = false;
    const killAfter = 150;

    const writer = async (w: number) => {
      for (let i = 0; !killed; i++) {
        try {
          const title = `w${w}-${i}`;
          const c = await request('POST', '/users/v1/data/favs', token, { type: 'fav', title, lat: w, lon: i % 180 });
          if (c.status !== 201) throw new Error(`create: ${c.status}`);
          created.set(c.body.id, title);
          acknowledged += 1;
          if (i % 3 === 1) {
            triedUpdate.add(c.body.id);
            const u = await request('PUT', `/users/v1/data/favs/${c.body.id}`, token, { type: 'fav', title: `${title}-edited`, lat: w, lon: 0 });
            if (u.status === 200) updatedTitles.set(c.body.id, `${title}-edited`);
            acknowledged += 1;
          }
          if (i % 5 === 2) {
            triedDelete.add(c.body.id);
            const d = await request('DELETE', `/users/v1/data/favs/${c.body.id}`, token);
            if (d.status === 200) deleted.add(c.body.id);
            acknowledged += 1;
          }
          const ts = Date.now() * 1000 + w * 100 + (i % 100);
          const s = await request('POST', '/users/settings', token, { version: 4, data: { userInterests: { value: [title], ts: Math.floor(ts / 1000) } } });
          if (s.status === 200) settingTs = Math.max(settingTs, Math.floor(ts / 1000));
          acknowledged += 1;
          if (acknowledged >= killAfter && !killed) {
            killed = true;
            child.kill('SIGKILL');
          }
        } catch {
          return; // the connection died with the server: this write was not acknowledged
        }
      }
    };
    await Promise.all([0, 1, 2, 3, 4, 5].map(writer));
    if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    expect(child.signalCode).toBe('SIGKILL');
    expect(created.size).toBeGreaterThan(20);

    const db = await openDatabase(made.config);
    cleanups.push(() => db.close());
    const rows = await db.all<{ id: string; value: string }>('SELECT id, value FROM user_items WHERE user_id = ? AND collection = ?', [userId, 'favs']);
    const stored = new Map(rows.map((r) => [r.id, (JSON.parse(r.value) as { title: string }).title]));
    let unanswered = 0;
    for (const [id, title] of created) {
      if (deleted.has(id)) {
        expect(stored.has(id), `deleted ${id} is gone`).toBe(false);
        continue;
      }
      if (triedDelete.has(id) && !stored.has(id)) {
        unanswered += 1; // a delete in flight at the kill that was committed
        continue;
      }
      expect(stored.has(id), `created ${id} is there`).toBe(true);
      if (updatedTitles.has(id)) {
        expect(stored.get(id)).toBe(updatedTitles.get(id));
      } else if (triedUpdate.has(id) && stored.get(id) !== title) {
        expect(stored.get(id)).toBe(`${title}-edited`); // an update in flight at the kill that was committed
        unanswered += 1;
      } else {
        expect(stored.get(id)).toBe(title);
      }
    }
    // At most one write per writer was in flight when the server died.
    expect(unanswered).toBeLessThanOrEqual(6);
    const setting = await db.get<{ ts: number }>('SELECT ts FROM user_settings WHERE user_id = ? AND name = ?', [userId, 'userInterests']);
    expect(setting?.ts).toBeGreaterThanOrEqual(settingTs);
    // The collection's storeTs covers every row.
    const stamp = await db.get<{ ts: number }>('SELECT ts FROM store_stamps WHERE user_id = ? AND store = ?', [userId, 'favs']);
    const newest = await db.get<{ m: number }>('SELECT MAX(updated) AS m FROM user_items WHERE user_id = ?', [userId]);
    expect(stamp!.ts).toBeGreaterThanOrEqual(newest!.m);
    if (db.dialect === 'sqlite') expect(await db.get('PRAGMA integrity_check')).toEqual({ integrity_check: 'ok' });

    // And the server starts again on it and serves what was kept.
    const again = await startServer(made);
    cleanups.push(async () => {
      again.child.kill('SIGTERM');
      await once(again.child, 'exit');
    });
    const list = await fetch(`${again.url}/users/v1/data/favs`, { headers: { authorization: `Bearer ${token}` } });
    expect(list.status).toBe(200);
    expect((await list.json() as unknown[]).length).toBe(rows.length);
  }, 120_000);
});
