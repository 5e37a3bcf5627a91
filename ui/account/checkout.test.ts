import { describe, expect, it, vi } from 'vitest';
import { startCheckout } from './checkout.ts';
import { HttpError } from '../http/httpError.ts';
import type { AccountRequest } from './request.ts';

const answering = (status: number, data: unknown): AccountRequest => vi.fn(async () => ({ status, data })) as unknown as AccountRequest;
const failing = (status: number): AccountRequest => vi.fn(async () => {
  throw new HttpError(status, 'Request failed for URL /users/v1/subscription/checkout', '{}');
}) as unknown as AccountRequest;

describe('startCheckout', () => {
  it('goes to the Checkout address the server answers', async () => {
    const go = vi.fn();
    const request = answering(200, { id: 'cs_1', url: 'https://checkout.stripe.com/c/pay/cs_1' });
    expect(await startCheckout(request, go)).toEqual({ kind: 'redirected', url: 'https://checkout.stripe.com/c/pay/cs_1' });
    expect(request).toHaveBeenCalledWith('POST', '/users/v1/subscription/checkout', {});
    expect(go).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_1');
  });

  it('never leaves for an address that is not https (or a local test server)', async () => {
    for (const url of ['javascript:alert(1)', 'http://evil.example/pay', '//evil.example', 'not a url', 42, null]) {
      const go = vi.fn();
      expect((await startCheckout(answering(200, { url }), go)).kind).toBe('failed');
      expect(go).not.toHaveBeenCalled();
    }
    const go = vi.fn();
    expect((await startCheckout(answering(200, { url: 'http://127.0.0.1:9000/pay' }), go)).kind).toBe('redirected');
  });

  it('503 means no payments on this server; other errors fail with their status', async () => {
    expect(await startCheckout(failing(503), vi.fn())).toEqual({ kind: 'unavailable' });
    expect(await startCheckout(failing(401), vi.fn())).toEqual({ kind: 'failed', status: 401 });
    expect(await startCheckout(failing(0), vi.fn())).toEqual({ kind: 'failed', status: 0 });
  });
});
