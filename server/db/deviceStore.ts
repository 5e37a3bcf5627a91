/**
 * The devices table (server/db/migrations.ts step 1; SPEC §3 "Device"): one row per user and device
 * id, its device object as JSON, whether it is deactivated, and the session that registered it (its
 * logout deactivates it). A user keeps at most DEVICES_PER_USER_MAX devices: registering one more
 * drops the least recently registered.
 */

import type { Principal } from '../auth/accounts.ts';
import { DEVICES_PER_USER_MAX } from '../auth/limits.ts';
import type { Database } from './database.ts';

/** SPEC §3 "Device" as the client sends it. */
export interface DeviceBody {
  platform?: string;
  target?: string;
  version?: string;
  cc?: string | null;
  subscription?: unknown;
  /** The browser's Web Push subscription (PushSubscription.toJSON()), for alert notifications (server/alerts/push.ts); null: none. */
  pushSubscription?: { endpoint: string; keys: { p256dh: string; auth: string } } | null;
  screen?: { width?: number; height?: number; devicePixelRatio?: number };
  deactivated?: boolean;
}

export interface DeviceAnswer extends DeviceBody {
  deviceID: string;
  deactivated: boolean;
  /** When it was last registered, ms since the epoch. */
  updated: number;
}

interface DeviceRow { device_id: string; value: string; deactivated: number | string; updated: number | string }
const toAnswer = (r: DeviceRow): DeviceAnswer => ({ ...JSON.parse(r.value) as DeviceBody, deviceID: r.device_id, deactivated: Number(r.deactivated) === 1, updated: Number(r.updated) });

export class DeviceStore {
  constructor(private readonly db: Database, private readonly now: () => number = Date.now) {}

  /** Creates or replaces the user's device; the least recently seen goes when the user has too many. */
  async upsert(p: Principal, deviceId: string, device: DeviceBody): Promise<DeviceAnswer> {
    const updated = this.now();
    const deactivated = device.deactivated === true;
    const value: DeviceBody = { ...device };
    delete value.deactivated;
    await this.db.transaction(async (tx) => {
      const exists = await tx.get('SELECT 1 AS one FROM devices WHERE user_id = ? AND device_id = ?', [p.user.id, deviceId]);
      if (!exists) {
        const count = await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM devices WHERE user_id = ?', [p.user.id]);
        if (Number(count?.n ?? 0) >= DEVICES_PER_USER_MAX) {
          await tx.run(
            'DELETE FROM devices WHERE user_id = ? AND device_id IN (SELECT device_id FROM devices WHERE user_id = ? ORDER BY updated, device_id LIMIT 1)',
            [p.user.id, p.user.id],
          );
        }
      }
      await tx.run(
        `INSERT INTO devices (user_id, device_id, value, deactivated, token_id, updated) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (user_id, device_id) DO UPDATE SET value = excluded.value, deactivated = excluded.deactivated,
           token_id = excluded.token_id, updated = excluded.updated`,
        [p.user.id, deviceId, JSON.stringify(value), deactivated ? 1 : 0, p.tokenId, updated],
      );
    });
    return { ...value, deviceID: deviceId, deactivated, updated };
  }

  /** The user's devices, by id (for tests and tools). */
  async list(userId: string): Promise<DeviceAnswer[]> {
    const rows = await this.db.all<DeviceRow>('SELECT device_id, value, deactivated, updated FROM devices WHERE user_id = ? ORDER BY device_id', [userId]);
    return rows.map(toAnswer);
  }

  /** The user's devices that are not deactivated, the most recently registered first (whom to notify). */
  async active(userId: string): Promise<DeviceAnswer[]> {
    const rows = await this.db.all<DeviceRow>(
      'SELECT device_id, value, deactivated, updated FROM devices WHERE user_id = ? AND deactivated = 0 ORDER BY updated DESC, device_id',
      [userId],
    );
    // A row whose JSON does not read is skipped, not fatal to the others' notifications.
    return rows.flatMap((r) => {
      try {
        return [toAnswer(r)];
      } catch {
        return [];
      }
    });
  }

  /**
   * The push service said this subscription is gone (404 or 410, RFC 8030 §7.3: the browser
   * unsubscribed or it expired): the device keeps its row but no longer has it, so nothing is sent
   * there again until the browser registers a new one. A device that changed its subscription
   * meanwhile keeps the new one. Answers whether a device had it.
   */
  async forgetPushSubscription(userId: string, deviceId: string, endpoint: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const row = await tx.get<{ value: string }>('SELECT value FROM devices WHERE user_id = ? AND device_id = ?', [userId, deviceId]);
      if (!row) return false;
      const value = JSON.parse(row.value) as DeviceBody;
      if (value.pushSubscription?.endpoint !== endpoint) return false;
      value.pushSubscription = null;
      await tx.run('UPDATE devices SET value = ?, updated = ? WHERE user_id = ? AND device_id = ?', [JSON.stringify(value), this.now(), userId, deviceId]);
      return true;
    });
  }

  /** Logout: the devices registered with this session stop receiving notifications. */
  async deactivateSession(p: Principal): Promise<void> {
    await this.db.run('UPDATE devices SET deactivated = 1, updated = ? WHERE user_id = ? AND token_id = ?', [this.now(), p.user.id, p.tokenId]);
  }
}
