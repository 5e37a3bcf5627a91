/**
 * Headers on every response. The app is cross-origin isolated (COOP same-origin + COEP
 * require-corp) so the render worker gets precise timers and may share WASM memory
 * (TOOLCHAIN.md "Zero copy"); CORP same-origin lets our own documents embed our resources under
 * COEP. The Content-Security-Policy allows only our origin, plus what the engine needs:
 * 'wasm-unsafe-eval' to compile the WASM module, 'unsafe-eval' because regl builds its draw
 * commands with new Function (TOOLCHAIN.md), blob: workers, data: and blob: images.
 */

import type { FastifyInstance } from 'fastify';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'",
  "worker-src 'self' blob:",
  "img-src 'self' data: blob:",
  // React sets style attributes and Vite may inject <style> in development.
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
  'cross-origin-resource-policy': 'same-origin',
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/** Adds the headers on the root instance, so they reach every route, 404 and error. */
export function addSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
}
