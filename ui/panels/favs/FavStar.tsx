/**
 * The star of the forecast window's header (SPEC §2 "Detail view: add or remove favourite"): filled
 * when the place is a favorite (SPEC §9 same-location tolerance). Adding needs login (SPEC §5, §6):
 * logged out, the click stores the pending action and opens login (SPEC §4), and the place is
 * added once logged in. Its texts are in the favs bundle, which the detail window loads with its own,
 * as it loads the account's code; until the account is started the star shows, disabled.
 */

import './favs.css';
import { useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { Favourite } from '../../../common/favourites.ts';
import { useAccount } from '../../services/ServicesContext.tsx';

/**
 * `app` is not used (the account comes from the services); the forecast window still passes it.
 * With `station` the star keeps a weather station (a favourite of type station, SPEC §3).
 */
export function FavStar({ lat, lon, title, station }: { lat: number; lon: number; title: string; station?: string }) {
  useSignals();
  const { t } = useTranslation('favs');
  const account = useAccount();
  const [busy, setBusy] = useState(false);
  void account?.favourites.list.value;
  const existing = !account?.session.loggedIn.value ? undefined
    : station ? account.favourites.list.value.find((f) => f.type === 'station' && f.stationId === station)
      : account.favourites.at(lat, lon);

  const toggle = async () => {
    if (!account) return;
    const { session, favourites } = account;
    setBusy(true);
    try {
      if (existing) {
        await favourites.remove(existing.id);
        return;
      }
      const fav: Favourite = { type: station ? 'station' : 'fav', title, lat: Math.round(lat * 1e3) / 1e3, lon: Math.round(lon * 1e3) / 1e3, ...(station ? { stationId: station } : {}) };
      if (!(await session.requireLogin('addFav', fav as unknown as Record<string, unknown>))) return;
      await favourites.add(fav);
    } finally {
      setBusy(false);
    }
  };

  const label = existing ? t('star.remove') : t('star.add');
  return (
    <button type="button" className={existing ? 'fav-star-button active' : 'fav-star-button'} aria-pressed={!!existing} disabled={busy || !account}
      title={label} aria-label={label} data-testid="detail-fav" onClick={() => void toggle()}>
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill={existing ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round">
        <path d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z" />
      </svg>
    </button>
  );
}
