/** The overlay switcher (SPEC §3 overlays): one button per overlay the shown product has. */

import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { OVERLAYS } from '../../common/catalogue/overlays.ts';
import type { AppState } from '../state/appState.ts';
import { OverlayIcon } from './icons.tsx';

export function OverlayMenu({ app }: { app: AppState }) {
  useSignals();
  const { t } = useTranslation();
  const product = app.layer.productDef.value;
  const active = app.layer.overlay.value;
  return (
    <nav className="overlay-menu" aria-label={t('overlay.title')}>
      {OVERLAYS.filter((o) => product.overlays.includes(o.ident)).map((o) => (
        <button
          key={o.ident}
          type="button"
          className={o.ident === active ? 'overlay-button active' : 'overlay-button'}
          aria-pressed={o.ident === active}
          data-overlay={o.ident}
          onClick={() => app.layer.setOverlay(o.ident)}
        >
          <OverlayIcon ident={o.icon} />
          <span>{t(o.trans)}</span>
        </button>
      ))}
    </nav>
  );
}
