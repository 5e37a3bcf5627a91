/**
 * The top bar's way into the search window (SPEC §2 "location search"): a field-like button on
 * a desktop, a magnifier on a phone. It only opens the panel (ui/panels/search/, loaded then).
 */

import { useTranslation } from 'react-i18next';
import type { AppState } from '../state/appState.ts';
import './searchButton.css';

/** Typing into this target must not be taken as a keyboard shortcut. */
export function isEditable(target: EventTarget | null): boolean {
  return target instanceof HTMLElement
    && (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || target.isContentEditable);
}

export function SearchButton({ app }: { app: AppState }) {
  const { t } = useTranslation();
  return (
    <button type="button" className="search-button" title={t('searchButton.title')} aria-keyshortcuts="F" data-testid="search-button"
      onClick={() => void app.router.openPanel('search')}>
      <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round">
        <path d="M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 1 0 0-13M15.5 15.5L20 20" />
      </svg>
      <span className="search-button-label">{t('searchButton.label')}</span>
      <kbd aria-hidden="true">F</kbd>
    </button>
  );
}
