/**
 * The built app (Vite output in dist/) with a single-page-app fallback: a browser navigating to a
 * client route such as /50.1/14.2 or /fr/settings gets index.html, while API paths and requests
 * that do not ask for HTML get a JSON 404. Hashed assets under /assets/ never change, so they are
 * cached for a year; everything else (index.html first) is revalidated on every use.
 */

import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { notFound } from '../http/httpError.ts';

/** Paths that belong to the HTTP API, never to the client router. */
const API_PREFIXES = ['/tiles/', '/metadata/', '/forecast/', '/api/', '/search/', '/reverse/', '/users/', '/notif/', '/labels/', '/citytile/', '/sedlina/', '/services/', '/basemap/'] as const;
const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const REVALIDATE_CACHE_CONTROL = 'no-cache';

function isApiPath(url: string): boolean {
  return API_PREFIXES.some((prefix) => url.startsWith(prefix) || `${url}/` === prefix);
}

function wantsHtml(request: FastifyRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && (request.headers.accept ?? '').includes('text/html');
}

/** Whether dist/ holds a built app. */
function hasBuiltApp(distDir: string): boolean {
  return existsSync(join(distDir, 'index.html'));
}

/**
 * Serves distDir when it holds a build and installs the not-found handler (SPA fallback when
 * the build is there, JSON 404 always for the API).
 */
export async function registerStaticApp(app: FastifyInstance, distDir: string | null): Promise<void> {
  const serveApp = distDir !== null && hasBuiltApp(distDir);
  if (serveApp) {
    const assetsDir = `${sep}assets${sep}`;
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: true,
      // The build writes .gz beside the big assets (the basemap meshes): sent as stored, not recompressed.
      preCompressed: true,
      // We set Cache-Control ourselves (below): send's default would override it.
      cacheControl: false,
      setHeaders(res, path) {
        res.setHeader('cache-control', path.includes(assetsDir) ? ASSET_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL);
      },
    });
  }
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0];
    if (serveApp && wantsHtml(request) && !isApiPath(path)) {
      return reply.sendFile('index.html');
    }
    const error = notFound(`No route for ${request.method} ${path}`);
    return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: error.message });
  });
}
