/**
 * Device registration (SPEC §3 "Device", §4 "Login": device registered after login, deactivated
 * at logout; §7 PUT or POST /users/v3/devices/{deviceID}). One row per user and device id: a PUT or
 * POST creates or replaces it. Logging out deactivates the devices registered with that session.
 */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';
import type { AccountStore, Principal } from '../auth/accounts.ts';
import { principal, requireUser } from '../auth/bearer.ts';
import { DEVICE_BODY_MAX_BYTES, DEVICES_PER_USER_MAX } from '../auth/limits.ts';
import { PushEndpointError } from '../alerts/pushEndpoint.ts';
import { badRequest } from '../http/httpError.ts';

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

export const DEVICE_ID_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';

const short = (maxLength: number) => ({ type: 'string', maxLength, pattern: '^[^\\u0000-\\u001f]*$' }) as const;
const DEVICE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    platform: short(32),
    target: short(32),
    version: short(64),
    cc: { anyOf: [short(8), { type: 'null' }] },
    subscription: {},
    pushSubscription: {
      anyOf: [{ type: 'null' }, {
        type: 'object',
        required: ['endpoint', 'keys'],
        properties: {
          // Which endpoints are accepted is the push code's decision (server/alerts/pushEndpoint.ts).
          endpoint: { type: 'string', maxLength: 2048, pattern: '^https?://' },
          expirationTime: { anyOf: [{ type: 'number' }, { type: 'null' }] },
          keys: {
            type: 'object', required: ['p256dh', 'auth'],
            properties: { p256dh: { type: 'string', maxLength: 256 }, auth: { type: 'string', maxLength: 64 } },
          },
        },
      }],
    },
    screen: {
      type: 'object',
      additionalProperties: false,
      properties: {
        width: { type: 'number', minimum: 0, maximum: 100_000 },
        height: { type: 'number', minimum: 0, maximum: 100_000 },
        devicePixelRatio: { type: 'number', minimum: 0, maximum: 100 },
      },
    },
    deactivated: { type: 'boolean' },
  },
} as const;

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

  /** The user's devices (for the notification code and tests). */
  async list(userId: string): Promise<DeviceAnswer[]> {
    const rows = await this.db.all<{ device_id: string; value: string; deactivated: number; updated: number }>(
      'SELECT device_id, value, deactivated, updated FROM devices WHERE user_id = ? ORDER BY device_id',
      [userId],
    );
    return rows.map((r) => ({ ...JSON.parse(r.value) as DeviceBody, deviceID: r.device_id, deactivated: Number(r.deactivated) === 1, updated: Number(r.updated) }));
  }

  /** Logout: the devices registered with this session stop receiving notifications. */
  async deactivateSession(p: Principal): Promise<void> {
    await this.db.run('UPDATE devices SET deactivated = 1, updated = ? WHERE user_id = ? AND token_id = ?', [this.now(), p.user.id, p.tokenId]);
  }
}

/**
 * PUT and POST /users/v3/devices/{deviceID}. A push subscription is checked by the alert service the
 * accounts registered on the root (`app.alerts`, routes/users.ts), which sends the notifications.
 */
export async function deviceRoutes(app: FastifyInstance, options: { accounts: AccountStore; devices: DeviceStore }): Promise<void> {
  const route = {
    bodyLimit: DEVICE_BODY_MAX_BYTES,
    onRequest: requireUser(options.accounts),
    schema: {
      params: { type: 'object', required: ['deviceID'], properties: { deviceID: { type: 'string', pattern: DEVICE_ID_PATTERN } } },
      body: DEVICE_SCHEMA,
    },
  };
  type DeviceRoute = { Params: { deviceID: string }; Body: DeviceBody | undefined };
  const handler = async (request: FastifyRequest<DeviceRoute>) => {
    const device = request.body ?? {};
    // A push endpoint the server would refuse to send to is refused now, with the reason
    // (it is checked again before every send: a name can resolve elsewhere later).
    if (device.pushSubscription) {
      await app.alerts.checkPushSubscription(device.pushSubscription).catch((error: unknown) => {
        throw error instanceof PushEndpointError ? badRequest(error.message) : error;
      });
    }
    return options.devices.upsert(principal(request), request.params.deviceID, device);
  };
  app.put<DeviceRoute>('/users/v3/devices/:deviceID', route, handler);
  app.post<DeviceRoute>('/users/v3/devices/:deviceID', route, handler);
}
