/**
 * i18next set-up. The core English bundle is part of the initial load; other languages and
 * panel bundles load lazily (SPEC §2 "Lazy-loaded language bundles").
 */

import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../assets/lang/core/en.json';

export async function initI18n(lang = 'en'): Promise<typeof i18next> {
  await i18next.use(initReactI18next).init({
    lng: lang,
    fallbackLng: 'en',
    resources: { en: { translation: en } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18next;
}
