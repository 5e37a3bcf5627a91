/**
 * Going to Stripe Checkout (server/routes/stripe.ts POST /users/v1/subscription/checkout): the
 * server makes a Checkout Session for the logged-in user and answers its address; the browser goes
 * there and comes back to /pending-subscription (paid) or /subscription (cancelled).
 */

import { CHECKOUT_ANSWER, CHECKOUT_PATH } from '../../common/api/account.ts';
import { HttpError } from '../http/httpError.ts';
import { answerOf, type AccountRequest } from './request.ts';

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
    const answer = await request<unknown>('POST', CHECKOUT_PATH, {});
    const { url } = answerOf(CHECKOUT_ANSWER, answer, CHECKOUT_PATH);
    if (!isPaymentUrl(url)) return { kind: 'failed', status: answer.status };
    go(url);
    return { kind: 'redirected', url };
  } catch (error) {
    if (error instanceof HttpError && error.status === 503) return { kind: 'unavailable' };
    return { kind: 'failed', status: error instanceof HttpError ? error.status : 0 };
  }
}
