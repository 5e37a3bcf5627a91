/**
 * Going to Stripe Checkout (server/routes/stripe.ts POST /users/v1/subscription/checkout): the
 * server makes a Checkout Session for the logged-in user and answers its address; the browser goes
 * there and comes back to /pending-subscription (paid) or /subscription (cancelled).
 */

import { HttpError, type AccountRequest } from './request.ts';

export type CheckoutResult =
  | { kind: 'redirected'; url: string }
  /** 503: no Stripe key on this server (Premium is granted by its administrator). */
  | { kind: 'unavailable' }
  | { kind: 'failed'; status: number };

/** Only an https address (http for a local test server) leaves the page. */
const isPaymentUrl = (url: unknown): url is string => {
  if (typeof url !== 'string') return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && /^(localhost|127\.0\.0\.1)$/.test(parsed.hostname));
  } catch {
    return false;
  }
};

export async function startCheckout(request: AccountRequest, go: (url: string) => void): Promise<CheckoutResult> {
  try {
    const answer = await request<{ url?: unknown }>('POST', '/users/v1/subscription/checkout', {});
    const url = answer.data?.url;
    if (!isPaymentUrl(url)) return { kind: 'failed', status: answer.status };
    go(url);
    return { kind: 'redirected', url };
  } catch (error) {
    if (error instanceof HttpError && error.status === 503) return { kind: 'unavailable' };
    return { kind: 'failed', status: error instanceof HttpError ? error.status : 0 };
  }
}
