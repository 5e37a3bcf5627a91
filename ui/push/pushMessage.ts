/**
 * What a Web Push message from the server becomes in the service worker (sw.ts): the server pushes
 * one notification as JSON (server/alerts/alertService.ts: {id, type, title, body, newCount, ...
 * for an alert alertId, product, refTime, timestamps, lat, lon}). Pushed bytes are input from
 * outside the page: anything that is not such an object still gives a plain notification, never
 * a throw (a push event that shows nothing is held against the site by browsers).
 */

export interface PushNotice {
  title: string;
  body: string;
  /** Groups repeats of one notification (the server's id). */
  tag: string;
  /** The page a click opens: an alert's place for an alert, the alerts window otherwise. */
  url: string;
  /** The badge number (SPEC §3 "Notification: newCount"); null when the message has none. */
  newCount: number | null;
  /** The server's notification id, for the interactions endpoints; null when missing. */
  id: string | null;
}

const TITLE_MAX = 120;
const BODY_MAX = 500;
const DEFAULT_TITLE = 'Isobar';

/**
 * An alert's place as the point-forecast path of common/routes.ts pointPath (3 decimals, SPEC §9):
 * written out here so the service worker is one classic script with no chunk shared with the app
 * (pushMessage.test.ts checks the two agree).
 */
const placePath = (lat: number, lon: number): string => `/${lat.toFixed(3)}/${lon.toFixed(3)}`;

const text = (v: unknown, max: number): string | null => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : null);
const finite = (v: unknown, min: number, max: number): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? v : null);

/** The notification for a pushed payload (its text, or null when the push carried none). */
export function pushNotice(payload: string | null | undefined): PushNotice {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = payload ? JSON.parse(payload) : null;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: the text itself is the message.
    data = { body: payload };
  }
  const id = typeof data.id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(data.id) ? data.id : null;
  const lat = finite(data.lat, -90, 90);
  const lon = finite(data.lon, -180, 180);
  const count = finite(data.newCount, 0, 1e9);
  return {
    title: text(data.title, TITLE_MAX) ?? DEFAULT_TITLE,
    body: text(data.body, BODY_MAX) ?? '',
    tag: id ?? 'isobar',
    url: data.type === 'alert' && lat !== null && lon !== null ? placePath(lat, lon) : '/alerts',
    newCount: count === null ? null : Math.floor(count),
    id,
  };
}

/** What the service worker posts to the open pages. */
export type PushPageMessage =
  | { kind: 'isobar-push'; id: string | null; newCount: number | null }
  | { kind: 'isobar-notification-click'; id: string | null; url: string };
