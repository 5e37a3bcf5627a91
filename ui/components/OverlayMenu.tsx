/**
 * The overlay menu (SPEC §3 overlays, §5 favourite layers): the user's favourite layers first
 * (desktop at most 7, mobile its own list), the shown overlay even when it is not one of them, and
 * "More layers" with every overlay a served model has, each with a star to add or remove it from
 * the favourites. Choosing an overlay the model lacks switches to a model that has it (SPEC §4);
 * where no model has it here, the menu says so and offers the nearest one that has it. The SPEC §3
 * overlays no source fills yet (UNSOURCED_OVERLAYS) are listed disabled with what would fill them
 * and the setting that would enable it. On a phone the expanded list opens with the topic filters
 * of SPEC §3 mobileMenuFilter (wind, rain, sea, air quality, drought, temperature, warnings, clouds,
 * or a search by name), the choice kept in that setting.
 */

import { useEffect, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { overlaysOf } from '../../common/catalogue/layerRules.ts';
import { OBSERVATION_OVERLAYS, UNSOURCED_OVERLAYS, overlayByIdent } from '../../common/catalogue/overlays.ts';
import { MAX_FAV_OVERLAYS_DESKTOP } from '../../common/settings.ts';
import { PRODUCTS } from '../../common/catalogue/products.ts';
import { acceptOverlayOffer, chooseOverlay, dismissOverlayOffer, overlayOffer } from '../state/layerActions.ts';
import type { AppState } from '../state/appState.ts';
import { OverlayIcon } from './icons.tsx';
import { MENU_FILTERS, filterLists, type MenuFilter } from '../../common/catalogue/menuFilters.ts';
import { shownOnGlobe } from '../map/globeMode.ts';

export function OverlayMenu({ app }: { app: AppState }) {
  useSignals();
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const mobile = app.mobile();
  // SPEC §3 mobileMenuFilter: the phone's topic filter; the desktop lists everything.
  const filter: MenuFilter = mobile ? app.settings.get('mobileMenuFilter') as MenuFilter : 'all';
  const listed = (ident: string, trans: string) => filterLists(filter, ident, t(trans), query);
  const key = mobile ? 'favOverlaysMobile' : 'favOverlaysDesktop';
  const favourites = app.settings.get(key) as string[];
  const active = app.layer.overlay.value;
  const offer = overlayOffer.value;
  const offerRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The menu may be scrolled down to the layer just chosen: the offer comes into sight.
    if (offer) offerRef.current?.scrollIntoView({ block: 'nearest' });
  }, [offer]);
  const local = app.data.local.value;
  const served = app.data.served.value.map((p) => p.ident);
  // SPEC §2 window "globe": overlays the globe cannot show are left out while it shows (GlobeControl notes it).
  const globe = app.map.globe.value;
  // Observation overlays (radar) come from the observation sources, whatever the model.
  const available = (local ? local.overlays : [...overlaysOf(served.length ? served : [app.layer.product.value]), ...OBSERVATION_OVERLAYS])
    .filter((ident) => shownOnGlobe(overlayByIdent(ident), globe));
  const shown = [...favourites.filter((o) => available.includes(o)), ...(favourites.includes(active) ? [] : [active])];

  const toggleFavourite = (ident: string) => {
    const next = favourites.includes(ident) ? favourites.filter((o) => o !== ident) : [...favourites, ident];
    if (!mobile && next.length > MAX_FAV_OVERLAYS_DESKTOP) {
      setMessage(t('overlay.maxFavs', { num: MAX_FAV_OVERLAYS_DESKTOP }));
      return;
    }
    setMessage(null);
    app.settings.set(key, next as never);
  };

  const button = (ident: string) => {
    const o = overlayByIdent(ident);
    if (!o) return null;
    return (
      <button key={ident} type="button" className={ident === active ? 'overlay-button active' : 'overlay-button'}
        aria-pressed={ident === active} data-overlay={ident} onClick={() => chooseOverlay(app, ident)}>
        <OverlayIcon ident={o.icon} />
        <span>{t(o.trans)}</span>
      </button>
    );
  };

  return (
    <nav className={expanded ? 'overlay-menu expanded' : 'overlay-menu'} aria-label={t('overlay.title')} data-testid="overlay-menu">
      {/* First: a long list of layers would scroll it out of sight. */}
      {offer && (
        <div ref={offerRef} className="overlay-message overlay-offer" role="alert" data-testid="overlay-offer" data-overlay={offer.overlay} data-product={offer.product}>
          {/* SPEC §8: "Data not available for this location"; the nearest model that has it, one click away. */}
          <span>{t(overlayByIdent(offer.overlay)?.trans ?? offer.overlay)}: {t('picker.noData')}</span>
          <button type="button" className="overlay-offer-take" data-testid="overlay-offer-take" title={t('product.title')}
            onClick={() => acceptOverlayOffer(app)}>
            {PRODUCTS[offer.product]?.modelName ?? offer.product} →
          </button>
          <button type="button" className="overlay-offer-close" aria-label={t('picker.close')} onClick={dismissOverlayOffer}>×</button>
        </div>
      )}
      {shown.map(button)}
      <button type="button" className="overlay-more" aria-expanded={expanded} data-testid="overlay-more" onClick={() => setExpanded(!expanded)}>
        {expanded ? t('overlay.fewer') : t('overlay.more')}
      </button>
      {expanded && mobile && (
        <div className="overlay-filters" role="tablist" aria-label={t('menuFilter.title')} data-testid="overlay-filters">
          {MENU_FILTERS.map((f) => (
            <button key={f} type="button" role="tab" aria-selected={f === filter} className={f === filter ? 'overlay-filter active' : 'overlay-filter'}
              data-filter={f} onClick={() => app.settings.set('mobileMenuFilter', f as never)}>
              {t(`menuFilter.${f}`)}
            </button>
          ))}
          {filter === 'search' && (
            <input type="search" className="overlay-filter-search" data-testid="overlay-filter-search" autoFocus value={query}
              placeholder={t('menuFilter.searchPlaceholder')} aria-label={t('menuFilter.searchPlaceholder')} onChange={(e) => setQuery(e.target.value)} />
          )}
        </div>
      )}
      {expanded && (
        <ul className="overlay-all" data-testid="overlay-all" data-filter={filter}>
          {available.filter((ident) => listed(ident, overlayByIdent(ident)!.trans)).map((ident) => {
            const o = overlayByIdent(ident)!;
            const fav = favourites.includes(ident);
            return (
              <li key={ident}>
                {button(ident)}
                <button type="button" className={fav ? 'fav-star on' : 'fav-star'} aria-pressed={fav} data-fav={ident}
                  title={fav ? t('overlay.removeFav', { name: t(o.trans) }) : t('overlay.addFav', { name: t(o.trans) })}
                  onClick={() => toggleFavourite(ident)}>
                  {fav ? '★' : '☆'}
                </button>
              </li>
            );
          })}
          {UNSOURCED_OVERLAYS.filter((o) => listed(o.ident, o.trans)).map((o) => {
            const note = t('overlay.needsSource', { source: o.source });
            return (
              <li key={o.ident}>
                <button type="button" className="overlay-button" disabled data-overlay={o.ident} data-needs-source={o.setting ?? ''}
                  title={o.setting ? `${note} (${o.setting})` : note}>
                  <OverlayIcon ident={o.icon} />
                  <span>{t(o.trans)}</span>
                </button>
                <small className="overlay-needs-source">{note}{o.setting && <> (<code>{o.setting}</code>)</>}</small>
              </li>
            );
          })}
        </ul>
      )}
      {message && <p className="overlay-message" role="alert" data-testid="overlay-message">{message}</p>}
    </nav>
  );
}
