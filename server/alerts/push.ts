/**
 * Web Push (SPEC §6 "push notifications") through the `web-push` package: it makes the VAPID
 * signature and the RFC 8291 encrypted body (generateRequestDetails); the request itself goes out
 * with fetch, so a test can point a subscription at a local HTTP server acting as the push service.
 *
 * VAPID keys: ISOBAR_VAPID_PUBLIC_KEY + ISOBAR_VAPID_PRIVATE_KEY (+ ISOBAR_VAPID_SUBJECT, default
 * mailto:admin@localhost) when set, else generated on first use into a JSON file (default
 * var/data/vapid.json, beside the ingested runs) and kept there, mode 0600.
 */

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import webpush from 'web-push';

export interface VapidKeys { publicKey: string; privateKey: string; subject: string }

/** A browser PushSubscription as JSON (PushSubscription.toJSON()). */
export interface PushSubscriptionJson { endpoint: string; keys: { p256dh: string; auth: string } }

export interface PushSender {
  /** The public key browsers subscribe with (applicationServerKey). */
  publicKey(): Promise<string>;
  /** Sends one message; answers the push service's status (201 is delivered to the service). */
  send(subscription: PushSubscriptionJson, payload: string): Promise<number>;
}

export const PUSH_TTL_S = 24 * 3600;
const DEFAULT_SUBJECT = 'mailto:admin@localhost';

export function isPushSubscription(v: unknown): v is PushSubscriptionJson {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  const keys = s.keys as Record<string, unknown> | undefined;
  return typeof s.endpoint === 'string' && /^https?:\/\//.test(s.endpoint) && typeof keys === 'object' && keys !== null
    && typeof keys.p256dh === 'string' && typeof keys.auth === 'string';
}

/** The VAPID keys from the environment, else from (or generated into) `file`. */
export async function loadVapidKeys(file: string, env: NodeJS.ProcessEnv = process.env): Promise<VapidKeys> {
  const subject = env.ISOBAR_VAPID_SUBJECT?.trim() || DEFAULT_SUBJECT;
  const pub = env.ISOBAR_VAPID_PUBLIC_KEY?.trim();
  const priv = env.ISOBAR_VAPID_PRIVATE_KEY?.trim();
  if (pub && priv) return { publicKey: pub, privateKey: priv, subject };
  const stored = await readFile(file, 'utf8').then((text) => JSON.parse(text) as Partial<VapidKeys>, () => null);
  if (stored?.publicKey && stored.privateKey) return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject: stored.subject ?? subject };
  const keys = { ...webpush.generateVAPIDKeys(), subject };
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return keys;
}

/** The web-push sender with keys loaded once from `file` (or the environment). */
export function webPushSender(file: string, options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): PushSender {
  let keys: Promise<VapidKeys> | null = null;
  const vapid = () => {
    keys ??= loadVapidKeys(file, options.env).catch((error: unknown) => {
      keys = null;
      throw error;
    });
    return keys;
  };
  return {
    async publicKey() {
      return (await vapid()).publicKey;
    },
    async send(subscription, payload) {
      const { publicKey, privateKey, subject } = await vapid();
      const details = webpush.generateRequestDetails(subscription, payload, { vapidDetails: { subject, publicKey, privateKey }, TTL: PUSH_TTL_S });
      const response = await fetch(details.endpoint, {
        method: details.method,
        headers: details.headers as Record<string, string>,
        body: details.body ? new Uint8Array(details.body) : undefined,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      await response.arrayBuffer().catch(() => undefined);
      return response.status;
    },
  };
}
