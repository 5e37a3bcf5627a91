/**
 * The services around the map, composed in one place for an app (STYLE.md: models created with
 * their dependencies, composed once): the top message banner, the connection state, the error
 * reporter, consent with its page-view beacons, the browser support message and the start-up
 * position. Started once, by the composition root (compose.ts), in a chunk of their own loaded
 * right after the UI renders; once loaded they keep working offline.
 */

import { computed, effect, signal, type ReadonlySignal } from '@preact/signals-core';
import { version } from '../../package.json';
import type { ConsentRecord } from '../../common/consent.ts';
import { BROWSER_SUPPORT_MESSAGE_MS, LAST_POSITION_SAVE_DEBOUNCE_MS } from '../../common/limits.ts';
import { bootGuards, type BootGuards } from '../boot/guards.ts';
import { renderClient } from '../map/renderClient.ts';
import type { AppState } from '../state/appState.ts';
import { createConnectionModel, type ConnectionModel } from '../state/connectionModel.ts';
import { createConsentModel, type ConsentModel } from '../state/consentModel.ts';
import { startDataErrorMessage } from './dataErrorMessage.ts';
import { createErrorReporter, fromErrorEvent, fromRejection, isReportedRejection, type ErrorReporter, type ReportContext } from './errorReporter.ts';
import { createMessagesModel, type MessagesModel } from '../state/messages.ts';
import { createPageViewSender } from './pageViewBeacon.ts';
import { onRequestFailure } from '../state/requestFailures.ts';
import { reportSettingsErrors } from './settingsErrors.ts';
import {
  askDevicePosition, fetchIpLocation, isIos, resolveStartupPosition, type StartPosition, type StartUpSetting,
} from './startupPosition.ts';
import { trailing } from './trailing.ts';
import { countryOf } from '../state/unitsModel.ts';

export interface AppServices {
  messages: MessagesModel;
  connection: ConnectionModel;
  reporter: ErrorReporter;
  consent: ConsentModel;
  /** Where the map opened (null: from the URL, or nothing known yet). */
  startPosition: ReadonlySignal<StartPosition | null>;
  /** Resolves once the start position is settled (moved, or kept). */
  started: Promise<void>;
  dispose(): void;
}

/** Settings wait at most this long (a browser without storage never reports them ready). */
const SETTINGS_READY_WAIT_MS = 3000;
/** SPEC §3 Device platform: android, ios, desktop. */
export function platformOf(nav: Pick<Navigator, 'userAgent' | 'platform' | 'maxTouchPoints'>): 'android' | 'ios' | 'desktop' {
  if (isIos(nav)) return 'ios';
  if (/Android/i.test(nav.userAgent)) return 'android';
  return 'desktop';
}

/** SPEC §1 device kinds: the mobile interface is a phone; a touch screen that is not a phone is a tablet. */
function deviceOf(mobile: boolean, nav: Pick<Navigator, 'maxTouchPoints'>): 'mobile' | 'tablet' | 'desktop' {
  if (mobile) return 'mobile';
  return nav.maxTouchPoints > 1 ? 'tablet' : 'desktop';
}

/** Browser names people know, for the browser support message. */
function browserName(userAgent: string): string {
  const found = [['Edg/', 'Edge'], ['OPR/', 'Opera'], ['Firefox/', 'Firefox'], ['Chrome/', 'Chrome'], ['Safari/', 'Safari']]
    .find(([token]) => userAgent.includes(token));
  return found ? found[1] : 'this browser';
}

function whenReady(ready: ReadonlySignal<boolean>, maxMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stop();
      resolve();
    }, maxMs);
    const stop = effect(() => {
      if (!ready.value) return;
      clearTimeout(timer);
      queueMicrotask(() => stop());
      resolve();
    });
  });
}

/** Starts the services of an app: once per page, by the composition root (compose.ts), which passes them on. */
export function startAppServices(app: AppState, guards: BootGuards = bootGuards()): AppServices {
  const cleanups: (() => void)[] = [];
  const messages = createMessagesModel();
  const { settings } = app;

  // ---- connection ------------------------------------------------------------------------------
  const connection = createConnectionModel({
    messages,
    mobile: app.mobile,
    onChange: (online) => {
      settings.set('connection', online);
      // What failed while offline loads again.
      if (online && app.data.status.peek() === 'error') void app.data.reload();
    },
  });
  cleanups.push(onRequestFailure((error) => connection.reportRequestFailure(error)));
  // The map's data error, with Retry (SPEC §8), while the connection is up.
  cleanups.push(startDataErrorMessage({
    messages, status: app.data.status, online: connection.online, reload: () => void app.data.reload(),
    modelName: computed(() => app.layer.productDef.value.modelName),
  }));

  // ---- error reports ---------------------------------------------------------------------------
  const context = (): ReportContext => {
    const nav = navigator as Navigator & { connection?: { effectiveType?: string } };
    return {
      overlay: app.layer.overlay.peek(),
      url: location.href,
      platform: platformOf(nav),
      device: deviceOf(app.mobile(), nav),
      latestBcast: app.usage.events.peek().map((e) => (e.detail ? `${e.name}:${e.detail}` : e.name)),
      network: nav.connection?.effectiveType ?? (nav.onLine ? 'online' : 'offline'),
      hidden: document.visibilityState === 'hidden',
    };
  };
  const reporter = createErrorReporter({
    context,
    offline: () => !connection.online.peek(),
    inFrame: guards.inFrame,
    version,
    startedAt: Math.round(performance.timeOrigin),
  });
  // Errors from before this loaded belong to the loading phase.
  for (const event of guards.takeEarlyErrors()) {
    if (event.type === 'error' && 'message' in event) reporter.report(fromErrorEvent(event as ErrorEvent));
    else if (isReportedRejection((event as PromiseRejectionEvent).reason)) reporter.report(fromRejection((event as PromiseRejectionEvent).reason));
  }
  // The settings store's errors (an invalid stored value, the local database failing to open),
  // those of the boot included: they belong to the loading phase too.
  cleanups.push(reportSettingsErrors((msg) => reporter.report({ msg })));
  reporter.setPhase('2_dependenciesResolved');
  if (performance.getEntriesByName('isobar:first-particles').length > 0) reporter.setPhase('3_redrawFinished');
  cleanups.push(reporter.attach(window));
  cleanups.push(renderClient.on((event) => {
    switch (event.type) {
      case 'firstParticles':
        reporter.setPhase('3_redrawFinished');
        break;
      case 'tileFailed':
        connection.reportTileFailure();
        break;
      case 'contextLost':
        reporter.report({ msg: 'WebGL context lost' });
        break;
      case 'error':
        reporter.report({ msg: event.message });
        break;
      default:
        break;
    }
  }));

  // ---- browser support (SPEC §5) ---------------------------------------------------------------
  if (guards.missing.length > 0) {
    messages.show({
      key: 'connection.browserSupport',
      params: { browser: browserName(navigator.userAgent), platform: platformOf(navigator), technology: guards.missing.join(', ') },
      kind: 'error',
      durationMs: BROWSER_SUPPORT_MESSAGE_MS,
      name: 'browserSupport',
    });
  }

  // ---- consent and page views ------------------------------------------------------------------
  const consentValue = settings.signal('consent') as ReadonlySignal<ConsentRecord | null>;
  const consent = createConsentModel({
    store: {
      value: consentValue,
      get: () => consentValue.peek(),
      set: (record) => void settings.set('consent', record),
      clear: () => settings.reset('consent'),
    },
    country: () => (settings.get('country') as string | null) ?? (countryOf(navigator.language) || null),
    loggedIn: () => settings.get('userToken') !== null,
    openWindow: () => void app.router.openPanel('consent'),
    sendPageView: createPageViewSender({
      lang: () => document.documentElement.lang || 'en',
      screen: () => ({ width: screen.width, height: screen.height }),
      referrer: () => document.referrer,
      startedAt: Math.round(performance.timeOrigin),
      storage: (() => {
        try {
          return localStorage;
        } catch {
          return null;
        }
      })(),
    }),
  });
  // Usage events (startup, 404) and every window that opens are page views.
  let seenEvents = 0;
  cleanups.push(effect(() => {
    const all = app.usage.all.value;
    for (const event of all.slice(seenEvents)) consent.pageView(event.name);
    seenEvents = all.length;
  }));
  let openIdents = new Set<string>();
  cleanups.push(effect(() => {
    const now = new Set(app.panels.windows.value.filter((w) => w.phase !== 'closing').map((w) => w.ident));
    for (const ident of now) if (!openIdents.has(ident)) consent.pageView(ident);
    openIdents = now;
  }));

  // ---- start-up position -----------------------------------------------------------------------
  const startPosition = signal<StartPosition | null>(null);
  const initial = { lat: app.map.lat.peek(), lon: app.map.lon.peek(), zoom: app.map.zoom.peek() };
  const route = app.router.initial.route;
  const urlPosition = app.initialUrl.lat !== undefined || (typeof route.params?.lat === 'number' && typeof route.params?.lon === 'number');
  const startSavingLastPosition = () => {
    const save = trailing(() => {
      const [lat, lon, zoom] = [app.map.lat.peek(), app.map.lon.peek(), app.map.zoom.peek()];
      // SPEC §5 startUpLastPosition: source 'globe' when it was the globe's centre and zoom.
      const source = app.map.globe.peek() ? 'globe' : 'maps';
      settings.set('startUpLastPosition', { lat: Math.round(lat * 1e4) / 1e4, lon: Math.round(lon * 1e4) / 1e4, zoom: Math.round(zoom), source });
    }, LAST_POSITION_SAVE_DEBOUNCE_MS);
    cleanups.push(effect(() => {
      void app.map.globe.value;
      void app.map.lat.value;
      void app.map.lon.value;
      void app.map.zoom.value;
      save.poke();
    }));
    cleanups.push(() => save.cancel());
  };

  // SPEC §2: the start-up weather shows until the user clicks, touches or presses a key: not after.
  let interacted = false;
  const onInteraction = () => {
    interacted = true;
    // A card still loading is cancelled (it would otherwise open over what the user just opened).
    if (app.panels.states.peek().startupWeather === 'loading') app.panels.close('startupWeather');
  };
  for (const type of ['pointerdown', 'keydown'] as const) {
    window.addEventListener(type, onInteraction, { capture: true, once: true });
    cleanups.push(() => window.removeEventListener(type, onInteraction, { capture: true }));
  }

  const startUp = async () => {
    await whenReady(settings.ready, SETTINGS_READY_WAIT_MS);
    consent.start();
    if (urlPosition) {
      startSavingLastPosition();
      return;
    }
    const position = await resolveStartupPosition({
      startUp: settings.get('startUp') as StartUpSetting,
      startUpZoom: settings.get('startUpZoom') as number | null,
      last: settings.get('startUpLastPosition'),
      home: settings.get('homeLocation'),
      ip: settings.get('ipLocation'),
      gps: settings.get('gpsLocation'),
      now: Date.now(),
      fetchIpLocation: () => fetchIpLocation(),
      askGps: () => askDevicePosition(),
      saveIp: (location) => settings.set('ipLocation', location),
      saveGps: (fix) => settings.set('gpsLocation', fix),
    });
    // A user who moved the map meanwhile keeps the view.
    const untouched = app.map.lat.peek() === initial.lat && app.map.lon.peek() === initial.lon && app.map.zoom.peek() === initial.zoom;
    if (position && untouched) app.map.moveTo(position);
    startPosition.value = position;
    startSavingLastPosition();
    // SPEC §2 "Start page": the start-up weather for the user's location, on the home path only.
    if (position && route.home && !interacted) void app.router.openPanel('startupWeather', { ...position });
  };
  const startedPromise = startUp().catch((error: unknown) => {
    reporter.report({ msg: `Start-up position failed: ${String(error)}` });
  });

  return {
    messages,
    connection,
    reporter,
    consent,
    startPosition,
    started: startedPromise,
    dispose() {
      cleanups.splice(0).forEach((c) => c());
      connection.dispose();
      messages.dispose();
    },
  };
}
