/**
 * The notifications table (server/db/migrations.ts step 2): what a user was told (an alert's times,
 * a test), newest first, with when a device said it arrived (received) and when it was opened
 * (null: new, counted in the badge).
 */

import type { Database } from './database.ts';

export interface NotificationPayload {
  title: string;
  body: string;
  alertId?: string;
  product?: string;
  refTime?: number;
  timestamps?: number[];
  lat?: number;
  lon?: number;
  deviceID?: string;
  notificationType?: string;
  registrationHash?: string;
}

export interface StoredNotification {
  id: string;
  type: 'alert' | 'test';
  created: number;
  received: number | null;
  opened: number | null;
  payload: NotificationPayload;
}

interface Row { id: string; type: string; payload: string; created: number | string; received: number | string | null; opened: number | string | null }
const toNotification = (r: Row): StoredNotification => ({
  id: r.id, type: r.type as StoredNotification['type'], created: Number(r.created),
  received: r.received === null ? null : Number(r.received), opened: r.opened === null ? null : Number(r.opened),
  payload: JSON.parse(r.payload) as NotificationPayload,
});

export class NotificationStore {
  constructor(private readonly db: Database) {}

  /** The user's newest `limit` notifications, newest first. */
  async newest(userId: string, limit: number): Promise<StoredNotification[]> {
    const rows = await this.db.all<Row>('SELECT id, type, payload, created, received, opened FROM notifications WHERE user_id = ? ORDER BY created DESC, id LIMIT ?', [userId, limit]);
    return rows.map(toNotification);
  }

  /** How many of the user's notifications were not opened. */
  async unopenedCount(userId: string): Promise<number> {
    const row = await this.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM notifications WHERE user_id = ? AND opened IS NULL', [userId]);
    return Number(row?.n ?? 0);
  }

  /** Stores a notification; the user's others beyond the newest `keep` (in newest()'s order) go in the same transaction. */
  async add(userId: string, notification: StoredNotification, keep: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(
        'INSERT INTO notifications (id, user_id, type, payload, created, received, opened) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [notification.id, userId, notification.type, JSON.stringify(notification.payload), notification.created, notification.received, notification.opened],
      );
      await tx.run(
        'DELETE FROM notifications WHERE user_id = ? AND id NOT IN (SELECT id FROM notifications WHERE user_id = ? ORDER BY created DESC, id LIMIT ?)',
        [userId, userId, keep],
      );
    });
  }

  /** Removes all the user's notifications; answers how many. */
  async removeAll(userId: string): Promise<number> {
    return (await this.db.run('DELETE FROM notifications WHERE user_id = ?', [userId])).changes;
  }

  /**
   * Marks the listed notifications (all the user's when `ids` is absent) received or opened at `at`;
   * an opened one is received too. A time already set stays. Answers how many rows matched.
   */
  async mark(userId: string, kind: 'received' | 'opened', ids: readonly string[] | undefined, at: number): Promise<number> {
    const set = kind === 'opened' ? 'opened = COALESCE(opened, ?), received = COALESCE(received, ?)' : 'received = COALESCE(received, ?)';
    const times = kind === 'opened' ? [at, at] : [at];
    if (!ids) return (await this.db.run(`UPDATE notifications SET ${set} WHERE user_id = ?`, [...times, userId])).changes;
    let changes = 0;
    for (const id of ids) changes += (await this.db.run(`UPDATE notifications SET ${set} WHERE user_id = ? AND id = ?`, [...times, userId, id])).changes;
    return changes;
  }
}
