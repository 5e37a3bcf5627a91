/**
 * Web Push (SPEC §6 "push notifications") through the `web-push` package: it makes the VAPID
 * signature and the RFC 8291 encrypted body (generateRequestDetails); the request itself goes out
 * here with node:https, one connection per message, to the addresses the endpoint check answered
 * (pushEndpoint.ts: https, public addresses only, checked again before every send). A redirect is
 * not followed (http.request never follows one): a 3xx is the push service's answer, logged as not
 * delivered.
 *
 * VAPID keys: ISOBAR_VAPID_PUBLIC_KEY + ISOBAR_VAPID_PRIVATE_KEY (+ ISOBAR_VAPID_SUBJECT, default
 * mailto:admin@localhost) when set, else generated on first use into a JSON file (default
 * var/data/vapid.json, beside the ingested runs) and kept there, mode 0600.
 *
 * ISOBAR_PUSH_ALLOW_ORIGINS (comma-separated exact origins, e.g. http://127.0.0.1:9093; unset by
 * default) lets the end-to-end tests' local stand-in for the vendor's push service through the
 * endpoint check; a deployment never sets it.
 */

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { dirname } from 'node:path';
import type WebPush from 'web-push';
import { SECOND_MS } from '../../common/time.ts';
import { allowedOriginsFromEnv, checkPushEndpoint, pinnedLookup, type CheckedEndpoint, type HostResolver } from './pushEndpoint.ts';

export interface VapidKeys { publicKey: string; privateKey: string; subject: string }

/** A browser PushSubscription as JSON (PushSubscription.toJSON()). */
export interface PushSubscriptionJson { endpoint: string; keys: { p256dh: string; auth: string } }

export interface PushSender {
  /** The public key browsers subscribe with (applicationServerKey). */
  publicKey(): Promise<string>;
  /** Throws PushEndpointError (with the reason) when the server would not send to this endpoint. */
  checkEndpoint(endpoint: string): Promise<void>;
  /**
   * Sends one message; answers the push service's status (201 is delivered to the service). Checks
   * the endpoint first: PushEndpointError when it is refused, and nothing is sent.
   */
  send(subscription: PushSubscriptionJson, payload: string): Promise<number>;
}

const PUSH_TTL_S = 24 * 3600;
const DEFAULT_SUBJECT = 'mailto:admin@localhost';

export function isPushSubscription(v: unknown): v is PushSubscriptionJson {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  const keys = s.keys as Record<string, unknown> | undefined;
  return typeof s.endpoint === 'string' && typeof keys === 'object' && keys !== null
    && typeof keys.p256dh === 'string' && typeof keys.auth === 'string';
}

/** web-push, imported on first use: only servers with alerts send pushes (~60 ms of every start otherwise). */
let webPushModule: Promise<typeof WebPush> | null = null;
const webPush = () => (webPushModule ??= import('web-push').then((m) => m.default));

/** The VAPID keys from the environment, else from (or generated into) `file`. */
async function loadVapidKeys(file: string, env: NodeJS.ProcessEnv = process.env): Promise<VapidKeys> {
  const subject = env.ISOBAR_VAPID_SUBJECT?.trim() || DEFAULT_SUBJECT;
  const pub = env.ISOBAR_VAPID_PUBLIC_KEY?.trim();
  const priv = env.ISOBAR_VAPID_PRIVATE_KEY?.trim();
  if (pub && priv) return { publicKey: pub, privateKey: priv, subject };
  const stored = await readFile(file, 'utf8').then((text) => JSON.parse(text) as Partial<VapidKeys>, () => null);
  if (stored?.publicKey && stored.privateKey) return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject: stored.subject ?? subject };
  const keys = { ...(await webPush()).generateVAPIDKeys(), subject };
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return keys;
}

export interface WebPushOptions {
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** The endpoint hosts' resolver (default the system's; tests inject theirs). */
  resolve?: HostResolver;
  /** Origins accepted without the endpoint check (default: ISOBAR_PUSH_ALLOW_ORIGINS of `env`). */
  allowedOrigins?: readonly string[];
}

/** The web-push sender with keys loaded once from `file` (or the environment). */
export function webPushSender(file: string, options: WebPushOptions = {}): PushSender {
  const endpointOptions = { resolve: options.resolve, allowedOrigins: options.allowedOrigins ?? allowedOriginsFromEnv(options.env) };
  const timeoutMs = options.timeoutMs ?? 10 * SECOND_MS;
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
    async checkEndpoint(endpoint) {
      await checkPushEndpoint(endpoint, endpointOptions);
    },
    async send(subscription, payload) {
      const checked = await checkPushEndpoint(subscription.endpoint, endpointOptions);
      const { publicKey, privateKey, subject } = await vapid();
      // The VAPID audience comes from the same parsed URL the request goes to.
      const details = (await webPush()).generateRequestDetails({ ...subscription, endpoint: checked.url.href }, payload, {
        vapidDetails: { subject, publicKey, privateKey }, TTL: PUSH_TTL_S,
      });
      return post(checked, details.headers as Record<string, string | number>, details.body ?? undefined, timeoutMs);
    },
  };
}

/** One POST to the checked endpoint's addresses; answers the status without following a redirect. */
function post(checked: CheckedEndpoint, headers: Record<string, string | number>, body: Buffer | undefined, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = (checked.url.protocol === 'https:' ? httpsRequest : httpRequest)(checked.url, {
      method: 'POST',
      headers: { ...headers, 'content-length': body?.length ?? 0 },
      // A fresh connection to the checked addresses (a pooled one could outlive its check).
      agent: false,
      lookup: pinnedLookup(checked.addresses),
      signal: AbortSignal.timeout(timeoutMs),
    }, (response: IncomingMessage) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end(body);
  });
}
