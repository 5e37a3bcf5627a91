/**
 * Headers on every response. The app is cross-origin isolated (COOP same-origin + COEP
 * require-corp) so the render worker gets precise timers and may share WASM memory
 * (TOOLCHAIN.md "Zero copy"); CORP same-origin lets our own documents embed our resources under
 * COEP. The Content-Security-Policy allows only our origin, plus what the engine needs:
 * 'wasm-unsafe-eval' to compile the WASM module, 'unsafe-eval' because regl builds its draw
 * commands with new Function (TOOLCHAIN.md), blob: workers, data: and blob: images, and https
 * images (an account's avatar). A webcam's image comes through this server's relay
 * (server/webcams/imageRelay.ts): under COEP the page cannot load one from a host without CORP.
 *
 * Strict-Transport-Security goes with answers to requests that came over TLS: directly (the socket
 * is encrypted) or through a trusted reverse proxy that says so in X-Forwarded-Proto (Fastify's
 * request.protocol reads it only from proxies ISOBAR_TRUST_PROXY trusts). Over plain HTTP it means
 * nothing to a browser (RFC 6797 §7.2) and would pin a development host to HTTPS.
 */

import type { FastifyInstance } from 'fastify';

/** The policy; connectOrigins are other hosts the render worker fetches from (configured base map tiles, routes/basemaps.ts). */
export function contentSecurityPolicy(connectOrigins: readonly string[] = []): string {
  return CSP_DIRECTIVES.map((d) => (d === "connect-src 'self'" && connectOrigins.length ? `${d} ${connectOrigins.join(' ')}` : d)).join('; ');
}

const CSP_DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'",
  "worker-src 'self' blob:",
  "img-src 'self' data: blob: https:",
  // React sets style attributes and Vite may inject <style> in development.
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
];

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
  'cross-origin-resource-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/** RFC 6797: one year, subdomains included (the app has no plain-HTTP subdomains to keep). */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/** Adds the headers on the root instance, so they reach every route, 404 and error. */
export function addSecurityHeaders(app: FastifyInstance, connectOrigins: readonly string[] = []): void {
  const csp = contentSecurityPolicy(connectOrigins);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    reply.header('content-security-policy', csp);
    if (request.protocol === 'https') reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    done();
  });
}
