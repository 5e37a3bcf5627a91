/**
 * The warning sources end to end on the server: the fixture server replays the real ECCC and NWS
 * files in their upstreams' URL layout, the poller publishes, GET /capalerts/{lat}/{lon} answers.
 */

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAP_ALERTS_ANSWER, capAlertsPath } from '../../../common/api/capAlerts.ts';
import { schemaProblem } from '../../../common/api/schema.ts';
import { buildApp } from '../../app.ts';
import { SourceHttp } from '../../live/http.ts';
import { FixtureServer } from '../../live/fixtureServer.ts';
import { describeWithFixtures } from '../../live/testing.ts';
import { startObsPoller } from '../core/poller.ts';
import { circleRing } from './publication.ts';
import { ecccAlertsSource, meteoAlarmSource, nwsAlertsSource } from './sources.ts';
import { ECCC_FIXTURE_NOW, readWarningFixture, WARNING_FIXTURE } from './testing.ts';

const FROST_FILE = WARNING_FIXTURE.ecccFrost.split('/').pop()!.replace(/^eccc_cap12_CWHX_202210101814_/, '');
const AIR_FILE = WARNING_FIXTURE.ecccAirQuality.split('/').pop()!.replace(/^eccc_cap12_CWVR_202210101743_/, '');

function logger() {
  const lines: { level: string; obj: Record<string, unknown>; msg?: string }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, obj: obj as Record<string, unknown>, msg });
  return { lines, log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

describeWithFixtures('warning sources against the fixture server', () => {
  let upstream: FixtureServer;
  let dataDir: string;
  let app: FastifyInstance;
  const http = new SourceHttp({ retry: { attempts: 1 } });

  beforeAll(async () => {
    upstream = await FixtureServer.start();
    upstream.listFolders = true;
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-warnings-'));
    // dd.weather.gc.ca/alerts/cap/{YYYYMMDD}/{office}/{HH}/{file}.cap
    upstream.files.set(`/alerts/cap/20221010/CWHX/18/${FROST_FILE}`, new TextEncoder().encode(await readWarningFixture('ecccFrost')));
    upstream.files.set(`/alerts/cap/20221010/CWVR/17/${AIR_FILE}`, new TextEncoder().encode(await readWarningFixture('ecccAirQuality')));
    upstream.files.set('/alerts/cap/20221010/CWVR/17/broken.cap', new TextEncoder().encode('<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"><identifier>x</identifier>'));
    app = await buildApp({ now: () => ECCC_FIXTURE_NOW, distDir: null, prewarm: false, dataDir, liveSources: null, obs: { sources: [] } });
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('publishes the ECCC alerts of the dd layout and answers the point route in English and French', async () => {
    const { lines, log } = logger();
    const source = ecccAlertsSource({ ISOBAR_ECCC_DD_URL: upstream.url });
    const poller = startObsPoller({ sources: [source], dataDir, logger: log, http, pollOnStart: false, now: () => ECCC_FIXTURE_NOW });
    try {
      expect(await poller.pollNow('ecccAlerts')).toEqual({ ok: true });
    } finally {
      await poller.stop();
    }
    // The broken file is named and left out; the ended air-quality segment had expired at 18:43:34Z.
    expect(lines.find((l) => l.msg === 'warning file refused')?.obj).toMatchObject({ source: 'ecccAlerts', file: `${upstream.url}/alerts/cap/20221010/CWVR/17/broken.cap` });
    expect(lines.filter((l) => l.msg === 'warning dropped').map((l) => l.obj.reason)).toContain('expired at 2022-10-10T18:43:34.000Z');

    const geojson = JSON.parse(await readFile(join(dataDir, 'obs/warnings/capAlerts.geojson'), 'utf8')) as { features: { properties: { severity: string; colour: string; areaDesc: string } }[] };
    expect(geojson.features).toHaveLength(21 + 2);
    expect(geojson.features.find((f) => f.properties.areaDesc === 'Kings County')?.properties).toMatchObject({ severity: 'Moderate', colour: '#ffff00' });
    const manifest = JSON.parse(await readFile(join(dataDir, 'obs/warnings/manifest.json'), 'utf8')) as { count: number };
    expect(manifest.count).toBe(2);

    // Kentville, Nova Scotia (45.077 N, 64.496 W), Kings County
    const en = await app.inject({ url: capAlertsPath(45.077, -64.496) });
    expect(en.statusCode).toBe(200);
    expect(schemaProblem(CAP_ALERTS_ANSWER, en.json(), 'answer')).toBeNull();
    expect(en.json().alerts).toMatchObject([{ headline: 'frost advisory in effect', language: 'en-CA', areaDesc: 'Kings County', severity: 'Moderate', colour: '#ffff00', senderName: 'Environment Canada', provider: 'eccc' }]);
    expect(en.json().alerts[0].attribution).toMatch(/Environment and Climate Change Canada/);
    const fr = await app.inject({ url: capAlertsPath(45.077, -64.496, { lang: 'fr' }) });
    expect(fr.json().alerts).toMatchObject([{ headline: 'avis de gel en vigueur', language: 'fr-CA', areaDesc: 'comté de Kings' }]);
    // German is not in the alert: its own first language
    expect((await app.inject({ url: capAlertsPath(45.077, -64.496, { lang: 'de' }) })).json().alerts[0].language).toBe('en-CA');
    // The map wraps: the same place one turn east
    expect((await app.inject({ url: capAlertsPath(45.077, -64.496 + 360) })).json().alerts).toHaveLength(1);
    // Open sea far from any area
    expect((await app.inject({ url: capAlertsPath(40, -40) })).json().alerts).toEqual([]);
  });

  it('refuses bad input with a 400 that says what is wrong', async () => {
    for (const [url, message] of [
      ['/capalerts/95/10', /latitude/],
      ['/capalerts/45/abc', /longitude/],
      [`${capAlertsPath(45, -64)}?maxCount=7`, /maxCount/],
      [`${capAlertsPath(45, -64)}?lang=${encodeURIComponent('<x>')}`, /lang/],
    ] as const) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toMatch(message);
    }
  });

  it('outlines zone-only NWS alerts from /zones, fetched once per zone', async () => {
    upstream.files.set('/alerts/active', new TextEncoder().encode(await readWarningFixture('nwsZone')));
    // Zone outlines built for this test from the API's documented /zones/{type}/{id} shape (a
    // GeoJSON Feature): NOT recorded answers, squares rather than the zones' real outlines.
    const alert = JSON.parse(await readWarningFixture('nwsZone')) as { features: { properties: { affectedZones: string[] } }[] };
    alert.features[0].properties.affectedZones.forEach((url, i) => {
      const path = new URL(url).pathname;
      const [west, south] = [-124 + (i % 4), 45 + Math.floor(i / 4)];
      upstream.files.set(path, new TextEncoder().encode(JSON.stringify({
        type: 'Feature', id: url, properties: { id: path.split('/').pop(), type: 'public' },
        geometry: { type: 'Polygon', coordinates: [[[west, south], [west + 1, south], [west + 1, south + 1], [west, south + 1], [west, south]]] },
      })));
    });
    const source = nwsAlertsSource({ ISOBAR_NWS_API_URL: upstream.url });
    // 2019-12-20 22:00Z: the Flood Watch was sent 21:34Z and expires 13:30Z the next day.
    const now = Date.UTC(2019, 11, 20, 22);
    const poller = startObsPoller({ sources: [source], dataDir, logger: logger().log, http, pollOnStart: false, now: () => now });
    try {
      expect(await poller.pollNow('nwsAlerts')).toEqual({ ok: true });
      const zoneRequests = () => upstream.log.filter((r) => r.path.startsWith('/zones/')).length;
      expect(zoneRequests()).toBe(11);
      expect(await poller.pollNow('nwsAlerts')).toEqual({ ok: true });
      expect(zoneRequests()).toBe(11);
    } finally {
      await poller.stop();
    }
    const published = JSON.parse(await readFile(join(dataDir, 'obs/warnings/sources/nwsAlerts.json'), 'utf8')) as { alerts: { areas: { areaDesc: string; polygons: number[][] }[] }[] };
    expect(published.alerts).toHaveLength(1);
    expect(published.alerts[0].areas).toHaveLength(11);
    expect(published.alerts[0].areas[0]).toMatchObject({ areaDesc: 'North Oregon Coast', polygons: [[-124, 45, -123, 45, -123, 46, -124, 46, -124, 45]] });
  });

  it('fails the poll with a named error when the feed is not what it should be, keeping the last publication', async () => {
    upstream.files.set('/alerts/active', new TextEncoder().encode('{"type":"Featu'));
    const source = nwsAlertsSource({ ISOBAR_NWS_API_URL: upstream.url });
    const before = await readFile(join(dataDir, 'obs/warnings/sources/nwsAlerts.json'), 'utf8');
    const poller = startObsPoller({ sources: [source], dataDir, logger: logger().log, http, pollOnStart: false, now: () => Date.UTC(2019, 11, 20, 22) });
    try {
      const outcome = await poller.pollNow('nwsAlerts');
      expect(outcome.ok).toBe(false);
      expect(String((outcome as { error: Error }).error.message)).toMatch(/^nwsAlerts: .*alerts\/active: not JSON/);
    } finally {
      await poller.stop();
    }
    expect(await readFile(join(dataDir, 'obs/warnings/sources/nwsAlerts.json'), 'utf8')).toBe(before);
  });

  it('reads MeteoAlarm feeds and their linked CAP messages (built from the documentation: no recorded feed)', async () => {
    const cap = (await readWarningFixture('ecccFrost'));
    upstream.files.set('/feeds/meteoalarm-legacy-atom-testland', new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2">
  <id>${upstream.url}/feeds/meteoalarm-legacy-atom-testland</id><title>test feed</title><updated>2022-10-10T18:20:00Z</updated>
  <entry><id>e1</id><updated>2022-10-10T18:20:00Z</updated><cap:identifier>urn:oid:2.49.0.1.124.1032737847.2022</cap:identifier>
    <link href="/api/v1/warnings/feeds-testland/e1" type="application/cap+xml"/></entry>
</feed>`));
    // The linked message is the real ECCC CAP file (MeteoAlarm serves CAP 1.2 too).
    upstream.files.set('/api/v1/warnings/feeds-testland/e1', new TextEncoder().encode(cap));
    const source = meteoAlarmSource({ ISOBAR_METEOALARM_URL: upstream.url, ISOBAR_METEOALARM_COUNTRIES: 'testland' });
    const poller = startObsPoller({ sources: [source], dataDir, logger: logger().log, http, pollOnStart: false, now: () => ECCC_FIXTURE_NOW });
    try {
      expect(await poller.pollNow('meteoalarm')).toEqual({ ok: true });
    } finally {
      await poller.stop();
    }
    const published = JSON.parse(await readFile(join(dataDir, 'obs/warnings/sources/meteoalarm.json'), 'utf8')) as { alerts: { provider: string; areas: unknown[] }[] };
    expect(published.alerts.map((a) => [a.provider, a.areas.length])).toEqual([['meteoalarm', 21]]);
  });
});

describe('circleRing', () => {
  it('puts every vertex at the radius (haversine, 1 m)', async () => {
    const { greatCircleKm } = await import('../../../common/capAlerts.ts');
    const ring = circleRing(2.35, 48.85, 25);
    expect(ring.length).toBe(2 * 65);
    for (let i = 0; i < ring.length; i += 2) expect(greatCircleKm(2.35, 48.85, ring[i], ring[i + 1])).toBeCloseTo(25, 3);
    expect(ring.slice(0, 2)).toEqual(ring.slice(-2));
  });
});
