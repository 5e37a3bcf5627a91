/**
 * GET /capalerts/{lat}/{lon}?lang&maxCount&source (SPEC §7; contract common/api/capAlerts.ts): the
 * published alerts over a place (publication.ts's capAlerts.json), most severe first, at most
 * maxCount (SPEC §9: 6), each in the user's language when the alert carries it. The document is
 * re-read when its modification time changes and held with a grid index of its areas' bounds
 * (pointIndex.ts), so a request tests only the areas whose box holds the place.
 */

import type { FastifyInstance } from 'fastify';
import {
  CAP_ALERTS_MAX_COUNT, CAP_SEVERITY_COLOURS, areaContains, severityRank, textForLanguage, type CapAlert,
} from '../../../common/capAlerts.ts';
import {
  CAP_ALERTS_ANSWER, CAP_ALERTS_DOCUMENT, CAP_ALERTS_QUERY, CAP_ALERTS_ROUTE,
  type CapAlertAnswer, type CapAlertsAnswer, type CapAlertsDocument,
} from '../../../common/api/capAlerts.ts';
import { COORDINATE_SCHEMA, parseCoordinate } from '../../http/coordinates.ts';
import { ERROR_RESPONSE_SCHEMA } from '../../http/httpError.ts';
import type { ObjectStore } from '../../storage/objectStore.ts';
import { ObsStore } from '../core/store.ts';
import { AreaIndex } from './pointIndex.ts';

const schema = {
  params: { type: 'object', required: ['lat', 'lon'], properties: { lat: COORDINATE_SCHEMA, lon: COORDINATE_SCHEMA } },
  querystring: CAP_ALERTS_QUERY,
  response: { 200: CAP_ALERTS_ANSWER, '4xx': ERROR_RESPONSE_SCHEMA },
} as const;

/** How long an answer may be cached: the published set changes at most every poll (sources.ts). */
const CACHE_S = 60;

interface Loaded {
  mtimeMs: number;
  document: CapAlertsDocument;
  index: AreaIndex<{ alert: CapAlert; area: number }>;
  attribution: Map<string, string>;
}

const hex = (rgb: readonly number[]): string => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

export async function capAlertsRoutes(app: FastifyInstance, options: { dataDir: string | null; now?: () => number; storage?: ObjectStore }): Promise<void> {
  const store = options.dataDir === null ? null : new ObsStore(options.dataDir, options.storage);
  const now = options.now ?? Date.now;
  let loaded: Loaded | null = null;

  async function load(): Promise<Loaded | null> {
    if (store === null) return null;
    const mtimeMs = await store.modified('warnings', CAP_ALERTS_DOCUMENT).catch(() => null);
    if (mtimeMs === null) return null;
    if (loaded?.mtimeMs === mtimeMs) return loaded;
    const document = await store.readJson<CapAlertsDocument>('warnings', CAP_ALERTS_DOCUMENT);
    if (document === null) return null;
    const index = new AreaIndex<{ alert: CapAlert; area: number }>();
    for (const alert of document.alerts) alert.areas.forEach((area, i) => index.insert(area, { alert, area: i }));
    loaded = { mtimeMs, document, index, attribution: new Map(document.sources.map((s) => [s.id, s.attribution])) };
    return loaded;
  }

  app.get<{ Params: { lat: string; lon: string }; Querystring: { lang?: string; maxCount?: number } }>(CAP_ALERTS_ROUTE, { schema }, async (request, reply): Promise<CapAlertsAnswer> => {
    const lat = parseCoordinate(request.params.lat, 'lat');
    const lon = parseCoordinate(request.params.lon, 'lon');
    const wrapped = ((((lon + 180) % 360) + 360) % 360) - 180;
    const { lang = 'en', maxCount = CAP_ALERTS_MAX_COUNT } = request.query;
    const data = await load();
    reply.header('cache-control', `public, max-age=${CACHE_S}`);
    if (data === null) return { lat, lon, updated: null, alerts: [] };
    const time = now();
    const hits = new Map<string, { alert: CapAlert; areas: number[] }>();
    for (const { alert, area } of data.index.candidates(wrapped, lat)) {
      const a = alert.areas[area];
      if (alert.expires <= time || !areaContains(a, wrapped, lat)) continue;
      const hit = hits.get(alert.id) ?? { alert, areas: [] };
      hit.areas.push(area);
      hits.set(alert.id, hit);
    }
    const alerts = [...hits.values()]
      .sort((a, b) => severityRank(a.alert.severity) - severityRank(b.alert.severity) || a.alert.onset - b.alert.onset)
      .slice(0, maxCount)
      .map(({ alert, areas }): CapAlertAnswer => {
        const text = textForLanguage(alert.texts, lang);
        return {
          id: alert.id, provider: alert.provider, severity: alert.severity, urgency: alert.urgency, certainty: alert.certainty,
          colour: hex(CAP_SEVERITY_COLOURS[alert.severity]),
          sent: alert.sent, onset: alert.onset, effective: alert.effective, expires: alert.expires,
          language: text?.language ?? '', event: text?.event ?? '', headline: text?.headline ?? '', description: text?.description ?? '',
          instruction: text?.instruction ?? '', senderName: text?.senderName ?? '', sender: alert.sender, web: text?.web ?? '',
          // The area's name in the text's language where the block gives one for every area.
          areaDesc: areas.map((i) => (text?.areaNames.length === alert.areas.length ? text.areaNames[i] : alert.areas[i].areaDesc)).join('; '),
          attribution: data.attribution.get(providerSource(alert.provider)) ?? '',
        };
      });
    return { lat, lon, updated: data.document.updated, alerts };
  });
}

/** The source id (sources.ts) of a provider name the readers write. */
const providerSource = (provider: string): string => ({ nws: 'nwsAlerts', eccc: 'ecccAlerts' } as Record<string, string>)[provider] ?? provider;
