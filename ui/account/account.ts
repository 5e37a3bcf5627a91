/**
 * The account of an app, composed in one place (STYLE.md: models created with their dependencies,
 * composed once): the request helper with the bearer token, the session, the settings sync, the
 * synced favourites and alerts, wired to the app's router and usage log and to the app services'
 * messages, connection and consent, which are passed in. Started once, by the composition root
 * (ui/services/compose.ts), from a chunk of its own (loadAccount.ts): at start-up only when a token
 * is stored, else when a window that needs it opens (login, register, favourites, alerts,
 * subscription, the forecast's favourite star).
 */

import { computed, effect, signal, type ReadonlySignal } from '@preact/signals-core';
import { version } from '../../package.json';
import { FAVOURITES_SYNC_ERROR_MESSAGE_MS, type PendingLoginAction } from '../../common/account.ts';
import { interactionPath, VAPID_ANSWER, VAPID_KEY_PATH } from '../../common/api/notifications.ts';
import { validateAlert, type Alert } from '../../common/alerts.ts';
import { validateFavourite, type Favourite } from '../../common/favourites.ts';
import { normalUserWebcam, userWebcamProblem, type UserWebcam } from '../../common/webcams.ts';
import { pointPath } from '../../common/routes.ts';
import { settingDef, settingKeys } from '../../common/settings.ts';
import { loadBundle } from '../i18n.ts';
import type { AppState } from '../state/appState.ts';
import { platformOf, type AppServices } from '../services/appServices.ts';
import { browserAccountStore } from './accountStore.ts';
import { createAlerts, type Alerts } from './alerts.ts';
import { createSyncedCollection, type SyncedCollection } from './collection.ts';
import { createFavourites, type Favourites } from './favourites.ts';
import { answerOf, createAccountRequest, type AccountRequest } from './request.ts';
import { browserPush, createPush, type Push } from './push.ts';
import { createSession, type Session } from './session.ts';
import { createSettingsCloud, type SettingsCloud } from './settingsCloud.ts';
import { applySubscription, asSubscriptionInfo, SUBSCRIPTION_BUNDLE, type SubscriptionInfo } from './subscription.ts';

export interface Account {
  session: Session;
  favourites: Favourites;
  /** The user's alerts and the notification badge (ui/account/alerts.ts). */
  alerts: Alerts;
  /** The webcams the user added (common/webcams.ts; the webcams window). */
  webcams: SyncedCollection<UserWebcam>;
  settingsCloud: SettingsCloud;
  request: AccountRequest;
  /** Web Push on this device (ui/account/push.ts): started while logged in. */
  push: Push;
  /** The last subscription info /api/info answered, whatever its status (null: none or logged out). */
  subscriptionInfo: ReadonlySignal<SubscriptionInfo | null>;
  /** Resolves once the stored session is checked (at once when there is none). */
  started: Promise<void>;
}

function whenReady(ready: ReadonlySignal<boolean>): Promise<void> {
  return new Promise((resolve) => {
    const stop = effect(() => {
      if (!ready.value) return;
      queueMicrotask(() => stop());
      resolve();
    });
  });
}

/** Runs a pending login action (SPEC §4: addFav, alerts-edit, favs, uploader, colors, open external plugin). */
async function runPending(app: AppState, favourites: Favourites, pending: PendingLoginAction): Promise<void> {
  const id = typeof pending.params.id === 'string' ? `/${encodeURIComponent(pending.params.id)}` : '';
  switch (pending.action) {
    case 'addFav': {
      const fav = validateFavourite(pending.params);
      const added = fav ? await favourites.add(fav) : null;
      // On a phone the login window took the forecast's place: the place comes back.
      if (added?.lat !== undefined && added.lon !== undefined && !app.panels.isOpen('detail')) await app.router.navigate(pointPath(added.lat, added.lon));
      break;
    }
    case 'alerts-edit':
      await app.router.navigate(id ? `/alerts-edit${id}` : '/alerts');
      break;
    case 'plugin':
      if (typeof pending.params.name === 'string') await app.router.navigate(`/plugin/${encodeURIComponent(pending.params.name)}`);
      break;
    default:
      await app.router.navigate(`/${pending.action}${id}`);
      break;
  }
}

/** What the account uses of the app services (ui/services/appServices.ts). */
export type AccountServices = Pick<AppServices, 'messages' | 'connection' | 'consent'>;

/** Starts the account of an app: once per page, by the composition root (ui/services/compose.ts), which passes it on. */
export function startAccount(app: AppState, services: AccountServices): Account {
  const { settings } = app;
  const store = browserAccountStore();
  const request = createAccountRequest({ token: () => settings.get('userToken') as string | null });
  const collection = createSyncedCollection<Favourite>({
    name: 'favs', request, store, validate: (value) => validateFavourite(value),
  });
  const showSyncError = () => void loadBundle('favs').then(() => services.messages.show({
    key: 'favs:syncError', kind: 'error', durationMs: FAVOURITES_SYNC_ERROR_MESSAGE_MS, name: 'favsSyncError',
  }));
  const favourites = createFavourites({ collection, onError: showSyncError });
  const alertCollection = createSyncedCollection<Alert>({ name: 'alerts', request, store, validate: (value) => validateAlert(value) });
  const webcams = createSyncedCollection<UserWebcam>({
    name: 'webcams', request, store, validate: (value) => (userWebcamProblem(value) ? null : normalUserWebcam(value as UserWebcam)),
  });
  const alerts = createAlerts({
    collection: alertCollection, request, onError: (error) => console.error('Alerts sync failed', error),
    // Logged in as the session (made below) counts it: a stored user.
    loggedIn: computed(() => settings.signal('user').value !== null),
  });
  // The menu button's badge (ui/components/MenuButton.tsx) reads the setting, not this chunk.
  effect(() => {
    settings.set('badgeNumber', alerts.newCount.value);
  });
  const settingsCloud = createSettingsCloud({
    settings, request, store, keys: settingKeys().filter((key) => settingDef(key).storage === 'sync'),
  });
  const subscriptionInfo = signal<SubscriptionInfo | null>(null);
  const session = createSession({
    settings,
    request,
    store,
    settingsCloud,
    collections: [collection, alertCollection, webcams],
    runPendingAction: (pending) => runPending(app, favourites, pending),
    checkConsent: () => services.consent.start(),
    openLogin: () => void app.router.navigate('/login'),
    usage: app.usage,
    showMessage: (message) => void loadBundle('register').then(() => services.messages.show(message)),
    device: () => ({
      platform: platformOf(navigator),
      target: 'web',
      version,
      cc: settings.get('country') as string | null,
      subscription: settings.get('subscription') as string | null,
      screen: { width: screen.width, height: screen.height, devicePixelRatio: window.devicePixelRatio },
      pushSubscription: push.subscription.peek(),
    }),
    online: () => services.connection.online.peek(),
    reload: () => location.reload(),
    onCollectionError: (name) => {
      if (name === 'favs') showSyncError();
    },
    onSubscriptionInfo: (info) => {
      subscriptionInfo.value = asSubscriptionInfo(info);
      applySubscription(info, {
      settings,
      showMessage: (message) => void loadBundle(SUBSCRIPTION_BUNDLE).then(() => services.messages.show(message)),
        open: (ident) => {
          if (!app.panels.isOpen(ident)) void app.router.navigate(`/${ident}`);
        },
      });
    },
  });

  // Another browser may have changed something while this page was hidden.
  const onVisible = () => {
    if (document.visibilityState === 'visible') void session.refresh();
  };
  document.addEventListener('visibilitychange', onVisible);

  // Web Push: the worker is registered and an earlier subscription read while someone is logged
  // in; a push that arrives refreshes the badge, a click on a notification opens its page here.
  const push = createPush({
    browser: browserPush(),
    publicKey: () => request<unknown>('GET', VAPID_KEY_PATH).then((answer) => answerOf(VAPID_ANSWER, answer, VAPID_KEY_PATH).publicKey),
    saveDevice: () => session.registerDevice(),
    onMessage: (message) => {
      const ids = message.id ? { ids: [message.id] } : {};
      if (message.kind === 'isobar-push') {
        void request('POST', interactionPath('received'), ids).catch(() => undefined).then(() => alerts.notifications()).catch(() => undefined);
      } else {
        void alerts.markOpened(message.id ? [message.id] : undefined).catch(() => undefined);
        void app.router.navigate(message.url);
      }
    },
  });
  effect(() => {
    if (session.loggedIn.value) void push.start();
    else subscriptionInfo.value = null;
  });

  // The stored token and user are read once the settings are in (a window may open before).
  const started = whenReady(settings.ready).then(() => Promise.all([collection.load(), alertCollection.load(), webcams.load()])).then(() => session.start()).catch((error: unknown) => {
    console.error('Account start failed', error);
  });
  return { session, favourites, alerts, webcams, settingsCloud, request, push, subscriptionInfo, started };
}
