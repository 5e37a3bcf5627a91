/**
 * Stripe Checkout and its signed webhooks (routes/stripe.ts), with the SDK's own test signatures
 * (Stripe.webhooks.generateTestHeaderString) and a fake checkout client: no network.
 */

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { buildApp, type AppOptions } from '../app.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { makeSqliteTestDatabase, type TestDatabase } from '../db/testing.ts';
import { isPremium } from '../../common/entitlements.ts';
import { BAD_SIGNATURE, PAYMENTS_NOT_CONFIGURED, statusOfStripe, subscriptionUpdate, type CheckoutClient } from './stripe.ts';
import { bearer, registerUser, TEST_KDF, type TestUser } from './testing.ts';

const SECRET = 'whsec_test_secret';
const NOW = Date.UTC(2025, 10, 26, 12);

async function appWith(db: Database, stripe: AppOptions['stripe']) {
  return buildApp({ now: () => NOW, distDir: null, prewarm: false, dataDir: null, accounts: { database: db, kdf: TEST_KDF }, stripe });
}

describe('Stripe Checkout and webhooks', () => {
  let made: TestDatabase;
  let db: Database;
  let app: FastifyInstance;
  let bare: FastifyInstance;
  let user: TestUser;
  const create = vi.fn(async (params: Stripe.Checkout.SessionCreateParams) => ({ id: 'cs_test_1', url: `https://checkout.stripe.test/${String(params.client_reference_id)}` }));
  const client: CheckoutClient = { checkout: { sessions: { create } } };

  beforeAll(async () => {
    made = await makeSqliteTestDatabase();
    db = await openDatabase(made.config);
    app = await appWith(db, { config: { secretKey: 'sk_test_x', priceId: 'price_premium', webhookSecret: SECRET, publicUrl: 'https://isobar.test/' }, client });
    bare = await appWith(db, { config: {} });
    user = await registerUser(app);
  });
  afterAll(async () => {
    await app.close();
    await bare.close();
    await db.close();
    await made.cleanup();
  });

  const post = (target: FastifyInstance, event: unknown, secret = SECRET, tamper = false) => {
    const payload = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
    return target.inject({
      method: 'POST', url: '/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload: tamper ? payload.replace('active', 'trialing') : payload,
    });
  };
  const event = (type: string, object: Record<string, unknown>) => ({ id: `evt_${type}`, object: 'event', type, data: { object } });
  const subscriptionOf = async () => (await app.accounts.findByEmail(user.email))?.subscription ?? null;

  it('creates a Checkout Session for the logged-in user', async () => {
    const response = await app.inject({ method: 'POST', url: '/users/v1/subscription/checkout', headers: bearer(user.token) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 'cs_test_1', url: `https://checkout.stripe.test/${user.id}` });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(create).toHaveBeenCalledWith(expect.objectContaining({
      mode: 'subscription', line_items: [{ price: 'price_premium', quantity: 1 }], client_reference_id: user.id, customer_email: user.email,
      subscription_data: { metadata: { userId: user.id } }, success_url: 'https://isobar.test/pending-subscription', cancel_url: 'https://isobar.test/subscription',
    }));
  });

  it('needs a login for checkout (401), and answers 503 without a Stripe key', async () => {
    expect((await app.inject({ method: 'POST', url: '/users/v1/subscription/checkout' })).statusCode).toBe(401);
    const response = await bare.inject({ method: 'POST', url: '/users/v1/subscription/checkout', headers: bearer(user.token) });
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toBe(PAYMENTS_NOT_CONFIGURED);
  });

  it('refuses a webhook with a wrong secret, a changed body or no signature (400), and without a secret (503)', async () => {
    const completed = event('checkout.session.completed', { object: 'checkout.session', mode: 'subscription', payment_status: 'paid', client_reference_id: user.id, status: 'active' });
    for (const response of [await post(app, completed, 'whsec_other'), await post(app, completed, SECRET, true)]) {
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(BAD_SIGNATURE);
    }
    expect((await app.inject({ method: 'POST', url: '/stripe/webhook', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(completed) })).statusCode).toBe(400);
    expect((await post(bare, completed)).statusCode).toBe(503);
    expect(await subscriptionOf()).toBeNull();
  });

  it('follows a subscription through checkout, renewal trouble and cancellation', async () => {
    let response = await post(app, event('checkout.session.completed', { object: 'checkout.session', mode: 'subscription', payment_status: 'paid', client_reference_id: user.id }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true, handled: true });
    expect(await subscriptionOf()).toMatchObject({ status: 'active', tier: 'premium', platform: 'stripe' });
    expect(isPremium(await subscriptionOf(), NOW)).toBe(true);

    const periodEnd = Math.floor(NOW / 1000) + 30 * 86400;
    response = await post(app, event('customer.subscription.updated', { object: 'subscription', status: 'past_due', metadata: { userId: user.id }, items: { data: [{ current_period_end: periodEnd }] } }));
    expect(response.statusCode).toBe(200);
    expect(await subscriptionOf()).toMatchObject({ status: 'graced', expiresAt: periodEnd * 1000 });
    expect(isPremium(await subscriptionOf(), NOW)).toBe(false);

    await post(app, event('customer.subscription.updated', { object: 'subscription', status: 'active', metadata: { userId: user.id }, items: { data: [{ current_period_end: periodEnd }] } }));
    expect(isPremium(await subscriptionOf(), NOW)).toBe(true);

    await post(app, event('customer.subscription.deleted', { object: 'subscription', status: 'canceled', metadata: { userId: user.id }, ended_at: Math.floor(NOW / 1000) }));
    expect(await subscriptionOf()).toMatchObject({ status: 'canceled', expiresAt: NOW });
    expect(isPremium(await subscriptionOf(), NOW)).toBe(false);
  });

  it('acknowledges events it does not act on, and events for unknown users', async () => {
    expect((await post(app, event('invoice.paid', { object: 'invoice' }))).json()).toEqual({ received: true, handled: false });
    expect((await post(app, event('customer.subscription.updated', { object: 'subscription', status: 'active', metadata: { userId: 'nobody' } }))).json())
      .toEqual({ received: true, handled: false });
  });
});

describe('Stripe status -> SPEC §4 status', () => {
  it.each([
    ['active', 'active'], ['trialing', 'active'], ['past_due', 'graced'], ['unpaid', 'onhold'], ['incomplete', 'onhold'],
    ['paused', 'paused'], ['canceled', 'canceled'], ['incomplete_expired', 'canceled'],
  ])('%s -> %s', (stripe, spec) => {
    expect(statusOfStripe(stripe)).toBe(spec);
  });

  it('an unpaid checkout does not activate', () => {
    expect(subscriptionUpdate({ type: 'checkout.session.completed', data: { object: { mode: 'subscription', payment_status: 'unpaid', client_reference_id: 'u' } } }, NOW)).toBeNull();
  });
});
