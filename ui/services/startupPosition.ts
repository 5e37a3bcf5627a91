/**
 * Where the map opens (SPEC §4 "Startup position", §9 timings). Coordinates in the URL always win;
 * otherwise the setting startUp picks the source, and a source with nothing to give falls back to
 * the IP location, then to the map's default centre:
 *
 *   last       startUpLastPosition (saved as the map moves, debounced), with its own zoom
 *   location   homeLocation, zoom startUpZoom or 5 (SPEC: back-to-home zoom)
 *   ip         ipLocation while under 12 h old, else GET /services/umisteni (answer: ll, country,
 *              city) refreshes it; a stale one serves when the refresh fails
 *   gps        gpsLocation while under 15 min old, else the device is asked quietly (no message
 *              when it says no: time-out 12 s, high accuracy except on iOS)
 */

import { IP_LOCATION_ANSWER, IP_LOCATION_PATH } from '../../common/api/location.ts';
import { fits } from '../../common/api/schema.ts';
import type { LatLon, StartUpPosition } from '../../common/settings.ts';
import {
  BACK_TO_HOME_ZOOM, GEOLOCATION_TIMEOUT_MS, GPS_FIX_REUSE_MS, IP_LOCATION_STALE_MS, MY_LOCATION_ZOOM,
} from '../../common/limits.ts';
import { reportRequestFailure } from '../state/requestFailures.ts';

export type StartUpSetting = 'ip' | 'gps' | 'location' | 'last';

/**
 * The IP location as stored in the setting ipLocation (SPEC §3 Location: source, timestamp, cc).
 * `source` is 'ip' when the server found the country of the client's IP address, 'fallback' when
 * it only guessed it from the browser's languages.
 */
export interface IpLocation extends LatLon {
  ts: number;
  city?: string | null;
  cc?: string | null;
  source?: 'ip' | 'fallback';
}

export interface GpsFix extends LatLon {
  ts: number;
}

export interface StartPosition {
  lat: number;
  lon: number;
  zoom: number;
  source: StartUpSetting;
  /** A place name where the source has one (the IP location's city). */
  name?: string | null;
  cc?: string | null;
}

export interface StartupInputs {
  startUp: StartUpSetting;
  startUpZoom: number | null;
  last: StartUpPosition | null;
  home: LatLon | null;
  ip: (LatLon & { ts?: number; city?: string | null; cc?: string | null }) | null;
  gps: (LatLon & { ts?: number }) | null;
  now: number;
  /** GET /services/umisteni; null when it fails. */
  fetchIpLocation: () => Promise<IpLocation | null>;
  /** The device's position; null when refused, unavailable or timed out. */
  askGps: () => Promise<GpsFix | null>;
  saveIp: (location: IpLocation) => void;
  saveGps: (fix: GpsFix) => void;
}

const fresh = (ts: number | undefined, now: number, maxAge: number) => typeof ts === 'number' && now - ts >= 0 && now - ts < maxAge;

async function fromIp(input: StartupInputs, zoom: number): Promise<StartPosition | null> {
  const { ip, now } = input;
  if (ip && fresh(ip.ts, now, IP_LOCATION_STALE_MS)) return { lat: ip.lat, lon: ip.lon, zoom, source: 'ip', name: ip.city ?? null, cc: ip.cc ?? null };
  const fetched = await input.fetchIpLocation();
  if (fetched) {
    input.saveIp(fetched);
    return { lat: fetched.lat, lon: fetched.lon, zoom, source: 'ip', name: fetched.city ?? null, cc: fetched.cc ?? null };
  }
  return ip ? { lat: ip.lat, lon: ip.lon, zoom, source: 'ip', name: ip.city ?? null, cc: ip.cc ?? null } : null;
}

/** The start position by the rules above; null keeps the map's default centre. */
export async function resolveStartupPosition(input: StartupInputs): Promise<StartPosition | null> {
  const zoomOr = (fallback: number) => input.startUpZoom ?? fallback;
  switch (input.startUp) {
    case 'last':
      if (input.last) return { lat: input.last.lat, lon: input.last.lon, zoom: input.last.zoom, source: 'last' };
      break;
    case 'location':
      if (input.home) return { lat: input.home.lat, lon: input.home.lon, zoom: zoomOr(BACK_TO_HOME_ZOOM), source: 'location' };
      break;
    case 'gps': {
      const { gps, now } = input;
      if (gps && fresh(gps.ts, now, GPS_FIX_REUSE_MS)) return { lat: gps.lat, lon: gps.lon, zoom: zoomOr(MY_LOCATION_ZOOM), source: 'gps' };
      const fix = await input.askGps();
      if (fix) {
        input.saveGps(fix);
        return { lat: fix.lat, lon: fix.lon, zoom: zoomOr(MY_LOCATION_ZOOM), source: 'gps' };
      }
      break;
    }
    case 'ip':
      break;
  }
  return fromIp(input, zoomOr(BACK_TO_HOME_ZOOM));
}

/**
 * Reads the answer of GET /services/umisteni (SPEC §7: ll, country, city; and `source`: 'ip' when
 * the server located the client's IP address, else how it guessed).
 */
export function parseIpAnswer(body: unknown, now: number): IpLocation | null {
  if (!fits(IP_LOCATION_ANSWER, body) || !body.ll) return null;
  const [lat, lon] = body.ll;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return { lat, lon, ts: now, city: body.city, cc: body.country?.toLowerCase() ?? null, source: body.source === 'ip' ? 'ip' : 'fallback' };
}

export async function fetchIpLocation(now: () => number = Date.now, doFetch: typeof fetch = fetch): Promise<IpLocation | null> {
  try {
    const response = await doFetch(IP_LOCATION_PATH, { headers: { Accept: 'application/json' }, cache: 'no-store' });
    if (!response.ok) return null;
    return parseIpAnswer(await response.json(), now());
  } catch (error) {
    reportRequestFailure(error, IP_LOCATION_PATH);
    return null;
  }
}

/** SPEC §9: high accuracy except on iOS (there it drains the battery and is slow to answer). */
export function isIos(nav: Pick<Navigator, 'userAgent' | 'platform' | 'maxTouchPoints'>): boolean {
  return /iPad|iPhone|iPod/.test(nav.userAgent) || (nav.platform === 'MacIntel' && nav.maxTouchPoints > 1);
}

/** The device position, asked quietly: null on refusal, error or the 12 s time-out. */
export function askDevicePosition(nav: Navigator = navigator, now: () => number = Date.now): Promise<GpsFix | null> {
  if (!nav.geolocation) return Promise.resolve(null);
  return new Promise((resolve) => {
    nav.geolocation.getCurrentPosition(
      (p) => resolve({ lat: p.coords.latitude, lon: p.coords.longitude, ts: now() }),
      () => resolve(null),
      { timeout: GEOLOCATION_TIMEOUT_MS, enableHighAccuracy: !isIos(nav), maximumAge: GPS_FIX_REUSE_MS },
    );
  });
}
