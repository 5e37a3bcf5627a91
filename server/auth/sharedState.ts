/**
 * Where the request limits keep their counts (issue 17 point 4: limits, login throttles and token
 * revocation hold across web processes). Two implementations of one interface:
 *
 *   memory     (SQLite, one process) Maps in this process, as the limiters always were
 *   database   (PostgreSQL, any number of processes) rows of `rate_windows` and `shared_marks`
 *              (server/db/migrations.ts step 3), changed by single atomic upserts, so two
 *              processes counting the same key at once both count
 *
 * Token revocation needs nothing here: every request reads its session row (auth/accounts.ts).
 * Each limiter and mark set has a name; its keys are stored as `name:key`.
 */

import type { Database } from '../db/database.ts';
import { createKeyedLimiter, type KeyedLimiter } from './keyedLimiter.ts';

/** Times per key (a known login address: when it last logged in), forgotten after their lifetime. */
export interface Marks {
  get(key: string): Promise<number | undefined>;
  set(key: string, at: number): Promise<void>;
}

export interface SharedState {
  /** A fixed-window counter per key (auth/keyedLimiter.ts): `limit` events per `windowMs`. */
  limiter(name: string, limit: number, windowMs: number): KeyedLimiter;
  /** Marks kept `lifetimeMs` after they are set. */
  marks(name: string, lifetimeMs: number): Marks;
}

/** Marks kept at most per set in memory; the oldest are forgotten first. */
const MEMORY_MARKS_MAX = 100_000;
/** Expired rows are deleted after this many writes by this process (a cheap, indexed DELETE). */
const SWEEP_EVERY_WRITES = 1000;

export function memorySharedState(now: () => number = Date.now): SharedState {
  return {
    limiter: (_name, limit, windowMs) => createKeyedLimiter(limit, windowMs, now),
    marks(_name, lifetimeMs) {
      /** Map order is the age order. */
      const marks = new Map<string, number>();
      return {
        async get(key) {
          const at = marks.get(key);
          return at !== undefined && now() - at < lifetimeMs ? at : undefined;
        },
        async set(key, at) {
          marks.delete(key);
          if (marks.size >= MEMORY_MARKS_MAX) marks.delete(marks.keys().next().value as string);
          marks.set(key, at);
        },
      };
    },
  };
}

export function databaseSharedState(db: Database, now: () => number = Date.now): SharedState {
  let writes = 0;
  const sweep = async () => {
    if (++writes % SWEEP_EVERY_WRITES !== 0) return;
    await db.run('DELETE FROM rate_windows WHERE expires <= ?', [now()]);
    await db.run('DELETE FROM shared_marks WHERE expires <= ?', [now()]);
  };
  return {
    limiter(name, limit, windowMs) {
      const id = (key: string) => `${name}:${key}`;
      return {
        async blockedFor(key) {
          const row = await db.get<{ expires: number; count: number }>('SELECT expires, count FROM rate_windows WHERE key = ?', [id(key)]);
          const t = now();
          return row && row.expires > t && row.count >= limit ? row.expires - t : 0;
        },
        async hit(key) {
          const t = now();
          // One statement: a window that ended starts again at 1, else the count goes up by one.
          await db.run(
            `INSERT INTO rate_windows (key, expires, count) VALUES (?, ?, 1)
             ON CONFLICT (key) DO UPDATE SET
               count = CASE WHEN rate_windows.expires <= ? THEN 1 ELSE rate_windows.count + 1 END,
               expires = CASE WHEN rate_windows.expires <= ? THEN excluded.expires ELSE rate_windows.expires END`,
            [id(key), t + windowMs, t, t],
          );
          await sweep();
        },
        async reset(key) {
          await db.run('DELETE FROM rate_windows WHERE key = ?', [id(key)]);
        },
      };
    },
    marks(name, lifetimeMs) {
      const id = (key: string) => `${name}:${key}`;
      return {
        async get(key) {
          const row = await db.get<{ at: number; expires: number }>('SELECT at, expires FROM shared_marks WHERE key = ?', [id(key)]);
          return row && row.expires > now() ? row.at : undefined;
        },
        async set(key, at) {
          await db.run(
            'INSERT INTO shared_marks (key, at, expires) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET at = excluded.at, expires = excluded.expires',
            [id(key), at, at + lifetimeMs],
          );
          await sweep();
        },
      };
    },
  };
}
