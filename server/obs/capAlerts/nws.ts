/**
 * Reader of the NWS API's alerts (api.weather.gov, "API Web Service" documentation,
 * https://www.weather.gov/documentation/services-web-api): /alerts/active answers a GeoJSON-LD
 * FeatureCollection whose features carry CAP 1.2 fields in `properties` (messageType for msgType,
 * references as objects, UGC and SAME geocodes). A feature's geometry is a polygon when the warning
 * was drawn as one (storm-based warnings); otherwise it is null and the alert covers whole zones,
 * listed in `affectedZones` as URLs of /zones/{type}/{id}. Their outlines are published at those
 * URLs (a GeoJSON Feature with a Polygon or MultiPolygon), which the source fetches and caches
 * (source.ts) and readZoneGeometry reads here.
 *
 * Polygons are read as their outer rings (CAP §3.2.4 polygons have no holes; a zone's holes, if
 * any, are not cut out).
 */

import {
  CAP_CERTAINTIES, CAP_MESSAGE_TYPES, CAP_SEVERITIES, CAP_URGENCIES, capAlertId,
  type CapAlertText, type CapArea,
} from '../../../common/capAlerts.ts';
import { CapFormatError, parseCapTime, type CapMessage } from './cap.ts';

type Json = Record<string, unknown>;

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

function pick<T extends string>(value: unknown, allowed: readonly T[], field: string): T {
  const s = str(value) || 'Unknown';
  if ((allowed as readonly string[]).includes(s)) return s as T;
  throw new CapFormatError(`NWS alert ${field} "${s.slice(0, 40)}" is not one of ${allowed.join(', ')}`);
}

/** The outer rings of a GeoJSON Polygon or MultiPolygon (RFC 7946 §3.1.6-7), as flat [lon, lat] rings. */
export function geoJsonRings(geometry: unknown, what: string): number[][] {
  if (geometry === null || geometry === undefined) return [];
  const g = geometry as Json;
  const polygons = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? (g.coordinates as unknown[]) : null;
  if (!Array.isArray(polygons)) throw new CapFormatError(`${what}: geometry of type ${String(g.type)} is not a Polygon or MultiPolygon`);
  return polygons.map((polygon) => {
    const outer = Array.isArray(polygon) ? polygon[0] as unknown : null;
    if (!Array.isArray(outer) || outer.length < 4) throw new CapFormatError(`${what}: a polygon ring has fewer than four positions (RFC 7946 §3.1.6)`);
    const ring: number[] = [];
    for (const position of outer) {
      const [lon, lat] = Array.isArray(position) ? position as number[] : [];
      if (typeof lon !== 'number' || typeof lat !== 'number' || !(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) {
        throw new CapFormatError(`${what}: position ${JSON.stringify(position)?.slice(0, 40)} is not [longitude, latitude]`);
      }
      ring.push(lon, lat);
    }
    if (ring[0] !== ring[ring.length - 2] || ring[1] !== ring[ring.length - 1]) throw new CapFormatError(`${what}: a polygon ring is not closed (RFC 7946 §3.1.6)`);
    return ring;
  });
}

/** The zone id of an affectedZones URL ("https://api.weather.gov/zones/forecast/ORZ004" -> forecast/ORZ004). */
export function zonePath(url: string): string | null {
  const match = /\/zones\/([a-z]+)\/([A-Z]{2}[CZ]\d{3})$/.exec(url);
  return match ? `${match[1]}/${match[2]}` : null;
}

/** A /zones/{type}/{id} answer's outline: its outer rings; a CapFormatError when it has none. */
export function readZoneGeometry(json: unknown, zone: string): number[][] {
  const feature = json as Json | null;
  if (!feature || feature.type !== 'Feature') throw new CapFormatError(`zone ${zone}: not a GeoJSON Feature`);
  const rings = geoJsonRings(feature.geometry, `zone ${zone}`);
  if (rings.length === 0) throw new CapFormatError(`zone ${zone}: no geometry`);
  return rings;
}

/**
 * The alerts of an /alerts/active answer. Areas of zone-only alerts carry the zone's UGC geocode
 * and `nwsZone` ("forecast/ORZ004") and no polygon until the source fills them in.
 */
export function parseNwsAlerts(json: unknown): { messages: CapMessage[]; errors: { id: string; reason: string }[] } {
  const collection = json as Json | null;
  if (!collection || collection.type !== 'FeatureCollection' || !Array.isArray(collection.features)) {
    throw new CapFormatError('NWS alerts: not a GeoJSON FeatureCollection with features');
  }
  const messages: CapMessage[] = [];
  const errors: { id: string; reason: string }[] = [];
  for (const feature of collection.features as Json[]) {
    const p = (feature?.properties ?? {}) as Json;
    const id = str(p.id) || str(feature?.id) || '(no id)';
    try {
      messages.push(readFeature(feature, p));
    } catch (error) {
      if (!(error instanceof CapFormatError)) throw error;
      errors.push({ id, reason: error.message });
    }
  }
  return { messages, errors };
}

export interface NwsArea extends CapArea {
  /** "forecast/ORZ004": the zone whose outline the area still needs. */
  nwsZone?: string;
}

function readFeature(feature: Json, p: Json): CapMessage {
  const identifier = str(p.id);
  const sender = str(p.sender);
  if (!identifier || !sender) throw new CapFormatError('NWS alert lacks id or sender');
  const sentText = str(p.sent);
  if (!sentText) throw new CapFormatError('NWS alert lacks sent');
  const sent = parseCapTime(sentText, 'sent');
  const time = (field: string): number | null => (str(p[field]) ? parseCapTime(str(p[field]), field) : null);
  const effective = time('effective') ?? sent;
  const expires = time('expires');
  const references = Array.isArray(p.references)
    ? (p.references as Json[]).map((r) => ({ sender: str(r.sender), identifier: str(r.identifier) })).filter((r) => r.sender && r.identifier)
    : [];
  const msgType = pick(p.messageType, CAP_MESSAGE_TYPES, 'messageType');
  const text: CapAlertText = {
    // The NWS API writes English (its alerts' CAP language is en-US).
    language: 'en-US',
    event: str(p.event),
    headline: str(p.headline),
    description: str(p.description),
    instruction: str(p.instruction),
    senderName: str(p.senderName),
    web: '',
    areaNames: [],
  };
  const areaDesc = str(p.areaDesc);
  const rings = geoJsonRings(feature.geometry, `NWS alert ${identifier}`);
  const geocode = (p.geocode ?? {}) as Record<string, unknown>;
  const geocodes = Object.entries(geocode).flatMap(([valueName, values]) =>
    (Array.isArray(values) ? values : []).map((value) => ({ valueName, value: String(value) })));
  let areas: NwsArea[];
  if (rings.length > 0) {
    areas = [{ areaDesc, polygons: rings, circles: [], geocodes }];
  } else {
    const zones = (Array.isArray(p.affectedZones) ? p.affectedZones as unknown[] : []).map((u) => zonePath(String(u)));
    const names = areaDesc.split(';').map((s) => s.trim());
    areas = zones.flatMap((zone, i) => (zone === null ? [] : [{
      // areaDesc lists the zones' names in the order of affectedZones.
      areaDesc: names.length === zones.length ? names[i] : zone.split('/')[1],
      polygons: [], circles: [], geocodes: [{ valueName: 'UGC', value: zone.split('/')[1] }], nwsZone: zone,
    }]));
  }
  const id = capAlertId(sender, identifier);
  const status = str(p.status);
  return {
    id, sent, msgType, references, status, scope: 'Public',
    segments: [{
      alert: {
        id, identifier, sender, provider: 'nws', sent, msgType, references,
        severity: pick(p.severity, CAP_SEVERITIES, 'severity'),
        urgency: pick(p.urgency, CAP_URGENCIES, 'urgency'),
        certainty: pick(p.certainty, CAP_CERTAINTIES, 'certainty'),
        onset: time('onset') ?? effective,
        effective,
        expires: expires ?? effective,
        texts: [text],
        areas,
      },
      expiresMissing: expires === null,
    }],
  };
}
