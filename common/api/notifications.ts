/**
 * The notification and alert-time contract (SPEC §7 /notif/v1/..., /users/v4/alerts/{id}/timestamps)
 * of server/routes/notifications.ts and the browser's account code (ui/account/alerts.ts, push.ts):
 *
 *   GET    /notif/v1/notifications            -> NotificationsAnswer (newest first)
 *   DELETE /notif/v1/notifications            -> { removed, newCount: 0 }
 *   POST   /notif/v1/interactions/{kind}      { ids? } -> { updated, newCount } (kind received or opened)
 *   POST   /notif/v1/notifications/send-test  -> 201 the notification
 *   GET    /notif/v1/vapid-public-key         -> { publicKey }
 *   GET    /users/v4/alerts/{id}/timestamps   -> { id, product, refTime, timestamps }
 */

import type { Infer } from './schema.ts';

export const NOTIFICATIONS_PATH = '/notif/v1/notifications';
export const SEND_TEST_PATH = '/notif/v1/notifications/send-test';
export const VAPID_KEY_PATH = '/notif/v1/vapid-public-key';
export const INTERACTION_KINDS = ['received', 'opened'] as const;
export type InteractionKind = (typeof INTERACTION_KINDS)[number];
export const interactionPath = (kind: InteractionKind): string => `/notif/v1/interactions/${kind}`;
export const ALERT_TIMESTAMPS_ROUTE = '/users/v4/alerts/:id/timestamps';
export const alertTimestampsPath = (id: string): string => `/users/v4/alerts/${encodeURIComponent(id)}/timestamps`;

export const NOTIFICATION = {
  type: 'object',
  required: ['id', 'type', 'created', 'received', 'opened', 'payload'],
  properties: {
    id: { type: 'string' },
    type: { type: 'string', enum: ['alert', 'test'] },
    created: { type: 'number' },
    received: { type: ['number', 'null'] },
    opened: { type: ['number', 'null'] },
    payload: { type: 'object', additionalProperties: true },
  },
} as const;
export type NotificationAnswer = Infer<typeof NOTIFICATION>;

export const NOTIFICATIONS_ANSWER = {
  type: 'object',
  required: ['newCount', 'notifications'],
  properties: {
    /** Notifications not opened: the badge. */
    newCount: { type: 'integer', minimum: 0 },
    notifications: { type: 'array', items: NOTIFICATION },
  },
} as const;
export type NotificationsAnswer = Infer<typeof NOTIFICATIONS_ANSWER>;

export const REMOVED_ANSWER = { type: 'object', required: ['removed', 'newCount'], properties: { removed: { type: 'integer' }, newCount: { type: 'integer' } } } as const;
export const INTERACTION_ANSWER = { type: 'object', required: ['updated', 'newCount'], properties: { updated: { type: 'integer' }, newCount: { type: 'integer', minimum: 0 } } } as const;
export const VAPID_ANSWER = { type: 'object', required: ['publicKey'], properties: { publicKey: { type: 'string' } } } as const;

export const ALERT_TIMESTAMPS_ANSWER = {
  type: 'object',
  required: ['id', 'product', 'refTime', 'timestamps'],
  properties: {
    id: { type: 'string' },
    product: { type: 'string' },
    refTime: { type: 'number' },
    /** The valid times of the product's current run when every condition holds, ms. */
    timestamps: { type: 'array', items: { type: 'number' } },
  },
} as const;
