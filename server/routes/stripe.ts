/**
 * Premium payment through Stripe Checkout (SPEC §1 "Premium gives", §3 "Subscription info", §4
 * "Subscription"), with Stripe's official SDK (`stripe`): it builds the API calls and verifies the
 * webhook signatures (HMAC-SHA256 over timestamp and raw body, with a replay tolerance) as Stripe
 * documents them, which is not worth writing by hand.
 *
 *   POST /users/v1/subscription/checkout   (bearer token) {priceId?}
 *        -> 200 {id, url}: a Checkout Session in subscription mode for the user; the browser goes to
 *           `url`, and comes back to /pending-subscription (paid: the window waits for the webhook's
 *           status) or /subscription (cancelled). 503 when STRIPE_SECRET_KEY (or STRIPE_PRICE_ID) is not set: Premium is then
 *           granted by hand (npm run admin -- premium grant <email>).
 *   POST /stripe/webhook                   (Stripe-Signature header, raw JSON body)
 *        -> 200 {received: true, handled}: the signature is checked with
 *           stripe.webhooks.constructEvent against STRIPE_WEBHOOK_SECRET (400 when it does not
 *           match, 503 when no secret is set). Then, for the user the session or subscription
 *           names (client_reference_id / metadata.userId, set at checkout):
 *             checkout.session.completed      -> status active
 *             customer.subscription.updated   -> status from the Stripe status (below), expiresAt
 *                                                the end of the paid period
 *             customer.subscription.deleted   -> status canceled, expiresAt when it ended
 *           Other events, and events for unknown users, are acknowledged and ignored (Stripe
 *           would otherwise retry them for days).
 *
 * Stripe status -> SPEC §4 status: active, trialing -> active (trialing: isTrial); past_due ->
 * graced; unpaid, incomplete -> onhold; paused -> paused; canceled, incomplete_expired -> canceled.
 *
 * Settings: STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID, and ISOBAR_PUBLIC_URL (the
 * site address for the success and cancel pages; default: the request's own origin).
 */

import { CHECKOUT_ANSWER, CHECKOUT_PATH } from '../../common/api/account.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type Stripe from 'stripe';
import type { AccountStore, SubscriptionInfo } from '../auth/accounts.ts';
import { principal, requireUser } from '../auth/bearer.ts';
import { badRequest, ERROR_RESPONSE_SCHEMA, HttpError } from '../http/httpError.ts';

/** The part of the Stripe client the checkout uses (tests give a fake; no network in tests). */
export interface CheckoutClient {
  checkout: { sessions: { create(params: Stripe.Checkout.SessionCreateParams): Promise<{ id: string; url: string | null }> } };
}

export interface StripeConfig {
  secretKey?: string;
  webhookSecret?: string;
  priceId?: string;
  publicUrl?: string;
}

export interface StripeRouteOptions {
  accounts: AccountStore;
  config?: StripeConfig;
  /** The Stripe client; default `new Stripe(config.secretKey)` when a key is set. */
  client?: CheckoutClient;
  now?: () => number;
}

function stripeConfigFromEnv(env: NodeJS.ProcessEnv = process.env): StripeConfig {
  const value = (name: string) => env[name]?.trim() || undefined;
  return {
    secretKey: value('STRIPE_SECRET_KEY'),
    webhookSecret: value('STRIPE_WEBHOOK_SECRET'),
    priceId: value('STRIPE_PRICE_ID'),
    publicUrl: value('ISOBAR_PUBLIC_URL'),
  };
}

export const PAYMENTS_NOT_CONFIGURED = 'Payments are not configured on this server (STRIPE_SECRET_KEY and STRIPE_PRICE_ID are not set); an administrator can grant Premium with: npm run admin -- premium grant <email>';
const WEBHOOK_NOT_CONFIGURED = 'Stripe webhooks are not configured on this server (STRIPE_WEBHOOK_SECRET is not set)';
export const BAD_SIGNATURE = 'The Stripe-Signature header does not match the body';
const WEBHOOK_BODY_MAX_BYTES = 512 * 1024;
const PLATFORM = 'stripe';

/** SPEC §4 status of a Stripe subscription status. */
export function statusOfStripe(status: string): string {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
      return 'graced';
    case 'unpaid':
    case 'incomplete':
      return 'onhold';
    case 'paused':
      return 'paused';
    default:
      return 'canceled';
  }
}

type StripeObject = Record<string, unknown>;
const isObject = (v: unknown): v is StripeObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const seconds = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v * 1000 : null);

/** The end of a subscription's paid period, ms (API versions before 2025 had it on the subscription, later on its items). */
function periodEnd(subscription: StripeObject): number | null {
  const items = isObject(subscription.items) && Array.isArray(subscription.items.data) ? subscription.items.data : [];
  const item = items.find(isObject);
  return seconds(item?.current_period_end) ?? seconds(subscription.current_period_end) ?? seconds(subscription.cancel_at);
}

const userIdOf = (object: StripeObject): string | null => {
  if (typeof object.client_reference_id === 'string') return object.client_reference_id;
  const metadata = isObject(object.metadata) ? object.metadata : {};
  return typeof metadata.userId === 'string' ? metadata.userId : null;
};

/** The user and subscription info an event sets, or null for an event we do not act on. */
export function subscriptionUpdate(event: { type: string; data: { object: unknown } }, now: number): { userId: string; info: SubscriptionInfo } | null {
  const object = event.data.object;
  if (!isObject(object)) return null;
  const userId = userIdOf(object);
  if (!userId) return null;
  const base = { state: 'ok', platform: PLATFORM, tier: 'premium', isSubscription: true };
  switch (event.type) {
    case 'checkout.session.completed':
      if (object.mode !== 'subscription' || (object.payment_status !== 'paid' && object.payment_status !== 'no_payment_required')) return null;
      return { userId, info: { ...base, status: 'active', isTrial: object.payment_status === 'no_payment_required', expiresAt: null } };
    case 'customer.subscription.created':
    case 'customer.subscription.updated': {
      const stripeStatus = typeof object.status === 'string' ? object.status : 'canceled';
      return { userId, info: { ...base, status: statusOfStripe(stripeStatus), isTrial: stripeStatus === 'trialing', expiresAt: periodEnd(object) } };
    }
    case 'customer.subscription.deleted':
      return { userId, info: { ...base, status: 'canceled', isTrial: false, expiresAt: seconds(object.ended_at) ?? now } };
    default:
      return null;
  }
}

function origin(request: FastifyRequest, config: StripeConfig): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

/**
 * The Stripe SDK, imported on first use: most servers take no payments, and its import took ~150 ms
 * of every server start.
 */
let sdk: Promise<typeof Stripe> | null = null;
const stripeSdk = () => (sdk ??= import('stripe').then((m) => m.default));

export async function stripeRoutes(app: FastifyInstance, options: StripeRouteOptions): Promise<void> {
  const config = options.config ?? stripeConfigFromEnv();
  const now = options.now ?? Date.now;
  const { accounts } = options;
  let client = options.client ?? null;
  const checkoutClient = async (): Promise<CheckoutClient | null> => {
    if (!config.secretKey || !config.priceId) return null;
    client ??= new (await stripeSdk())(config.secretKey);
    return client;
  };

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  app.post<{ Body: { priceId?: string } | undefined }>(CHECKOUT_PATH, {
    onRequest: requireUser(accounts),
    bodyLimit: 4096,
    schema: {
      body: { type: ['object', 'null'], additionalProperties: false, properties: { priceId: { type: 'string', pattern: '^price_[A-Za-z0-9]{1,64}$' } } },
      response: { 200: CHECKOUT_ANSWER, '4xx': ERROR_RESPONSE_SCHEMA, '5xx': ERROR_RESPONSE_SCHEMA },
    },
  }, async (request) => {
    const stripe = await checkoutClient();
    if (!stripe) throw new HttpError(503, PAYMENTS_NOT_CONFIGURED);
    const { user } = principal(request);
    const site = origin(request, config);
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: request.body?.priceId ?? config.priceId, quantity: 1 }],
      client_reference_id: user.id,
      customer_email: user.email,
      metadata: { userId: user.id },
      subscription_data: { metadata: { userId: user.id } },
      success_url: `${site}/pending-subscription`,
      cancel_url: `${site}/subscription`,
    });
    if (!session.url) throw new HttpError(502, 'Stripe did not answer a checkout address');
    return { id: session.id, url: session.url };
  });

  // The webhook's signature covers the exact bytes Stripe sent: keep the body raw.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post<{ Body: Buffer }>('/stripe/webhook', {
      bodyLimit: WEBHOOK_BODY_MAX_BYTES,
      schema: { response: { '4xx': ERROR_RESPONSE_SCHEMA, '5xx': ERROR_RESPONSE_SCHEMA } },
    }, async (request) => {
      if (!config.webhookSecret) throw new HttpError(503, WEBHOOK_NOT_CONFIGURED);
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) throw badRequest(BAD_SIGNATURE);
      const sdkClass = await stripeSdk();
      let event: Stripe.Event;
      try {
        event = sdkClass.webhooks.constructEvent(request.body, signature, config.webhookSecret);
      } catch {
        throw badRequest(BAD_SIGNATURE);
      }
      const update = subscriptionUpdate(event as unknown as { type: string; data: { object: unknown } }, now());
      if (!update) return { received: true, handled: false };
      const found = await accounts.setSubscription(update.userId, update.info);
      if (!found) request.log.warn({ event: event.id, type: event.type }, 'Stripe event for an unknown user ignored');
      else request.log.info({ event: event.id, type: event.type, status: update.info.status }, 'subscription updated from Stripe');
      return { received: true, handled: found };
    });
  });
}
