/**
 * Notifications and alert times (SPEC §7), all behind the bearer token (server/auth/bearer.ts),
 * registered by server/routes/users.ts inside the accounts scope (same error answers, no-store).
 *
 *   GET    /notif/v1/notifications            -> {newCount, notifications: [{id, type, created,
 *                                                received, opened, payload}]} newest first (100);
 *                                                newCount = notifications not opened (the badge)
 *   DELETE /notif/v1/notifications            removes all -> {removed, newCount: 0}
 *   POST   /notif/v1/interactions/received    {ids?: [id], data?} -> {updated, newCount}; no ids: all
 *   POST   /notif/v1/interactions/opened      {ids?: [id], data?} -> {updated, newCount}; no ids: all
 *   POST   /notif/v1/notifications/send-test  {registrationHash?, notificationType?, deviceID?}
 *                                             -> 201 the notification (pushed to that device, or
 *                                                the user's devices when no deviceID); 429 +
 *                                                retry-after over 5 per 15 min per user
 *                                                (auth/limits.ts, times ISOBAR_AUTH_RATE_LIMIT_SCALE)
 *   GET    /notif/v1/vapid-public-key         -> {publicKey} for PushManager.subscribe (no auth needed)
 *   GET    /users/v4/alerts/{id}/timestamps   -> {id, product, refTime, timestamps: [ms]} the valid
 *                                                times of the product's current run when every
 *                                                condition holds; 404 unknown alert or product
 */

import type { FastifyInstance } from 'fastify';
import {
  ALERT_TIMESTAMPS_ANSWER, ALERT_TIMESTAMPS_ROUTE, INTERACTION_ANSWER, INTERACTION_KINDS, interactionPath, NOTIFICATION, NOTIFICATIONS_ANSWER,
  NOTIFICATIONS_PATH, REMOVED_ANSWER, SEND_TEST_PATH, VAPID_ANSWER, VAPID_KEY_PATH,
} from '../../common/api/notifications.ts';
import { isPremium } from '../../common/entitlements.ts';
import type { AccountStore } from '../auth/accounts.ts';
import { principal, requireUser } from '../auth/bearer.ts';
import { TooManyTestsError, type AlertService } from '../alerts/alertService.ts';
import type { PushSender } from '../alerts/push.ts';
import { notFound } from '../http/httpError.ts';
import { DEVICE_ID_PATTERN } from './devices.ts';
import { SECOND_MS } from '../../common/time.ts';

const ID = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } as const;
const INTERACTION_BODY = {
  type: 'object',
  properties: { ids: { type: 'array', maxItems: 1000, items: ID }, data: {} },
} as const;
const SEND_TEST_BODY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    registrationHash: { type: 'string', maxLength: 256 },
    notificationType: { type: 'string', maxLength: 64 },
    deviceID: { type: 'string', pattern: DEVICE_ID_PATTERN },
  },
} as const;

export async function notificationRoutes(app: FastifyInstance, options: { accounts: AccountStore; alerts: AlertService; push: PushSender | null }): Promise<void> {
  const { alerts, push } = options;
  const onRequest = requireUser(options.accounts);

  app.get(NOTIFICATIONS_PATH, { onRequest, schema: { response: { 200: NOTIFICATIONS_ANSWER } } }, async (request) => alerts.list(principal(request).user.id));

  app.delete(NOTIFICATIONS_PATH, { onRequest, schema: { response: { 200: REMOVED_ANSWER } } }, async (request) => {
    const removed = await alerts.removeAll(principal(request).user.id);
    return { removed, newCount: 0 };
  });

  for (const kind of INTERACTION_KINDS) {
    app.post<{ Body: { ids?: string[] } | undefined }>(interactionPath(kind), { onRequest, bodyLimit: 64 * 1024, schema: { body: INTERACTION_BODY, response: { 200: INTERACTION_ANSWER } } }, async (request) => {
      const userId = principal(request).user.id;
      const updated = await alerts.interaction(userId, kind, request.body?.ids);
      return { updated, newCount: await alerts.newCount(userId) };
    });
  }

  app.post<{ Body: { registrationHash?: string; notificationType?: string; deviceID?: string } | undefined }>(SEND_TEST_PATH, {
    onRequest, bodyLimit: 4096, schema: { body: SEND_TEST_BODY, response: { 201: NOTIFICATION } },
  }, async (request, reply) => {
    const userId = principal(request).user.id;
    const { registrationHash, notificationType, deviceID } = request.body ?? {};
    try {
      const notification = await alerts.sendTest(userId, {
        title: 'Isobar', body: 'This is a test notification', ...(registrationHash ? { registrationHash } : {}),
        ...(notificationType ? { notificationType } : {}), ...(deviceID ? { deviceID } : {}),
      }, deviceID);
      return await reply.code(201).send(notification);
    } catch (error) {
      if (error instanceof TooManyTestsError) reply.header('retry-after', String(Math.ceil(error.retryAfterMs / SECOND_MS)));
      throw error;
    }
  });

  app.get(VAPID_KEY_PATH, { schema: { response: { 200: VAPID_ANSWER } } }, async () => {
    if (!push) throw notFound('Web Push is not configured on this server');
    return { publicKey: await push.publicKey() };
  });

  app.get<{ Params: { id: string } }>(ALERT_TIMESTAMPS_ROUTE, { onRequest, schema: { params: { type: 'object', properties: { id: ID } }, response: { 200: ALERT_TIMESTAMPS_ANSWER } } }, async (request) => {
    const { id } = request.params;
    const { user } = principal(request);
    const alert = await alerts.alert(user.id, id);
    if (!alert) throw notFound(`No alert ${id}`);
    // What the user's tier may see of the run (common/entitlements.ts, through the alert service).
    const { refTime, timestamps } = await alerts.timestamps(alert, isPremium(user.subscription, options.accounts.now()));
    return { id, product: alert.product, refTime, timestamps };
  });
}
