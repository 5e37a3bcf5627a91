/**
 * A user's cloud data in the database (SPEC §3 "Stored collections", §4 "Stored data sync",
 * "Settings sync"): the synced settings, one row per key with its value and update time, and the
 * collections favs, alerts, notams and colors, one row per item.
 *
 * storeTs: each store (the settings, each collection) of each user has a stamp, ms since the epoch,
 * that moves forward at every change: max(now, previous + 1), so it is strictly increasing even when
 * two writes fall in one millisecond or the clock steps back. A client that sends the stamp it holds
 * learns "no change" without a body. The bump is one atomic upsert on the stamp row, which also
 * orders concurrent writers of one store (PostgreSQL row lock; SQLite takes one writer at a time).
 *
 * Reads take the stamp first and the rows after: a write landing in between shows in the rows with
 * the older stamp, so the client's next poll fetches again, never misses it.
 */

import { randomBytes } from 'node:crypto';
import type { SyncCollection } from '../../common/account.ts';
import type { Database, Queryable } from './database.ts';

export interface StoredSetting {
  /** Parsed JSON; null: removed (kept with its ts, so an older write cannot bring it back). */
  value: unknown;
  ts: number;
}

export interface SettingWrite {
  name: string;
  /** JSON text, or null to remove. */
  json: string | null;
  ts: number;
}

export interface StoredItem {
  id: string;
  value: unknown;
  updated: number;
}

export class TooManyItemsError extends Error {
  override name = 'TooManyItemsError';
}

const SETTINGS_STORE = 'settings';
const newItemId = () => randomBytes(12).toString('base64url');

async function bumpStamp(tx: Queryable, userId: string, store: string, now: number): Promise<number> {
  const row = await tx.get<{ ts: number }>(
    `INSERT INTO store_stamps (user_id, store, ts) VALUES (?, ?, ?)
     ON CONFLICT (user_id, store) DO UPDATE SET ts = CASE WHEN store_stamps.ts >= excluded.ts THEN store_stamps.ts + 1 ELSE excluded.ts END
     RETURNING ts`,
    [userId, store, now],
  );
  if (!row) throw new Error('The store stamp was not written');
  return Number(row.ts);
}

export class UserDataStore {
  constructor(private readonly db: Database, private readonly now: () => number = Date.now) {}

  /** The stamp of a store; 0 when it was never written. */
  async storeTs(userId: string, store: string): Promise<number> {
    const row = await this.db.get<{ ts: number }>('SELECT ts FROM store_stamps WHERE user_id = ? AND store = ?', [userId, store]);
    return row ? Number(row.ts) : 0;
  }

  // ---- settings ------------------------------------------------------------------------------

  async settingsStoreTs(userId: string): Promise<number> {
    return this.storeTs(userId, SETTINGS_STORE);
  }

  async settings(userId: string): Promise<{ storeTs: number; data: Record<string, StoredSetting> }> {
    const storeTs = await this.settingsStoreTs(userId);
    const rows = await this.db.all<{ name: string; value: string | null; ts: number }>(
      'SELECT name, value, ts FROM user_settings WHERE user_id = ? ORDER BY name',
      [userId],
    );
    const data: Record<string, StoredSetting> = Object.create(null);
    for (const row of rows) data[row.name] = { value: row.value === null ? null : JSON.parse(row.value), ts: Number(row.ts) };
    return { storeTs, data };
  }

  /**
   * Merges per key (SPEC §4 "Settings sync"): a write whose ts is newer than the stored one wins;
   * an older or equal one is ignored. Answers the new storeTs (unchanged when nothing won) and the
   * keys that were ignored.
   */
  async mergeSettings(userId: string, writes: readonly SettingWrite[]): Promise<{ storeTs: number; ignored: string[] }> {
    return this.db.transaction(async (tx) => {
      const ignored: string[] = [];
      for (const write of writes) {
        const { changes } = await tx.run(
          `INSERT INTO user_settings (user_id, name, value, ts) VALUES (?, ?, ?, ?)
           ON CONFLICT (user_id, name) DO UPDATE SET value = excluded.value, ts = excluded.ts WHERE user_settings.ts < excluded.ts`,
          [userId, write.name, write.json, write.ts],
        );
        if (changes === 0) ignored.push(write.name);
      }
      if (ignored.length === writes.length) {
        const row = await tx.get<{ ts: number }>('SELECT ts FROM store_stamps WHERE user_id = ? AND store = ?', [userId, SETTINGS_STORE]);
        return { storeTs: row ? Number(row.ts) : 0, ignored };
      }
      return { storeTs: await bumpStamp(tx, userId, SETTINGS_STORE, this.now()), ignored };
    });
  }

  // ---- collections ---------------------------------------------------------------------------

  async items(userId: string, collection: SyncCollection): Promise<{ storeTs: number; items: StoredItem[] }> {
    const storeTs = await this.storeTs(userId, collection);
    const rows = await this.db.all<{ id: string; value: string; updated: number }>(
      'SELECT id, value, updated FROM user_items WHERE user_id = ? AND collection = ? ORDER BY created, id',
      [userId, collection],
    );
    return { storeTs, items: rows.map((r) => ({ id: r.id, value: JSON.parse(r.value), updated: Number(r.updated) })) };
  }

  /** One item's stored JSON text, or null when the user has no such item. */
  async itemJson(userId: string, collection: SyncCollection, id: string): Promise<string | null> {
    const row = await this.db.get<{ value: string }>('SELECT value FROM user_items WHERE user_id = ? AND collection = ? AND id = ?', [userId, collection, id]);
    return row?.value ?? null;
  }

  /** A new item with a new id; its `updated` is the collection's new storeTs. */
  async createItem(userId: string, collection: SyncCollection, json: string, maxItems: number): Promise<{ id: string; updated: number }> {
    return this.db.transaction(async (tx) => {
      // The stamp first: its row lock makes the count below exact under concurrent creates.
      const updated = await bumpStamp(tx, userId, collection, this.now());
      const count = await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM user_items WHERE user_id = ? AND collection = ?', [userId, collection]);
      if (Number(count?.n ?? 0) >= maxItems) throw new TooManyItemsError(`At most ${maxItems} items in ${collection}`);
      const id = newItemId();
      await tx.run('INSERT INTO user_items (user_id, collection, id, value, created, updated) VALUES (?, ?, ?, ?, ?, ?)', [userId, collection, id, json, updated, updated]);
      return { id, updated };
    });
  }

  /** Replaces an item's value; null when the user has no such item. */
  async updateItem(userId: string, collection: SyncCollection, id: string, json: string): Promise<number | null> {
    return this.db.transaction(async (tx) => {
      if (!(await tx.get('SELECT 1 AS one FROM user_items WHERE user_id = ? AND collection = ? AND id = ?', [userId, collection, id]))) return null;
      const updated = await bumpStamp(tx, userId, collection, this.now());
      const { changes } = await tx.run('UPDATE user_items SET value = ?, updated = ? WHERE user_id = ? AND collection = ? AND id = ?', [json, updated, userId, collection, id]);
      // Deleted meanwhile (PostgreSQL, another request): roll the stamp back with the transaction.
      if (changes === 0) throw new ItemGone();
      return updated;
    }).catch((error: unknown) => {
      if (error instanceof ItemGone) return null;
      throw error;
    });
  }

  /** Removes an item; false when the user has no such item. */
  async deleteItem(userId: string, collection: SyncCollection, id: string): Promise<number | null> {
    return this.db.transaction(async (tx) => {
      const { changes } = await tx.run('DELETE FROM user_items WHERE user_id = ? AND collection = ? AND id = ?', [userId, collection, id]);
      if (changes === 0) return null;
      return bumpStamp(tx, userId, collection, this.now());
    });
  }
}

class ItemGone extends Error {}
