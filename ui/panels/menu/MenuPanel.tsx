/** The menu (routes /menu, /overlays, /tools, /pois): the app's windows and tools that exist today. */

import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { TC_ACTIVE_COUNT_ANSWER, TC_ACTIVE_COUNT_PATH } from '../../../common/api/storms.ts';
import { badgeText } from '../../components/menuBadge.ts';
import { fetchAnswer } from '../../http/fetchAnswer.ts';
import { PanelFrame } from '../PanelFrame.tsx';
import { soundingPath } from '../sounding/soundingPath.ts';
import type { PanelProps } from '../registry.ts';

export default function MenuPanel({ app, close }: PanelProps) {
  useSignals();
  const { t } = useTranslation('menu');
  // The new notifications of the menu button's badge belong to the alerts entry.
  const badge = badgeText(app.settings.signal('badgeNumber').value);
  // The hurricane tracker's entry counts the active storms (SPEC §7 /tc/v2/storms/active/count).
  const [storms, setStorms] = useState(0);
  useEffect(() => {
    const abort = new AbortController();
    fetchAnswer(TC_ACTIVE_COUNT_ANSWER, TC_ACTIVE_COUNT_PATH, { signal: abort.signal }).then((a) => setStorms(a.count), () => setStorms(0));
    return () => abort.abort();
  }, []);
  // Routed windows replace the menu in its pane (and in the history); others close it first.
  const entries: { ident: string; label: string; run(): void }[] = [
    { ident: 'search', label: t('search'), run: () => {
      close();
      void app.router.openPanel('search');
    } },
    { ident: 'settings', label: t('settings'), run: () => void app.router.navigate('/settings') },
    { ident: 'favs', label: t('favs'), run: () => void app.router.navigate('/favs') },
    { ident: 'alerts', label: t('alerts'), run: () => void app.router.navigate('/alerts') },
    { ident: 'hurricanes', label: t('hurricanes'), run: () => void app.router.navigate('/hurricanes') },
    // SPEC §2 menu entry "sounding": at the picker's point when it is open, else at the map's centre.
    { ident: 'sounding', label: t('sounding'), run: () => {
      const at = app.picker.position.peek() ?? { lat: app.map.lat.peek(), lon: app.map.lon.peek() };
      void app.router.navigate(soundingPath(at.lat, at.lon));
    } },
    { ident: 'subscription', label: t('subscription'), run: () => void app.router.navigate('/subscription') },
    ...(app.settings.get('userToken') ? [] : [{ ident: 'login', label: t('login'), run: () => void app.router.navigate('/login') }]),
    { ident: 'debug', label: t('debug'), run: () => {
      close();
      void app.router.navigate('/debug');
    } },
  ];
  return (
    <PanelFrame title={t('title')} close={close} className="menu-panel">
      <ul className="menu-list">
        {entries.map((e) => (
          <li key={e.ident}>
            <button type="button" data-menu={e.ident} onClick={e.run}>
              {e.label}
              {e.ident === 'alerts' && badge && <span className="menu-badge menu-entry-badge" data-testid="menu-alerts-badge">{badge}</span>}
              {e.ident === 'hurricanes' && storms > 0 && (
                <span className="menu-badge menu-entry-badge" data-testid="menu-storms-badge" title={t('activeStorms', { n: storms })}>{badgeText(storms)}</span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </PanelFrame>
  );
}
