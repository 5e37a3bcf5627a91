/**
 * The map's context menu (SPEC §2 window "contextmenu", desktop right-click): forecast, sounding and
 * model comparison at the point, the nearest airports, weather stations and webcams, and copying
 * the point's coordinates (with a line that says they were copied). A menu of WAI-ARIA's menu
 * pattern: the first entry has the focus, arrows, Home and End move it, Enter or Space choose,
 * Escape or a press outside close it. Its texts are the contextmenu bundle's, loaded on first use;
 * this file is its own chunk (App.tsx).
 *
 * Nearest airports and stations open the windows of SPEC §2 'nearest-airports' and
 * 'nearest-stations' with the point; webcams nearby centres the map on the point and opens /webcams.
 */

import './contextMenu.css';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { pointPath } from '../../common/routes.ts';
import { COORD_DECIMALS } from '../../common/url.ts';
import { SECOND_MS } from '../../common/time.ts';
import { loadBundle } from '../i18n.ts';
import type { ContextMenuModel } from '../map/contextMenuModel.ts';
import { PANELS } from '../panels/panels.ts';
import type { AppState } from '../state/appState.ts';

/** How long the "copied" line stays. */
const COPIED_SHOWN_MS = 3 * SECOND_MS;
/** The windows the menu opens beside the point forecast (whose code App.tsx loads when idle after start). */
const MENU_WINDOWS = ['sounding', 'multimodel', 'nearest-airports', 'nearest-stations', 'webcams'] as const;

/**
 * Loads the code and language bundles of the menu's windows while the menu is shown, when the
 * browser is idle: the one chosen then opens without fetching and parsing its chunk (issue 16:
 * first content within 300 ms of the click). Each load happens once; later calls reuse it.
 */
function warmMenuWindows(): () => void {
  const run = () => {
    for (const ident of MENU_WINDOWS) {
      const def = PANELS[ident];
      if (def) void Promise.all([def.load(), def.prepare?.()]).catch(() => undefined);
    }
  };
  if (typeof requestIdleCallback !== 'function') {
    const handle = window.setTimeout(run, 50);
    return () => window.clearTimeout(handle);
  }
  const handle = requestIdleCallback(run, { timeout: 500 });
  return () => cancelIdleCallback(handle);
}

interface Entry {
  id: string;
  run(lat: number, lon: number): void | Promise<void>;
}

export default function ContextMenu({ app, model }: { app: AppState; model: ContextMenuModel }) {
  useSignals();
  const { t } = useTranslation('contextmenu');
  const at = model.at.value;
  const [ready, setReady] = useState(false);
  const [copied, setCopied] = useState<{ text: string; ok: boolean } | null>(null);
  const menu = useRef<HTMLDivElement>(null);

  useEffect(() => void loadBundle('contextmenu').then(() => setReady(true)), []);
  useEffect(() => (at ? warmMenuWindows() : undefined), [at]);
  // The first entry takes the focus when the menu opens.
  useEffect(() => {
    if (at && ready) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [at, ready]);
  // A press outside the menu closes it (the map's own click closes it too: MapView).
  useEffect(() => {
    if (!at) return;
    const outside = (e: PointerEvent) => {
      if (menu.current && !menu.current.contains(e.target as Node)) model.close();
    };
    const escape = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape') model.close();
    };
    document.addEventListener('pointerdown', outside, true);
    window.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside, true);
      window.removeEventListener('keydown', escape);
    };
  }, [at, model]);
  useEffect(() => {
    if (!copied) return;
    const handle = setTimeout(() => setCopied(null), COPIED_SHOWN_MS);
    return () => clearTimeout(handle);
  }, [copied]);

  const coords = (lat: number, lon: number) => `${lat.toFixed(COORD_DECIMALS)}, ${lon.toFixed(COORD_DECIMALS)}`;
  const path = (window: string, lat: number, lon: number) => `/${window}/${lat.toFixed(COORD_DECIMALS)}/${lon.toFixed(COORD_DECIMALS)}`;
  const entries: Entry[] = [
    { id: 'forecast', run: (lat, lon) => void app.router.navigate(pointPath(lat, lon)) },
    { id: 'sounding', run: (lat, lon) => void app.router.navigate(path('sounding', lat, lon)) },
    { id: 'multimodel', run: (lat, lon) => void app.router.navigate(path('multimodel', lat, lon)) },
    { id: 'airports', run: (lat, lon) => void app.router.openPanel('nearest-airports', { lat, lon }) },
    { id: 'stations', run: (lat, lon) => void app.router.openPanel('nearest-stations', { lat, lon }) },
    {
      id: 'webcams',
      run: (lat, lon) => {
        app.map.moveTo({ lat, lon });
        void app.router.navigate('/webcams');
      },
    },
    {
      id: 'copy',
      run: async (lat, lon) => {
        const text = coords(lat, lon);
        try {
          await navigator.clipboard.writeText(text);
          setCopied({ text, ok: true });
        } catch {
          // No clipboard (an insecure page, a refusal): the line shows the text to copy by hand.
          setCopied({ text, ok: false });
        }
      },
    },
  ];

  const choose = (entry: Entry) => {
    if (!at) return;
    model.close();
    void entry.run(at.lat, at.lon);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLElement);
    const move = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: items.length - 1 }[e.key];
    if (move === undefined) {
      if (e.key === 'Tab') e.preventDefault();
      return;
    }
    e.preventDefault();
    items[(move + items.length) % items.length]?.focus();
  };

  return (
    <>
      {at && ready && (
        <div ref={menu} className="context-menu" role="menu" aria-label={t('label')} data-testid="context-menu" onKeyDown={onKeyDown}
          style={{ left: Math.min(at.x, window.innerWidth - 240), top: Math.min(at.y, window.innerHeight - 330) }}>
          <div className="context-menu-head" aria-hidden="true">{coords(at.lat, at.lon)}</div>
          {entries.map((entry, k) => (
            <button key={entry.id} type="button" role="menuitem" tabIndex={k === 0 ? 0 : -1} data-entry={entry.id} onClick={() => choose(entry)}
              className={entry.id === 'airports' || entry.id === 'copy' ? 'separated' : undefined}>
              {t(entry.id)}
            </button>
          ))}
        </div>
      )}
      {copied && (
        <div className={copied.ok ? 'context-copied' : 'context-copied failed'} role="status" data-testid="context-copied">
          {t(copied.ok ? 'copied' : 'copyFailed', { coords: copied.text })}
        </div>
      )}
    </>
  );
}
