/**
 * Page-view beacons (SPEC §7: "HEAD /sedlina/ga/{code}?... language, screen size, client id,
 * page, referrer, elapsed time"). Sent only with analytics consent (state/consentModel.ts decides); the
 * client id is made and kept on this device only then.
 */

import type { PageView } from '../state/consentModel.ts';

/** The analytics property of this app (the {code} of the path). */
const ANALYTICS_CODE = 'isobar';
const BEACON_PATH = `/sedlina/ga/${ANALYTICS_CODE}`;
const CLIENT_ID_KEY = 'isobar.cid';

export interface BeaconEnv {
  lang: () => string;
  screen: () => { width: number; height: number };
  referrer: () => string;
  /** When the page started, ms since the epoch. */
  startedAt: number;
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
  fetch?: (url: string, init: RequestInit) => Promise<unknown>;
  random?: () => number;
}

/** A random id kept on this device (or for this page view when storage is unavailable). */
export function clientId(storage: BeaconEnv['storage'], random: () => number = Math.random): string {
  let stored: string | null;
  try {
    stored = storage?.getItem(CLIENT_ID_KEY) ?? null;
  } catch {
    stored = null;
  }
  if (stored && /^[a-z0-9]{8,32}$/.test(stored)) return stored;
  const id = Array.from({ length: 16 }, () => Math.floor(random() * 36).toString(36)).join('');
  try {
    storage?.setItem(CLIENT_ID_KEY, id);
  } catch {
    // Private mode: an id for this page view only.
  }
  return id;
}

export function beaconUrl(view: PageView, env: BeaconEnv, cid: string): string {
  const { width, height } = env.screen();
  const query = new URLSearchParams({
    lang: env.lang(),
    screen: `${width}x${height}`,
    cid,
    page: view.page,
    ref: env.referrer(),
    elapsed: String(Math.max(0, Math.round(view.ts - env.startedAt))),
  });
  return `${BEACON_PATH}?${query.toString()}`;
}

export function createPageViewSender(env: BeaconEnv): (view: PageView) => void {
  const doFetch = env.fetch ?? ((url: string, init: RequestInit) => fetch(url, init));
  let cid: string | null = null;
  return (view) => {
    cid ??= clientId(env.storage, env.random);
    doFetch(beaconUrl(view, env, cid), { method: 'HEAD', keepalive: true, cache: 'no-store' }).catch(() => {});
  };
}
