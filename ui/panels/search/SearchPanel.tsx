/**
 * The search window (SPEC §2: opened by F and by the top bar's search button): places, airports
 * by ICAO, IATA or name, and typed coordinates (common/coordinates.ts, answered here without
 * asking the server). Results come from GET /search/v1/{query} (server/routes/geo.ts); the
 * recents (searchRecents.ts) show while the field is empty.
 *
 * Keyboard: arrows move through the list, Enter picks, Escape closes. Picking moves the map there
 * and opens the point forecast (route /{lat}/{lon}).
 */

import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCoordinates, parseCoordinates } from '../../../common/coordinates.ts';
import { pointPath } from '../../../common/routes.ts';
import { SEARCH_ANSWER, SEARCH_DEFAULT_LIMIT, searchPath, type SearchResult } from '../../../common/api/search.ts';
import { fetchAnswer } from '../../http/fetchAnswer.ts';
import type { PanelProps } from '../registry.ts';
import { recentsStore } from './searchRecents.ts';
import './search.css';

/** Typing settles this long before the server is asked. */
const TYPING_DEBOUNCE_MS = 150;
/** Picking a place zooms in at least this far (below the map-selector's zoom 11, SPEC §2). */
export const PICK_ZOOM = 10;
/** The map position tells the server which places are near only when it shows a region, not the world. */
const NEAR_MIN_ZOOM = 5;

type Lookup =
  | { status: 'idle' }
  | { status: 'loading'; results: SearchResult[] }
  | { status: 'done'; results: SearchResult[] }
  | { status: 'failed' };

async function fetchResults(url: string, signal: AbortSignal): Promise<SearchResult[]> {
  return (await fetchAnswer(SEARCH_ANSWER, url, { signal })).results;
}

function ResultIcon({ type }: { type: SearchResult['type'] }) {
  const path = type === 'airport'
    ? 'M21 16v-2l-8-5V3.5a1.5 1.5 0 0 0-3 0V9l-8 5v2l8-2.5V19l-2 1.5V22l3.5-1 3.5 1v-1.5L13 19v-5.5z'
    : type === 'coords'
      ? 'M12 3v4M12 17v4M3 12h4M17 12h4M12 8a4 4 0 1 0 0 8 4 4 0 1 0 0-8'
      // a weather station: a mast with a wind vane
      : type === 'station'
        ? 'M12 22V6M12 6l7-3v6l-7-3M8 22h8'
      : 'M12 21s-6-5.5-6-10.5a6 6 0 0 1 12 0C18 15.5 12 21 12 21z M12 8.5a2 2 0 1 0 0 4 2 2 0 1 0 0-4';
  const filled = type === 'airport';
  return (
    <svg className="search-icon" width="18" height="18" viewBox="0 0 24 24" aria-hidden="true"
      fill={filled ? 'currentColor' : 'none'} stroke={filled ? 'none' : 'currentColor'} strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
      <path d={path} />
    </svg>
  );
}

export default function SearchPanel({ app, openCount, phase, close }: PanelProps) {
  const { t, i18n } = useTranslation('search');
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  const mounted = useRef(false);
  const [text, setText] = useState('');
  const [lookup, setLookup] = useState<Lookup>({ status: 'idle' });
  const [recents, setRecents] = useState<SearchResult[] | null>(null);
  const [active, setActive] = useState(0);

  // A window opening anew starts empty with the cursor in the field (the component lives on when
  // it is opened again during its closing); a closing one gives the keyboard back at once, so F
  // opens it again.
  const opening = phase === 'opening';
  useEffect(() => {
    if (phase === 'closing') {
      if (document.activeElement === input.current) input.current?.blur();
    } else if (phase === 'opening') {
      setText('');
      input.current?.focus();
    }
  }, [phase]);

  // Asked to open while open: back to the field, its text selected for a new search.
  useEffect(() => {
    if (openCount > 1) {
      input.current?.focus();
      input.current?.select();
    }
  }, [openCount]);

  // The recents, read again each time the window opens (the read may end after the opening phase).
  useEffect(() => {
    if (opening) void recentsStore().list().then((list) => mounted.current && setRecents(list));
  }, [opening]);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const query = text.trim();
  useEffect(() => {
    setActive(0);
    if (!query) {
      setLookup({ status: 'idle' });
      return;
    }
    const coords = parseCoordinates(query);
    if (coords) {
      setLookup({ status: 'done', results: [{ type: 'coords', name: formatCoordinates(coords), country: '', cc: '', ...coords }] });
      return;
    }
    setLookup((previous) => ({ status: 'loading', results: 'results' in previous ? previous.results : [] }));
    const controller = new AbortController();
    const zoom = app.map.zoom.peek();
    const near = zoom >= NEAR_MIN_ZOOM ? { lat: app.map.lat.peek(), lon: app.map.lon.peek() } : {};
    const url = searchPath(query, { lang: i18n.language, limit: SEARCH_DEFAULT_LIMIT, ...near });
    const timer = setTimeout(() => {
      fetchResults(url, controller.signal).then(
        (results) => setLookup({ status: 'done', results }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          console.warn('Search failed', error);
          setLookup({ status: 'failed' });
        },
      );
    }, TYPING_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, app, i18n.language]);

  const showingRecents = !query;
  const items: SearchResult[] = showingRecents ? recents ?? [] : 'results' in lookup ? lookup.results : [];
  const activeIndex = Math.min(active, Math.max(0, items.length - 1));

  const pick = (result: SearchResult) => {
    void recentsStore().add(result).then(setRecents);
    app.map.moveTo({ lat: result.lat, lon: result.lon, zoom: Math.max(app.map.zoom.peek(), PICK_ZOOM) });
    close();
    void app.router.navigate(result.type === 'station' && result.stationId ? `/station/${encodeURIComponent(result.stationId)}` : pointPath(result.lat, result.lon));
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (items.length) setActive((activeIndex + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length);
    } else if (event.key === 'Enter' && event.target === input.current) {
      event.preventDefault();
      if (items[activeIndex]) pick(items[activeIndex]);
    }
  };

  const detail = (r: SearchResult) => {
    if (r.type === 'coords') return r.country || t('coordinates');
    return [r.region, r.country].filter(Boolean).join(', ');
  };
  const optionId = (i: number) => `${listId}-${i}`;

  let status: string | null = null;
  if (showingRecents && recents && !recents.length) status = t('hint');
  else if (lookup.status === 'failed') status = t('failed');
  else if (lookup.status === 'done' && !lookup.results.length) status = t('nothingFound');
  else if (lookup.status === 'loading' && !lookup.results.length) status = t('searching');

  return (
    <div className="search" role="search" onKeyDown={onKeyDown} data-testid="search">
      <div className="search-field">
        <svg className="search-glass" width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 1 0 0-13M15.5 15.5L20 20" />
        </svg>
        <input
          ref={input}
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('placeholder')}
          aria-label={t('label')}
          role="combobox"
          aria-expanded={items.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={items.length ? optionId(activeIndex) : undefined}
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          maxLength={100}
          data-testid="search-input"
        />
        <button type="button" className="search-close" aria-label={t('close')} onClick={close}>
          <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      </div>
      {showingRecents && items.length > 0 && <h2 className="search-heading">{t('recents')}</h2>}
      <ul className="search-results" id={listId} role="listbox" aria-label={showingRecents ? t('recents') : t('results')} data-testid="search-results">
        {items.map((r, i) => (
          <li
            key={`${r.type}:${r.name}:${r.lat}:${r.lon}`}
            id={optionId(i)}
            role="option"
            aria-selected={i === activeIndex}
            className={`search-result${i === activeIndex ? ' active' : ''}`}
            onPointerMove={() => i !== activeIndex && setActive(i)}
            onClick={() => pick(r)}
            data-type={r.type}
          >
            <ResultIcon type={r.type} />
            <span className="search-text">
              <span className="search-name">{r.name}</span>
              <span className="search-detail">{detail(r)}</span>
            </span>
            {(r.icao || r.iata || r.stationId) && <span className="search-codes">{[r.icao, r.iata, r.stationId].filter(Boolean).join(' · ')}</span>}
          </li>
        ))}
      </ul>
      {status && <p className="search-status" role="status" data-testid="search-status">{status}</p>}
      <p className="search-credits">
        <a href="https://www.geonames.org/" target="_blank" rel="noopener noreferrer">{t('creditCities')}</a>
        {' · '}
        <a href="https://ourairports.com/data/" target="_blank" rel="noopener noreferrer">{t('creditAirports')}</a>
      </p>
    </div>
  );
}
