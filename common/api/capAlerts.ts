/**
 * Weather warnings (SPEC §3 overlay capAlerts, §7 GET /capalerts/{lat}/{lon}), shared by the server
 * (server/obs/capAlerts/) and the UI (the capAlerts overlay, the /cap-alert/{lat}/{lon} window):
 *
 *   GET /capalerts/{lat}/{lon}?lang&maxCount&source   -> CapAlertsAnswer: the alerts over a place,
 *                                                        most severe first, at most maxCount (6,
 *                                                        SPEC §9), texts in `lang` when the alert
 *                                                        carries it, else in the alert's language
 *   GET /obs/v1.0/warnings/capAlerts.geojson          the active alerts' areas for the map
 *                                                     (server/obs/capAlerts/publication.ts)
 */

import { CAP_ALERTS_MAX_COUNT, CAP_CERTAINTIES, CAP_SEVERITIES, CAP_URGENCIES, type CapAlert } from '../capAlerts.ts';
import type { Infer } from './schema.ts';

export const CAP_ALERTS_ROUTE = '/capalerts/:lat/:lon';
/** Documents of the warnings family under /obs/v1.0/warnings/. */
export const CAP_ALERTS_DOCUMENT = 'capAlerts.json';
export const CAP_ALERTS_GEOJSON = 'capAlerts.geojson';
export const CAP_ALERTS_MANIFEST = 'manifest.json';
export const CAP_ALERTS_GEOJSON_PATH = `/obs/v1.0/warnings/${CAP_ALERTS_GEOJSON}`;

export function capAlertsPath(lat: number, lon: number, query: { lang?: string; maxCount?: number; source?: string } = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const search = params.toString();
  return `/capalerts/${lat}/${lon}${search ? `?${search}` : ''}`;
}

/** The combined document the point route reads (publication.ts). */
export interface CapAlertsDocument {
  updated: number;
  sources: { id: string; label: string; attribution: string; updated: number }[];
  alerts: CapAlert[];
}

export const CAP_ALERTS_QUERY = {
  type: 'object',
  properties: {
    /** The user's language (common/languages.ts tags: "fr", "zh-TW"). */
    lang: { type: 'string', pattern: '^[a-z]{2,3}(-[A-Za-z]{2,4})?$' },
    maxCount: { type: 'integer', minimum: 1, maximum: CAP_ALERTS_MAX_COUNT, default: CAP_ALERTS_MAX_COUNT },
    /** Who asks (SPEC §7 "source": the detail window, start-up): recorded in no way, accepted. */
    source: { type: 'string', maxLength: 32, pattern: '^[A-Za-z0-9_-]*$' },
  },
} as const;

export const CAP_ALERT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'provider', 'severity', 'urgency', 'certainty', 'colour', 'sent', 'onset', 'effective', 'expires', 'language', 'event', 'headline', 'description', 'instruction', 'senderName', 'sender', 'web', 'areaDesc', 'attribution'],
  properties: {
    id: { type: 'string' },
    provider: { type: 'string' },
    severity: { type: 'string', enum: CAP_SEVERITIES },
    urgency: { type: 'string', enum: CAP_URGENCIES },
    certainty: { type: 'string', enum: CAP_CERTAINTIES },
    /** The severity's colour, "#rrggbb" (common/capAlerts.ts CAP_SEVERITY_COLOURS). */
    colour: { type: 'string' },
    /** ms since the epoch. */
    sent: { type: 'number' },
    onset: { type: 'number' },
    effective: { type: 'number' },
    expires: { type: 'number' },
    /** The language of the texts below (the user's when the alert carries it). */
    language: { type: 'string' },
    event: { type: 'string' },
    headline: { type: 'string' },
    description: { type: 'string' },
    instruction: { type: 'string' },
    /** The issuing office as the alert names it ("Environment Canada", "NWS Portland OR"). */
    senderName: { type: 'string' },
    /** CAP sender (an address). */
    sender: { type: 'string' },
    web: { type: 'string' },
    /** The areas at the place, as the alert names them. */
    areaDesc: { type: 'string' },
    /** The credit line of the provider's licence. */
    attribution: { type: 'string' },
  },
} as const;
export type CapAlertAnswer = Infer<typeof CAP_ALERT_SCHEMA>;

export const CAP_ALERTS_ANSWER = {
  type: 'object',
  additionalProperties: false,
  required: ['lat', 'lon', 'updated', 'alerts'],
  properties: {
    lat: { type: 'number' },
    lon: { type: 'number' },
    /** When the warnings were last published, ms; null when none ever were. */
    updated: { type: ['number', 'null'] },
    alerts: { type: 'array', items: CAP_ALERT_SCHEMA },
  },
} as const;
export type CapAlertsAnswer = Infer<typeof CAP_ALERTS_ANSWER>;
