/**
 * Reader of CAP 1.2 alert messages (OASIS "Common Alerting Protocol Version 1.2", 2010,
 * https://docs.oasis-open.org/emergency/cap/v1.2/CAP-v1.2-os.html; section numbers below are its),
 * as ECCC publishes them on dd.weather.gc.ca/alerts/cap/ and MeteoAlarm links them from its Atom
 * feeds. The XML is parsed by fast-xml-parser; namespace prefixes are dropped (MeteoAlarm writes
 * cap:alert, ECCC a default namespace).
 *
 * A message that is not a CAP alert, or lacks what CAP requires (identifier, sender, sent, msgType,
 * an <info>), or carries a malformed time, polygon or circle, is refused with a CapFormatError
 * naming the element: nothing half-read is returned.
 */

import { XMLParser } from 'fast-xml-parser';
import {
  CAP_CERTAINTIES, CAP_MESSAGE_TYPES, CAP_SEVERITIES, CAP_URGENCIES, capAlertId,
  type CapAlert, type CapAlertText, type CapArea, type CapCertainty, type CapCircle, type CapReference,
  type CapSeverity, type CapUrgency,
} from '../../../common/capAlerts.ts';

export class CapFormatError extends Error {
  override name = 'CapFormatError';
}

/**
 * One CAP message as read: its header (CAP §3.2.1) and the alerts it shows. A message's <info>
 * blocks are either translations of one another (ECCC: en-CA then fr-CA) or, when a language comes
 * again, a further segment with its own severity, times and areas (ECCC's "in effect for some
 * areas, ended for others": en, fr, en, fr). Each segment is one CapAlert; a segment's id is the
 * message's id with "#n" after it when there are several.
 */
export interface CapMessage {
  /** sender,identifier (capAlertId). */
  id: string;
  sent: number;
  msgType: CapAlert['msgType'];
  references: CapReference[];
  /** CAP §3.2.1 status: only Actual messages are shown. */
  status: string;
  /** CAP §3.2.1 scope: only Public messages are shown. */
  scope: string;
  segments: CapSegment[];
}

export interface CapSegment {
  alert: CapAlert;
  /** expires was absent from the segment's <info> blocks (CAP makes it optional): its end is unknown. */
  expiresMissing: boolean;
}

/** <info> blocks grouped into segments: a block whose language the current segment already has starts a new one. */
export function infoSegments<T>(infos: readonly T[], language: (info: T) => string): T[][] {
  const segments: T[][] = [];
  let seen = new Set<string>();
  for (const info of infos) {
    const lang = language(info).toLowerCase();
    if (segments.length === 0 || seen.has(lang)) {
      segments.push([]);
      seen = new Set();
    }
    seen.add(lang);
    segments[segments.length - 1].push(info);
  }
  return segments;
}

/** Elements that may repeat (CAP §3.2: info, area, polygon, circle, geocode, parameter, code...). */
const REPEATED = new Set(['info', 'area', 'polygon', 'circle', 'geocode', 'parameter', 'code', 'resource', 'eventCode', 'category', 'responseType', 'entry', 'link']);

export const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (name) => REPEATED.has(name),
});

type Node = Record<string, unknown>;

const text = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return text((value as Node)['#text']);
  return String(value).trim();
};

const list = (value: unknown): Node[] => (Array.isArray(value) ? value as Node[] : value === undefined || value === '' ? [] : [value as Node]);

/** CAP §3.3.2 dateTime: "2002-05-24T16:49:00-07:00", the zone required ("-00:00" is UTC). */
const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)$/;

export function parseCapTime(value: string, element: string): number {
  const time = DATE_TIME.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(time)) throw new CapFormatError(`<${element}> "${value.slice(0, 40)}" is not a CAP dateTime (YYYY-MM-DDThh:mm:ss with a zone, CAP §3.3.2)`);
  return time;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], element: string, fallback?: T): T {
  const normalised = element === 'certainty' && value === 'Very Likely' ? 'Likely' : value;
  if ((allowed as readonly string[]).includes(normalised)) return normalised as T;
  if (value === '' && fallback !== undefined) return fallback;
  throw new CapFormatError(`<${element}> "${value.slice(0, 40)}" is not one of ${allowed.join(', ')} (CAP §3.2)`);
}

/** "lat,lon" of CAP §3.2.4 (WGS 84). */
function point(pair: string, element: string): [number, number] {
  const parts = pair.split(',');
  const lat = Number(parts[0]);
  const lon = Number(parts[1]);
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '' || !(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) {
    throw new CapFormatError(`<${element}> point "${pair.slice(0, 40)}" is not "latitude,longitude" in WGS 84 degrees (CAP §3.2.4)`);
  }
  return [lon, lat];
}

/** CAP §3.2.4 polygon: four or more "lat,lon" pairs separated by spaces, the first and last the same. */
export function parsePolygon(value: string): number[] {
  const pairs = value.trim().split(/\s+/);
  if (pairs.length < 4) throw new CapFormatError(`<polygon> has ${pairs.length} points: CAP §3.2.4 needs four or more, the first and last the same`);
  const ring: number[] = [];
  for (const pair of pairs) ring.push(...point(pair, 'polygon'));
  const n = ring.length;
  if (ring[0] !== ring[n - 2] || ring[1] !== ring[n - 1]) throw new CapFormatError('<polygon> is not closed: CAP §3.2.4 needs its first and last points the same');
  return ring;
}

/** CAP §3.2.4 circle: "lat,lon radius" with the radius in km. */
export function parseCircle(value: string): CapCircle {
  const [centre, radius, ...rest] = value.trim().split(/\s+/);
  const radiusKm = Number(radius);
  if (rest.length > 0 || radius === undefined || !(radiusKm >= 0) || !Number.isFinite(radiusKm)) {
    throw new CapFormatError(`<circle> "${value.slice(0, 40)}" is not "latitude,longitude radius-km" (CAP §3.2.4)`);
  }
  const [lon, lat] = point(centre, 'circle');
  return { lon, lat, radiusKm };
}

/** CAP §3.2.1 references: "sender,identifier,sent" entries separated by spaces. */
export function parseReferences(value: string): CapReference[] {
  if (value === '') return [];
  return value.split(/\s+/).map((entry) => {
    const [sender, identifier, sent] = entry.split(',');
    if (!sender || !identifier || !sent) throw new CapFormatError(`<references> entry "${entry.slice(0, 60)}" is not "sender,identifier,sent" (CAP §3.2.1)`);
    return { sender, identifier };
  });
}

function readArea(node: Node): CapArea {
  return {
    areaDesc: text(node.areaDesc),
    polygons: list(node.polygon).map((p) => parsePolygon(text(p))),
    circles: list(node.circle).map((c) => parseCircle(text(c))),
    geocodes: list(node.geocode).map((g) => ({ valueName: text(g.valueName), value: text(g.value) })),
  };
}

function readText(info: Node): CapAlertText {
  return {
    language: text(info.language) || 'en-US', // CAP §3.2.2: "If not present, an implicit default value of 'en-US' SHALL be assumed"
    event: text(info.event),
    headline: text(info.headline),
    description: text(info.description),
    instruction: text(info.instruction),
    senderName: text(info.senderName),
    web: text(info.web),
    areaNames: list(info.area).map((area) => text(area.areaDesc)),
  };
}

/** An <alert> element already parsed into a tree (a CAP file, or one embedded in a feed). */
export function readCapAlertNode(alert: Node, provider: string): CapMessage {
  const required = (name: string): string => {
    const value = text(alert[name]);
    if (value === '') throw new CapFormatError(`<alert> lacks <${name}>, which CAP §3.2.1 requires`);
    return value;
  };
  const identifier = required('identifier');
  const sender = required('sender');
  const sent = parseCapTime(required('sent'), 'sent');
  const status = required('status');
  const scope = text(alert.scope);
  const msgTypeText = required('msgType');
  if (msgTypeText === 'Ack' || msgTypeText === 'Error') throw new CapFormatError(`<msgType> ${msgTypeText} is a system message, not an alert`);
  const msgType = oneOf(msgTypeText, CAP_MESSAGE_TYPES, 'msgType');
  const references = parseReferences(text(alert.references));
  if (msgType !== 'Alert' && references.length === 0) throw new CapFormatError(`<msgType> ${msgType} without <references>: CAP §3.2.1 requires them`);

  const infos = list(alert.info);
  if (infos.length === 0 && msgType !== 'Cancel') throw new CapFormatError('<alert> has no <info>: nothing to show');
  const id = capAlertId(sender, identifier);
  const groups = infoSegments(infos, (info) => text(info.language) || 'en-US');
  const segments = groups.map((group, index): CapSegment => {
    const first = group[0];
    const severity: CapSeverity = oneOf(text(first.severity), CAP_SEVERITIES, 'severity', 'Unknown');
    const urgency: CapUrgency = oneOf(text(first.urgency), CAP_URGENCIES, 'urgency', 'Unknown');
    const certainty: CapCertainty = oneOf(text(first.certainty), CAP_CERTAINTIES, 'certainty', 'Unknown');
    const time = (name: string): number | null => {
      const values = group.map((info) => text(info[name])).filter((v) => v !== '').map((v) => parseCapTime(v, name));
      return values.length === 0 ? null : name === 'expires' ? Math.max(...values) : Math.min(...values);
    };
    const effective = time('effective') ?? sent; // CAP §3.2.2: effective defaults to sent
    const expires = time('expires');
    // Each language block repeats the areas (CAP §3.2.4 areas belong to an <info>): the first block that has any.
    const areaInfo = group.find((info) => list(info.area).length > 0);
    return {
      alert: {
        id: groups.length > 1 ? `${id}#${index}` : id,
        identifier, sender, provider, sent, msgType, references, severity, urgency, certainty,
        onset: time('onset') ?? effective,
        effective,
        expires: expires ?? effective,
        texts: group.map(readText),
        areas: areaInfo ? list(areaInfo.area).map(readArea) : [],
      },
      expiresMissing: expires === null,
    };
  });
  return { id, sent, msgType, references, status, scope, segments };
}

/** One CAP 1.2 XML document. */
export function parseCap(xml: string, provider: string): CapMessage {
  let tree: Node;
  try {
    tree = xmlParser.parse(xml, true) as Node;
  } catch (error) {
    throw new CapFormatError(`not well-formed XML: ${(error as Error).message.split('\n')[0]}`);
  }
  const alert = tree.alert;
  if (alert === undefined || typeof alert !== 'object') throw new CapFormatError('no <alert> element: not a CAP message');
  return readCapAlertNode(alert as Node, provider);
}
