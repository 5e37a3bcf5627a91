/**
 * Weather warnings (SPEC §1 "alerts", §3 overlay capAlerts and renderer kind "cap alerts", §7
 * GET /capalerts/{lat}/{lon}): the one alert model that every upstream format is read into
 * (CAP 1.2 XML from ECCC and MeteoAlarm, NWS GeoJSON-LD), and the geometry the server's point route,
 * the render worker and the picker share.
 *
 * CAP 1.2 is OASIS "Common Alerting Protocol Version 1.2" (2010-07-01),
 * https://docs.oasis-open.org/emergency/cap/v1.2/CAP-v1.2-os.html; the section numbers below are its.
 * Times are ms since the epoch (common/time.ts); coordinates are WGS 84 degrees, rings as flat
 * [lon0, lat0, lon1, lat1, ...] arrays, closed (first point = last point) as CAP §3.2.4 requires.
 */

/** CAP §3.2.2 severity, most severe first. */
export const CAP_SEVERITIES = ['Extreme', 'Severe', 'Moderate', 'Minor', 'Unknown'] as const;
export type CapSeverity = (typeof CAP_SEVERITIES)[number];
/** CAP §3.2.2 urgency. */
export const CAP_URGENCIES = ['Immediate', 'Expected', 'Future', 'Past', 'Unknown'] as const;
export type CapUrgency = (typeof CAP_URGENCIES)[number];
/** CAP §3.2.2 certainty ("Very Likely" of CAP 1.0 is read as Likely, CAP 1.2 §3.2.2 note). */
export const CAP_CERTAINTIES = ['Observed', 'Likely', 'Possible', 'Unlikely', 'Unknown'] as const;
export type CapCertainty = (typeof CAP_CERTAINTIES)[number];
/** CAP §3.2.1 msgType (Ack and Error are system messages, never shown). */
export const CAP_MESSAGE_TYPES = ['Alert', 'Update', 'Cancel'] as const;
export type CapMessageType = (typeof CAP_MESSAGE_TYPES)[number];

/**
 * Colours by severity. MeteoAlarm's awareness levels carry their CAP severity and their colour in
 * every alert (parameter awareness_level: "2; yellow; Moderate", "3; orange; Severe", "4; red;
 * Extreme"; MeteoAlarm "Guide to the use of CAP", awareness levels table); Minor is its level 1,
 * green. Unknown has no level there: grey. Colours as [r, g, b] 0-255: the CSS named colours.
 */
export const CAP_SEVERITY_COLOURS: Readonly<Record<CapSeverity, readonly [number, number, number]>> = {
  Extreme: [255, 0, 0], // red
  Severe: [255, 165, 0], // orange
  Moderate: [255, 255, 0], // yellow
  Minor: [0, 128, 0], // green
  Unknown: [128, 128, 128], // grey
};

/**
 * Severity as a number, the capAlerts render layer's value (common/catalogue RENDER_LAYERS.capAlerts,
 * whose colour scale gives each level its colour above): Unknown 0, Minor 1 .. Extreme 4.
 */
export const CAP_SEVERITY_LEVEL: Readonly<Record<CapSeverity, number>> = { Unknown: 0, Minor: 1, Moderate: 2, Severe: 3, Extreme: 4 };

/** SPEC §9 "Cap alerts max count 6": alerts a point answer lists. */
export const CAP_ALERTS_MAX_COUNT = 6;

/** The text of one CAP <info> block (one language, CAP §3.2.2). */
export interface CapAlertText {
  /** RFC 3066 tag as the alert writes it ("en-CA", "fr-CA"; CAP's default is "en-US"). */
  language: string;
  event: string;
  headline: string;
  description: string;
  instruction: string;
  senderName: string;
  web: string;
  /** The areas' names in this language, in the order of CapAlert.areas; empty when the block names none. */
  areaNames: string[];
}

/** A circle of CAP §3.2.4: centre and radius. */
export interface CapCircle {
  lon: number;
  lat: number;
  radiusKm: number;
}

export interface CapArea {
  areaDesc: string;
  /** Closed rings, flat [lon, lat, ...]; each CAP <polygon> is one outer ring. */
  polygons: number[][];
  circles: CapCircle[];
  /** CAP §3.2.4 geocodes ("UGC": "ORZ004", "EMMA_ID": "FR433", "profile:CAP-CP:Location:0.3": "1207"). */
  geocodes: { valueName: string; value: string }[];
}

/** A message an Update or Cancel refers to (CAP §3.2.1 references: "sender,identifier,sent"). */
export interface CapReference {
  sender: string;
  identifier: string;
}

/** One alert, whatever format it came in. */
export interface CapAlert {
  /** sender + identifier: unique per CAP §3.2.1. */
  id: string;
  identifier: string;
  sender: string;
  /** The provider it came from (server/obs/capAlerts sources: "nws", "eccc", "meteoalarm"). */
  provider: string;
  sent: number;
  msgType: CapMessageType;
  references: CapReference[];
  severity: CapSeverity;
  urgency: CapUrgency;
  certainty: CapCertainty;
  /** The hazard's start (onset, else effective, else sent). */
  onset: number;
  effective: number;
  expires: number;
  /** One per language, in the order the alert gives them. */
  texts: CapAlertText[];
  areas: CapArea[];
}

export const capAlertId = (sender: string, identifier: string): string => `${sender},${identifier}`;

/** Most severe first; a lower rank is more severe. */
export const severityRank = (severity: CapSeverity): number => CAP_SEVERITIES.indexOf(severity);

/**
 * The text in the user's language: an exact tag ("fr-CA"), else the same primary language ("fr"
 * for "fr-CA"), else the alert's first block (the alert's own language).
 */
export function textForLanguage(texts: readonly CapAlertText[], lang: string): CapAlertText | null {
  if (texts.length === 0) return null;
  const wanted = lang.toLowerCase();
  const primary = wanted.split('-')[0];
  return texts.find((t) => t.language.toLowerCase() === wanted)
    ?? texts.find((t) => t.language.toLowerCase().split('-')[0] === primary)
    ?? texts[0];
}

// ---- geometry ----------------------------------------------------------------------------------

/** Even-odd ray casting (W. R. Franklin, "PNPOLY", https://wrfranklin.org/Research/Short_Notes/pnpoly.html). */
export function pointInRing(ring: ArrayLike<number>, lon: number, lat: number): boolean {
  let inside = false;
  const n = ring.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = ring[2 * i], yi = ring[2 * i + 1];
    const xj = ring[2 * j], yj = ring[2 * j + 1];
    if ((yi > lat) !== (yj > lat) && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Mean Earth radius, km (IUGG R1, Moritz 2000 "Geodetic Reference System 1980"). */
const EARTH_RADIUS_KM = 6371.0088;

/** Great-circle distance by the haversine formula (R. W. Sinnott, Sky & Telescope 68(2), 1984). */
export function greatCircleKm(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Whether a place lies in an area: inside one of its polygons or circles. */
export function areaContains(area: CapArea, lon: number, lat: number): boolean {
  return area.polygons.some((ring) => pointInRing(ring, lon, lat))
    || area.circles.some((c) => greatCircleKm(c.lon, c.lat, lon, lat) <= c.radiusKm);
}

/** [west, south, east, north] of an area's polygons and circles. */
export function areaBounds(area: CapArea): [number, number, number, number] {
  let west = Infinity, south = Infinity, east = -Infinity, north = -Infinity;
  for (const ring of area.polygons) {
    for (let i = 0; i < ring.length; i += 2) {
      west = Math.min(west, ring[i]); east = Math.max(east, ring[i]);
      south = Math.min(south, ring[i + 1]); north = Math.max(north, ring[i + 1]);
    }
  }
  for (const c of area.circles) {
    const dLat = c.radiusKm / 111.195; // km per degree of latitude on the sphere of EARTH_RADIUS_KM
    const dLon = dLat / Math.max(0.01, Math.cos((c.lat * Math.PI) / 180));
    west = Math.min(west, c.lon - dLon); east = Math.max(east, c.lon + dLon);
    south = Math.min(south, c.lat - dLat); north = Math.max(north, c.lat + dLat);
  }
  return [west, south, east, north];
}

/** An alert's areas that hold the place. */
export const alertContains = (alert: CapAlert, lon: number, lat: number): boolean =>
  alert.areas.some((area) => areaContains(area, lon, lat));

/**
 * The alerts over a place, most severe first, then soonest onset, at most maxCount (SPEC §9).
 * The map wraps in longitude (SPEC §9 bounds lon ±720), alerts are stored in -180..180.
 */
export function alertsAt(alerts: readonly CapAlert[], lat: number, lon: number, maxCount = CAP_ALERTS_MAX_COUNT): CapAlert[] {
  const wrapped = ((((lon + 180) % 360) + 360) % 360) - 180;
  return alerts
    .filter((alert) => alertContains(alert, wrapped, lat))
    .sort((a, b) => severityRank(a.severity) - severityRank(b.severity) || a.onset - b.onset)
    .slice(0, maxCount);
}
