/**
 * The service worker (served as /sw.js, scope /): Web Push for alerts (SPEC §6 "push
 * notifications"). It does nothing else — no fetch handler, no caching: the app stays online-first.
 *
 *   push               -> a notification (pushMessage.ts), the app badge set to newCount where the
 *                         browser has one, and the open pages told (they refresh their badge and
 *                         report the notification received)
 *   notificationclick  -> an open page of the site is focused and told where to go; else a new
 *                         window opens at the notification's page
 */

import { pushNotice, type PushPageMessage } from './pushMessage.ts';

declare const self: ServiceWorkerGlobalScope;

const tell = async (message: PushPageMessage): Promise<readonly WindowClient[]> => {
  const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const page of pages) page.postMessage(message);
  return pages;
};

self.addEventListener('install', () => {
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  const notice = pushNotice(event.data?.text());
  const badge = (navigator as Navigator & { setAppBadge?: (n?: number) => Promise<void> }).setAppBadge;
  event.waitUntil(Promise.all([
    self.registration.showNotification(notice.title, {
      body: notice.body, tag: notice.tag, icon: '/favicon.svg', data: { url: notice.url, id: notice.id },
    }),
    notice.newCount !== null && badge ? badge.call(navigator, notice.newCount).catch(() => undefined) : undefined,
    tell({ kind: 'isobar-push', id: notice.id, newCount: notice.newCount }),
  ]));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown; id?: unknown } | null;
  // Only a path of this site: never another origin ('//host' included).
  const url = typeof data?.url === 'string' && /^\/(?![/\\])/.test(data.url) ? data.url : '/alerts';
  const message: PushPageMessage = { kind: 'isobar-notification-click', id: typeof data?.id === 'string' ? data.id : null, url };
  event.waitUntil((async () => {
    const pages = await tell(message);
    if (pages[0]) {
      await pages[0].focus();
      return;
    }
    await self.clients.openWindow(message.url);
  })());
});
