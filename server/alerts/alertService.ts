/**
 * Alert evaluation and notifications (SPEC §3 "Alert", §6 push notifications, §7 /notif/v1/...).
 *
 * After each newly ingested run of a product (scheduler onIngested, the samples loader) every
 * stored alert of every user on that product (user_items collection 'alerts', not suspended) is
 * evaluated against the product's point forecast at the alert's place (common/alerts.ts
 * evaluateAlert). Devices carry their push subscription in `pushSubscription` (routes/devices.ts).
 * The result is kept per alert in alert_evaluations. When valid times hold that were not notified
 * before, one notification is stored (type 'alert') and pushed to the user's
 * active devices with a push subscription; the alert's state becomes 'triggered' (and back to
 * 'normal' when no time holds any more). The state change is written as an ordinary collection
 * update (its storeTs moves, so clients sync it), only when the item is unchanged since it was
 * read.
 *
 * Bounds (server/auth/limits.ts): a user keeps the newest NOTIFICATIONS_PER_USER_MAX notifications;
 * one is pushed to at most PUSH_DEVICES_PER_USER_MAX devices (the most recently registered, one
 * request per distinct endpoint); test notifications are rate-limited per user. Every endpoint is
 * checked (push.ts, pushEndpoint.ts) when a device registers it and again before each send.
 *
 * The rows are read and written by the stores of server/db/ (notificationStore, alertStore,
 * deviceStore, userDataStore).
 */

import { randomBytes } from 'node:crypto';
import { alertProblem, evaluateAlert, type Alert } from '../../common/alerts.ts';
import type { Database } from '../db/database.ts';
import { AlertStore } from '../db/alertStore.ts';
import { DeviceStore } from '../db/deviceStore.ts';
import { NotificationStore, type NotificationPayload, type StoredNotification } from '../db/notificationStore.ts';
import { UserDataStore } from '../db/userDataStore.ts';
import { grantForecast, isPremium, isRefusal } from '../../common/entitlements.ts';
import type { ProductData, RunData, ServedProducts } from '../data/servedProducts.ts';
import { parseSubscription } from '../auth/accounts.ts';
import { memorySharedState, type SharedState } from '../auth/sharedState.ts';
import { NOTIFICATIONS_PER_USER_MAX, PUSH_DEVICES_PER_USER_MAX, rateLimitScaleFromEnv, SEND_TEST_WINDOW_MS, SEND_TESTS_PER_USER } from '../auth/limits.ts';
import { HttpError } from '../http/httpError.ts';
import { isPushSubscription, type PushSender, type PushSubscriptionJson } from './push.ts';
import { checkPushEndpoint, PushEndpointError } from './pushEndpoint.ts';
import { QUEUES, type JobQueue } from '../jobs/jobQueue.ts';
import { HOUR_MS, MINUTE_MS, SECOND_MS } from '../../common/time.ts';

export type { NotificationPayload, StoredNotification };

export interface AlertEvaluation {
  alertId: string;
  product: string;
  refTime: number;
  timestamps: number[];
}

/** Too many test notifications: 429, with the seconds to wait. */
export class TooManyTestsError extends HttpError {
  constructor(limit: number, readonly retryAfterMs: number) {
    super(429, `At most ${limit} test notifications per ${SEND_TEST_WINDOW_MS / MINUTE_MS} minutes; try again in ${Math.ceil(retryAfterMs / SECOND_MS)} s`);
  }
}

const newId = () => randomBytes(12).toString('base64url');

function describeTimes(name: string, times: readonly number[]): string {
  const first = new Date(times[0]).toISOString().slice(0, 16).replace('T', ' ');
  return `${name}: conditions met ${times.length} time(s) (${times.length > 1 ? `from ${first} UTC, over ${Math.round((times[times.length - 1] - times[0]) / HOUR_MS)} h` : `at ${first} UTC`})`;
}

/** A push job (QUEUES.push): a stored notification to push to its user's devices (one device, or all). */
export interface PushJob {
  userId: string;
  notification: StoredNotification;
  onlyDevice?: string;
}

export class AlertService {
  private readonly data: UserDataStore;
  private readonly notifications: NotificationStore;
  private readonly devices: DeviceStore;
  private readonly alerts: AlertStore;
  private readonly sendTestsPerUser = SEND_TESTS_PER_USER * rateLimitScaleFromEnv();
  private readonly sendTests;
  /** The queue pushes go through; null: pushed at once in this process. */
  private pushJobs: JobQueue | null = null;

  constructor(
    db: Database,
    private readonly sources: ServedProducts | null,
    private readonly push: PushSender | null,
    private readonly now: () => number = Date.now,
    private readonly log: (message: string, error?: unknown) => void = () => {},
    /** Where the test-notification counts live: in memory, or shared by every process (auth/sharedState.ts). */
    state: SharedState = memorySharedState(now),
  ) {
    this.data = new UserDataStore(db, now);
    this.notifications = new NotificationStore(db);
    this.devices = new DeviceStore(db, now);
    this.alerts = new AlertStore(db);
    this.sendTests = state.limiter('send-test', this.sendTestsPerUser, SEND_TEST_WINDOW_MS);
  }

  /**
   * Refuses (PushEndpointError, with the reason) a push subscription the server would not send to;
   * without a sender, by the same rules with the system's resolver.
   */
  async checkPushSubscription(subscription: PushSubscriptionJson): Promise<void> {
    if (this.push) await this.push.checkEndpoint(subscription.endpoint);
    else await checkPushEndpoint(subscription.endpoint);
  }

  // ---- notifications --------------------------------------------------------------------------

  async list(userId: string): Promise<{ newCount: number; notifications: StoredNotification[] }> {
    const notifications = await this.notifications.newest(userId, NOTIFICATIONS_PER_USER_MAX);
    return { newCount: await this.newCount(userId), notifications };
  }

  async newCount(userId: string): Promise<number> {
    return this.notifications.unopenedCount(userId);
  }

  async removeAll(userId: string): Promise<number> {
    return this.notifications.removeAll(userId);
  }

  /** Marks the listed notifications (all of the user's when `ids` is absent) received or opened. */
  async interaction(userId: string, kind: 'received' | 'opened', ids: readonly string[] | undefined): Promise<number> {
    return this.notifications.mark(userId, kind, ids, this.now());
  }

  /**
   * Stores a notification, dropping the user's oldest beyond NOTIFICATIONS_PER_USER_MAX, and pushes
   * it to the user's devices (push failures are logged, never thrown).
   */
  async notify(userId: string, type: StoredNotification['type'], payload: NotificationPayload, onlyDevice?: string): Promise<StoredNotification> {
    const notification: StoredNotification = { id: newId(), type, created: this.now(), received: null, opened: null, payload };
    await this.notifications.add(userId, notification, NOTIFICATIONS_PER_USER_MAX);
    const job: PushJob = { userId, notification, ...(onlyDevice === undefined ? {} : { onlyDevice }) };
    if (!this.pushJobs) await this.deliverPush(job);
    // In this process the push is made before the answer, as it always was; through PostgreSQL an ingest process makes it.
    else if (this.pushJobs.kind === 'in-process') await this.pushJobs.run(QUEUES.push, job);
    else await this.pushJobs.send(QUEUES.push, job);
    return notification;
  }

  /** From now on pushes are jobs of `queue` (server/app.ts): worked by deliverPush wherever the queue is worked. */
  pushThrough(queue: JobQueue): void {
    this.pushJobs = queue;
  }

  /** A test notification (POST /notif/v1/notifications/send-test); TooManyTestsError over the user's rate. */
  async sendTest(userId: string, payload: NotificationPayload, onlyDevice?: string): Promise<StoredNotification> {
    const wait = await this.sendTests.blockedFor(userId);
    if (wait > 0) throw new TooManyTestsError(this.sendTestsPerUser, wait);
    await this.sendTests.hit(userId);
    return this.notify(userId, 'test', payload, onlyDevice);
  }

  /** Pushes a stored notification to the user's devices (a push job); failures are logged, never thrown. */
  async deliverPush({ userId, notification, onlyDevice }: PushJob): Promise<void> {
    if (!this.push) return;
    // The most recently registered devices, one request per endpoint.
    const targets = new Map<string, { deviceId: string; subscription: PushSubscriptionJson }>();
    for (const device of await this.devices.active(userId)) {
      if (targets.size >= PUSH_DEVICES_PER_USER_MAX) break;
      if (onlyDevice !== undefined && device.deviceID !== onlyDevice) continue;
      const subscription: unknown = device.pushSubscription;
      if (isPushSubscription(subscription) && !targets.has(subscription.endpoint)) targets.set(subscription.endpoint, { deviceId: device.deviceID, subscription });
    }
    if (targets.size === 0) return;
    const body = JSON.stringify({ id: notification.id, type: notification.type, ...notification.payload, newCount: await this.newCount(userId) });
    for (const { deviceId, subscription } of targets.values()) {
      try {
        const status = await this.push.send(subscription, body);
        if (status === 404 || status === 410) {
          // RFC 8030 §7.3: the subscription is gone for good; sending there again only costs requests.
          await this.devices.forgetPushSubscription(userId, deviceId, subscription.endpoint);
          this.log(`push to device ${deviceId} answered ${status}: its subscription is gone and forgotten`);
        } else if (status < 200 || status >= 300) {
          this.log(`push to device ${deviceId} answered ${status}`);
        }
      } catch (error) {
        this.log(error instanceof PushEndpointError ? `push to device ${deviceId} refused: ${error.message}` : `push to device ${deviceId} failed`, error);
      }
    }
  }

  // ---- alerts ---------------------------------------------------------------------------------

  /** The user's stored alert, or null. */
  async alert(userId: string, alertId: string): Promise<Alert | null> {
    const json = await this.data.itemJson(userId, 'alerts', alertId);
    return json === null ? null : (JSON.parse(json) as Alert);
  }

  /**
   * The times when the alert's conditions hold in the current run of its product, as far as the
   * user's tier may see them (common/entitlements.ts: a free user's alerts look at 3-hour steps
   * before the premium days; issue 12 — they were evaluated over the whole run at 1-hour steps).
   */
  async timestamps(alert: Alert, premium: boolean): Promise<{ refTime: number; timestamps: number[] }> {
    if (!this.sources) throw new Error('No forecast data to evaluate alerts against');
    const data = await this.sources.byIdent(alert.product);
    const run = await data.current();
    return { refTime: run.refTime, timestamps: await this.evaluate(alert, data.product, run, premium) };
  }

  private async evaluate(alert: Alert, product: ProductData['product'], run: RunData, premium: boolean): Promise<number[]> {
    const grant = grantForecast({ kind: 'series', product, refTime: run.refTime }, premium);
    // A series without a window or a step is never refused; a refusal here would be a change of the rules.
    if (isRefusal(grant)) throw new Error(`alert evaluation refused: ${grant.need}`);
    const forecast = await run.point(alert.lat, alert.lon, { step: grant.step, to: grant.to });
    return evaluateAlert(alert, forecast);
  }

  /**
   * Evaluates every stored alert on `product` against its current run; answers what triggered.
   * One failing alert (a place outside the model's area) is logged and skipped.
   */
  async evaluateProduct(product: string): Promise<Array<AlertEvaluation & { userId: string; notified: boolean }>> {
    if (!this.sources) return [];
    const data = await this.sources.byIdent(product);
    const run = await data.current();
    const out: Array<AlertEvaluation & { userId: string; notified: boolean }> = [];
    for (const row of await this.alerts.allAlerts()) {
      let alert: Alert;
      try {
        alert = JSON.parse(row.json) as Alert;
      } catch {
        continue;
      }
      if (alertProblem(alert) !== null || alert.product !== product || alert.state === 'suspended') continue;
      try {
        const premium = isPremium(parseSubscription(row.subscription), this.now());
        const timestamps = await this.evaluate(alert, data.product, run, premium);
        const notified = await this.record(row.userId, row.alertId, row.json, alert, { alertId: row.alertId, product, refTime: run.refTime, timestamps });
        if (timestamps.length > 0) out.push({ userId: row.userId, alertId: row.alertId, product, refTime: run.refTime, timestamps, notified });
      } catch (error) {
        this.log(`alert ${row.alertId} of user ${row.userId} could not be evaluated`, error);
      }
    }
    return out;
  }

  /** Stores the evaluation, notifies new times, moves the state; true when a notification was made. */
  private async record(userId: string, alertId: string, json: string, alert: Alert, evaluation: AlertEvaluation): Promise<boolean> {
    const notifiedBefore = new Set(await this.alerts.notifiedTimes(userId, alertId));
    const fresh = evaluation.timestamps.filter((t) => !notifiedBefore.has(t));
    // Times already past are forgotten, so the list does not grow run after run.
    const notified = [...new Set([...notifiedBefore, ...evaluation.timestamps])].filter((t) => t >= this.now() - 24 * HOUR_MS).sort((a, b) => a - b);
    await this.alerts.saveEvaluation(userId, alertId, { product: evaluation.product, refTime: evaluation.refTime, timestamps: evaluation.timestamps, notified, evaluated: this.now() });
    const state = evaluation.timestamps.length > 0 ? 'triggered' : 'normal';
    if (alert.state !== state) {
      // Only when the user has not changed the alert since it was read.
      if (await this.data.itemJson(userId, 'alerts', alertId) === json) await this.data.updateItem(userId, 'alerts', alertId, JSON.stringify({ ...alert, state }));
    }
    if (fresh.length === 0) return false;
    await this.notify(userId, 'alert', {
      title: alert.name, body: describeTimes(alert.name, evaluation.timestamps), alertId, product: evaluation.product,
      refTime: evaluation.refTime, timestamps: evaluation.timestamps, lat: alert.lat, lon: alert.lon,
    });
    return true;
  }
}
