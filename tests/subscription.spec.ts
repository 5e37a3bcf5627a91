/**
 * Premium in the browser (issue 5 item 6) against the real server: the subscription window for a
 * logged-out and a free user, the checkout button on a server without a Stripe key, the
 * pending-subscription window that Stripe Checkout returns to, switching to Premium when Stripe's
 * signed webhook arrives, and the SPEC §8 banners of the issue states (graced, canceled ending
 * soon) opening the subscription window. Webhooks are signed with the Stripe SDK's test signatures
 * and the e2e server's webhook secret (playwright.config.ts). Screenshots at the two SCREENS of
 * tests/testing.ts go to test-results/.
 */

import { expect } from '@playwright/test';
import { newContext, test } from './fixtures.ts';
import Stripe from 'stripe';
import { loginAs, newUser, SCREENS, stripeEvent } from './testing.ts';
import { HOUR_MS } from '../common/time.ts';

test.use({ locale: 'en-US', timezoneId: 'UTC' });

test('logged out, the subscription window tells what Premium gives and asks for a login', async ({ page }) => {
  await page.goto('/subscription');
  const window = page.getByTestId('subscription');
  await expect(window).toHaveAttribute('data-status', 'logged-out');
  await expect(window).toContainText('The forecast in 1-hour steps');
  await window.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('auth-login')).toBeVisible();
});

test('a forged webhook changes nothing', async ({ request }) => {
  const { id, token } = await newUser(request, 'premium');
  const payload = JSON.stringify({ id: 'evt_forged', type: 'checkout.session.completed', data: { object: { client_reference_id: id } } });
  const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_not_ours' });
  const answer = await request.post('/stripe/webhook', { data: payload, headers: { 'content-type': 'application/json', 'stripe-signature': forged } });
  expect(answer.status()).toBe(400);
  const info = await (await request.get('/api/info', { headers: { authorization: `Bearer ${token}` } })).json();
  expect(info.auth).toBe(true);
  expect(info.subscriptionInfo ?? null).toBeNull();
});

for (const { width, height, deviceScaleFactor } of SCREENS) {
  test(`free -> checkout -> pending -> Premium -> issue banners at ${width}x${height}`, async ({ browser, request }) => {
    const context = await newContext(browser, { viewport: { width, height }, deviceScaleFactor, locale: 'en-US', timezoneId: 'UTC' });
    const page = await context.newPage();
    const user = await newUser(request, 'premium');
    await loginAs(page, user.email);

    // Free: the checkout button; this server has no Stripe key, so it says Premium is granted by hand.
    await page.goto('/subscription');
    const window = page.getByTestId('subscription');
    await expect(window).toHaveAttribute('data-status', 'free');
    await expect(window).toContainText('You use the free version of Isobar.');
    await page.getByTestId('subscription-checkout').click();
    await expect(page.getByTestId('subscription-unavailable')).toContainText('Payments are not set up on this server');
    await page.screenshot({ path: `test-results/subscription-free-${width}x${height}.png`, animations: 'disabled' });

    // Back from Stripe Checkout: the pending window waits for the webhook ...
    await page.goto('/pending-subscription');
    const pending = page.getByTestId('pending-subscription');
    await expect(pending).toHaveAttribute('data-state', 'waiting');
    await page.screenshot({ path: `test-results/subscription-pending-${width}x${height}.png`, animations: 'disabled' });
    // ... and a reload while it waits opens it again (the pending state is kept).
    await page.goto('/');
    await expect(page.getByTestId('pending-subscription')).toHaveAttribute('data-state', 'waiting');
    await stripeEvent(request, 'checkout.session.completed', { object: 'checkout.session', mode: 'subscription', payment_status: 'paid', client_reference_id: user.id, status: 'complete' });
    await expect(pending).toHaveAttribute('data-state', 'done', { timeout: 10_000 });
    await expect(pending).toContainText('Premium is active');
    // Premium: the timeline's premium days are open and the window says it is active.
    await page.goto('/subscription');
    await expect(window).toHaveAttribute('data-status', 'active');
    await expect(window).toContainText('Premium is active on your account.');
    await page.screenshot({ path: `test-results/subscription-active-${width}x${height}.png`, animations: 'disabled' });
    await page.goto('/');
    await expect(page.getByTestId('pending-subscription')).toHaveCount(0);

    // The renewal fails: Stripe says past_due -> graced, the SPEC §8 banner; a click opens the window.
    const periodEnd = Math.floor((Date.now() + 30 * HOUR_MS) / 1000);
    await stripeEvent(request, 'customer.subscription.updated', { object: 'subscription', metadata: { userId: user.id }, status: 'past_due', items: { data: [{ current_period_end: periodEnd }] } });
    await page.reload();
    const banner = page.getByTestId('top-message');
    await expect(banner).toHaveText("We're having issues with renewing your subscription");
    await page.screenshot({ path: `test-results/subscription-graced-${width}x${height}.png`, animations: 'disabled' });
    await banner.click();
    await expect(window).toHaveAttribute('data-status', 'graced');
    await expect(window).toContainText("We're having issues with renewing your subscription");
    await expect(page.getByTestId('subscription-checkout')).toHaveText('Renew Premium');

    // Canceled with 30 hours left: the ends-soon text in hours (SPEC §8: up to 48 h in hours).
    await stripeEvent(request, 'customer.subscription.updated', { object: 'subscription', metadata: { userId: user.id }, status: 'canceled', items: { data: [{ current_period_end: periodEnd }] } });
    await page.goto('/');
    await expect(banner).toHaveText(/^Your Premium subscription ends in (29|30) hours$/);
    await context.close();
  });
}
