/**
 * Device registration (SPEC §3 "Device", §4 "Login": device registered after login, deactivated
 * at logout; §7 PUT or POST /users/v3/devices/{deviceID}). One row per user and device id: a PUT or
 * POST creates or replaces it (server/db/deviceStore.ts). Logging out deactivates the devices
 * registered with that session.
 */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEVICE_ROUTE } from '../../common/api/account.ts';
import type { AccountStore } from '../auth/accounts.ts';
import { principal, requireUser } from '../auth/bearer.ts';
import { DEVICE_BODY_MAX_BYTES } from '../auth/limits.ts';
import type { DeviceBody, DeviceStore } from '../db/deviceStore.ts';
import { PushEndpointError } from '../alerts/pushEndpoint.ts';
import { badRequest } from '../http/httpError.ts';

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
  app.put<DeviceRoute>(DEVICE_ROUTE, route, handler);
  app.post<DeviceRoute>(DEVICE_ROUTE, route, handler);
}
