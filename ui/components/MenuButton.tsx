/**
 * The top bar's menu button (SPEC §2 routes /menu) with the notification badge: the number of new
 * notifications (SPEC §3 newCount; settings key badgeNumber) over its corner, hidden at 0, "99+"
 * above 99, and read out with the button ("3 new notifications"). The account code, in its own
 * chunk, keeps badgeNumber in step with the server (ui/account/account.ts); this file only reads
 * the setting, so nothing of the account comes into the start-up script.
 */

import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { AppState } from '../state/appState.ts';
import { OverlayIcon } from './icons.tsx';
import { badgeText } from './menuBadge.ts';
import './menuButton.css';

const LABEL_ID = 'menu-badge-label';

export function MenuButton({ app }: { app: AppState }) {
  useSignals();
  const { t } = useTranslation();
  const count = app.settings.signal('badgeNumber').value;
  const text = badgeText(count);
  const label = text ? t('menuBadge.label', { count }) : null;
  return (
    <button type="button" className="menu-button" aria-label={t('app.menu')} title={text ? t('menuBadge.title', { count }) : t('app.menu')}
      aria-describedby={label ? LABEL_ID : undefined} data-testid="menu-button" onClick={() => void app.router.navigate('/menu')}>
      <OverlayIcon ident="menu" />
      {text && <>
        <span className="menu-badge" aria-hidden="true" data-testid="menu-badge" data-count={count}>{text}</span>
        <span className="sr-only" id={LABEL_ID}>{label}</span>
      </>}
    </button>
  );
}
