/**
 * The favorites window (route /favs; SPEC §3 "Favourite", §4, §6: favourites need login): the
 * user's favorites, synced with the cloud when it opens. Each one opens its forecast (or its
 * airport, station, webcam or route window), can be renamed, pinned to the homepage
 * (pin2homepage) and removed. Logged out, it says why an account is needed and offers login;
 * logged in, it also shows who is logged in, with logout.
 */

import './favs.css';
import { useEffect, useState, type FormEvent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { pointPath } from '../../../common/routes.ts';
import type { Account } from '../../account/account.ts';
import type { Favourites, StoredFavourite } from '../../account/favourites.ts';
import { withAccount } from '../../services/ServicesContext.tsx';
import type { AppState } from '../../state/appState.ts';
import { PanelFrame } from '../PanelFrame.tsx';
import type { PanelProps } from '../registry.ts';

/** The window a favourite opens (SPEC §2 routes). */
export function favouritePath(fav: StoredFavourite): string | null {
  switch (fav.type) {
    case 'fav':
      return fav.lat !== undefined && fav.lon !== undefined ? pointPath(fav.lat, fav.lon) : null;
    case 'airport':
      return `/airport/${encodeURIComponent(fav.icao!)}`;
    case 'station':
      return `/station/${encodeURIComponent(fav.stationId!)}`;
    case 'webcam':
      return `/webcams/${fav.webcamId}`;
    case 'route':
      return `/route-planner/${fav.route}`;
    default:
      return null;
  }
}

function open(app: AppState, fav: StoredFavourite) {
  const path = favouritePath(fav);
  if (!path) return;
  if (fav.lat !== undefined && fav.lon !== undefined) app.map.moveTo({ lat: fav.lat, lon: fav.lon });
  void app.router.navigate(path);
}

function FavRow({ app, favourites, fav }: { app: AppState; favourites: Favourites; fav: StoredFavourite }) {
  const { t } = useTranslation('favs');
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(fav.title);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    if (title.trim() === '' || title.trim() === fav.title) {
      setEditing(false);
      setTitle(fav.title);
      return;
    }
    void run(async () => {
      if (await favourites.rename(fav.id, title)) setEditing(false);
    });
  };
  const pinned = fav.pin2homepage === true;

  if (editing) {
    return (
      <li className="fav" data-fav={fav.id}>
        <form className="fav-rename" onSubmit={save}>
          <input value={title} autoFocus maxLength={200} aria-label={t('item.renameLabel', { title: fav.title })} data-testid="fav-rename-input"
            disabled={busy} onChange={(e) => setTitle(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.stopPropagation();
                setEditing(false);
                setTitle(fav.title);
              }
            }} />
          <button type="submit" className="fav-save" disabled={busy} data-testid="fav-rename-save">{t('item.save')}</button>
          <button type="button" className="fav-cancel" disabled={busy} onClick={() => {
            setEditing(false);
            setTitle(fav.title);
          }}>{t('item.cancel')}</button>
        </form>
      </li>
    );
  }
  return (
    <li className={pinned ? 'fav pinned' : 'fav'} data-fav={fav.id} data-testid="fav">
      <button type="button" className="fav-open" title={t('item.open', { title: fav.title })} onClick={() => open(app, fav)} disabled={!favouritePath(fav)}>
        <span className="fav-title" data-testid="fav-title">{fav.title}</span>
        <span className="fav-meta">
          {t(`types.${fav.type}`)}
          {fav.lat !== undefined && fav.lon !== undefined && ` · ${fav.lat.toFixed(2)}, ${fav.lon.toFixed(2)}`}
          {pinned && <> · <span className="fav-pinned-note">{t('item.pinned')}</span></>}
        </span>
      </button>
      <div className="fav-actions">
        <button type="button" className={pinned ? 'fav-icon active' : 'fav-icon'} aria-pressed={pinned} disabled={busy} data-testid="fav-pin"
          title={pinned ? t('item.unpin') : t('item.pin')} aria-label={pinned ? t('item.unpin') : t('item.pin')}
          onClick={() => void run(() => favourites.setPinned(fav.id, !pinned))}>
          <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill={pinned ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
            <path d="M9 3h6l-1 6 4 4H6l4-4-1-6zM12 13v8" />
          </svg>
        </button>
        <button type="button" className="fav-icon" disabled={busy} data-testid="fav-rename" title={t('item.rename')} aria-label={t('item.rename')}
          onClick={() => {
            setTitle(fav.title);
            setEditing(true);
          }}>
          <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
            <path d="M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4" />
          </svg>
        </button>
        <button type="button" className="fav-icon fav-remove" disabled={busy} data-testid="fav-remove" title={t('item.remove')}
          aria-label={t('item.removeLabel', { title: fav.title })} onClick={() => void run(() => favourites.remove(fav.id))}>
          <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      </div>
    </li>
  );
}

function FavsPanel({ app, close, openCount, account }: PanelProps & { account: Account }) {
  useSignals();
  const { t } = useTranslation('favs');
  const { session, favourites } = account;
  const user = session.user.value;
  const list = favourites.list.value;
  const [syncing, setSyncing] = useState(true);
  const [loggingOut, setLoggingOut] = useState(false);

  useEffect(() => {
    // Each opening brings the cloud's changes (SPEC §4 "Stored data sync").
    let live = true;
    setSyncing(true);
    void account.started.then(() => (session.loggedIn.peek() ? favourites.sync() : null)).finally(() => {
      if (live) setSyncing(false);
    });
    return () => {
      live = false;
    };
  }, [account, session, favourites, openCount]);

  if (!user) {
    return (
      <PanelFrame title={t('title')} close={close} className="favs-panel">
        <div className="favs-logged-out" data-testid="favs-logged-out">
          <p>{t('loggedOut.text')}</p>
          <div className="favs-buttons">
            <button type="button" className="favs-primary" data-testid="favs-login"
              onClick={() => void session.requireLogin('favs')}>{t('loggedOut.login')}</button>
            <button type="button" className="favs-secondary" onClick={() => void app.router.navigate('/register')}>{t('loggedOut.register')}</button>
          </div>
        </div>
      </PanelFrame>
    );
  }

  const name = String(user.username || user.email || '');
  // Pinned ones first, then in the order they were added.
  const shown = [...list].sort((a, b) => Number(b.pin2homepage === true) - Number(a.pin2homepage === true));
  return (
    <PanelFrame title={t('title')} close={close} className="favs-panel">
      <div className="favs-account">
        <span className="favs-user" data-testid="favs-user">{t('account.as', { name })}</span>
        <button type="button" className="favs-logout" disabled={loggingOut} data-testid="favs-logout" onClick={() => {
          setLoggingOut(true);
          void session.logout();
        }}>{loggingOut ? t('account.loggingOut') : t('account.logout')}</button>
      </div>
      {shown.length === 0
        ? <p className="favs-empty" data-testid="favs-empty" role="status">{syncing ? t('loading') : t('empty')}</p>
        : <ul className="favs-list" data-testid="favs-list">{shown.map((fav) => <FavRow key={fav.id} app={app} favourites={favourites} fav={fav} />)}</ul>}
    </PanelFrame>
  );
}

export default withAccount(FavsPanel);
