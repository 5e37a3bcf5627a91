/**
 * Strict-Transport-Security (issue 12): sent when the request came over TLS as a trusted proxy says
 * (X-Forwarded-Proto, ISOBAR_TRUST_PROXY) — an encrypted socket gives the same request.protocol —
 * and never over plain HTTP or on an untrusted client's word.
 */

import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { STRICT_TRANSPORT_SECURITY } from './securityHeaders.ts';
import type { TrustProxy } from './trustProxy.ts';

describe('Strict-Transport-Security', () => {
  let app: FastifyInstance;
  afterEach(() => app?.close());
  const start = async (trustProxy: TrustProxy) => {
    app = await buildApp({ distDir: null, dataDir: null, prewarm: false, liveSources: null, trustProxy });
  };

  it.each([
    ['a trusted proxy that says https', '127.0.0.1', 'https', STRICT_TRANSPORT_SECURITY],
    ['a trusted proxy that says http', '127.0.0.1', 'http', undefined],
    ['an untrusted client that says https', '10.9.9.9', 'https', undefined],
    ['no proxy header', '127.0.0.1', undefined, undefined],
  ])('%s', async (_what, trusted, proto, expected) => {
    await start(trusted);
    const response = await app.inject({ url: '/metadata/v1.0/products.json', headers: proto ? { 'x-forwarded-proto': proto } : {} });
    expect(response.statusCode).toBe(200);
    expect(response.headers['strict-transport-security']).toBe(expected);
  });

  it('no proxy trusted (the default): X-Forwarded-Proto is ignored', async () => {
    await start(false);
    const response = await app.inject({ url: '/metadata/v1.0/products.json', headers: { 'x-forwarded-proto': 'https' } });
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('goes on errors too (a 404 over TLS)', async () => {
    await start(true);
    const response = await app.inject({ url: '/no/such/path', headers: { 'x-forwarded-proto': 'https' } });
    expect(response.statusCode).toBe(404);
    expect(response.headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
  });
});
