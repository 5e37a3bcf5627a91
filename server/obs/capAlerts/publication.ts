/**
 * Publication of the active warnings under `{dataDir}/obs/warnings/` (server/obs/core/store.ts),
 * served at /obs/v1.0/warnings/... (contract common/api/capAlerts.ts):
 *
 *   sources/{sourceId}.json   one source's active alerts (CapAlert[]), written by its poll
 *   capAlerts.json            every source's alerts together, with each source's attribution: what
 *                             GET /capalerts/{lat}/{lon} reads (capAlertsRoute.ts)
 *   capAlerts.geojson         the same alerts for the map: one Feature per area (MultiPolygon; a
 *                             circle as a 64-gon), properties id, severity, colour, event
 *   manifest.json             written last: when, which sources, how many alerts
 *
 * Each source publishes its own file, then the combined documents are rebuilt from all sources'
 * files, one rebuild at a time in this process, each file written by rename: a reader sees the old
 * set or the new one.
 */

import {
  CAP_SEVERITY_COLOURS, severityRank, type CapAlert, type CapArea,
} from '../../../common/capAlerts.ts';
import {
  CAP_ALERTS_DOCUMENT, CAP_ALERTS_GEOJSON, CAP_ALERTS_MANIFEST, type CapAlertsDocument,
} from '../../../common/api/capAlerts.ts';
import type { ObsStore } from '../core/store.ts';

const KIND = 'warnings' as const;

export interface PublishedSource {
  id: string;
  label: string;
  attribution: string;
  updated: number;
  alerts: CapAlert[];
}

/** Vertices of a circle's outline (CAP circles are drawn as polygons). */
const CIRCLE_VERTICES = 64;

/** A ring around a circle, on the sphere: destination points by bearing (Sinnott / Aviation Formulary, Williams, "Lat/lon given radial and distance"). */
export function circleRing(lon: number, lat: number, radiusKm: number, vertices = CIRCLE_VERTICES): number[] {
  const rad = Math.PI / 180;
  const d = radiusKm / 6371.0088;
  const lat1 = lat * rad;
  const ring: number[] = [];
  for (let i = 0; i <= vertices; i++) {
    const bearing = ((i % vertices) / vertices) * 2 * Math.PI;
    const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing));
    const lon2 = lat1 === Math.PI / 2 ? 0 : lon * rad + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
    ring.push(lon2 / rad, lat2 / rad);
  }
  return ring;
}

const hex = (rgb: readonly number[]): string => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

function areaRings(area: CapArea): number[][] {
  return [...area.polygons, ...area.circles.map((c) => circleRing(c.lon, c.lat, c.radiusKm))];
}

/** The map's GeoJSON (RFC 7946): least severe first, so that the most severe is drawn on top. */
export function alertsGeoJson(alerts: readonly CapAlert[]): { type: 'FeatureCollection'; features: object[] } {
  const ordered = [...alerts].sort((a, b) => severityRank(b.severity) - severityRank(a.severity));
  return {
    type: 'FeatureCollection',
    features: ordered.flatMap((alert) => alert.areas.map((area) => ({
      type: 'Feature',
      geometry: {
        type: 'MultiPolygon',
        coordinates: areaRings(area).map((ring) => [Array.from({ length: ring.length / 2 }, (_, i) => [ring[2 * i], ring[2 * i + 1]])]),
      },
      properties: {
        id: alert.id,
        severity: alert.severity,
        colour: hex(CAP_SEVERITY_COLOURS[alert.severity]),
        event: alert.texts[0]?.event ?? '',
        areaDesc: area.areaDesc,
      },
    }))),
  };
}

let rebuilding: Promise<unknown> = Promise.resolve();

/**
 * Publishes one source's alerts and rebuilds the combined documents from every source's file.
 * Sources no longer configured keep their last file until it expires: its alerts are filtered by
 * `now` here too.
 */
export async function publishSourceAlerts(store: ObsStore, source: PublishedSource, now: number): Promise<void> {
  await store.writeJson(KIND, `sources/${source.id}.json`, source);
  const run = rebuilding.then(async () => {
    const sources: PublishedSource[] = [];
    for (const name of await store.list(KIND, 'sources')) {
      if (!name.endsWith('.json')) continue;
      const published = await store.readJson<PublishedSource>(KIND, `sources/${name}`);
      if (published) sources.push(published);
    }
    const alerts = sources.flatMap((s) => s.alerts.filter((a) => a.expires > now));
    const document: CapAlertsDocument = {
      updated: now,
      sources: sources.map(({ id, label, attribution, updated }) => ({ id, label, attribution, updated })),
      alerts,
    };
    await store.writeJson(KIND, CAP_ALERTS_DOCUMENT, document);
    await store.writeJson(KIND, CAP_ALERTS_GEOJSON, alertsGeoJson(alerts));
    await store.writeJson(KIND, CAP_ALERTS_MANIFEST, { updated: now, count: alerts.length, sources: document.sources });
  });
  rebuilding = run.catch(() => undefined);
  await run;
}
