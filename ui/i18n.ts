/**
 * Languages (SPEC §2, §9): i18next with the 41 languages of common/languages.ts. The English core
 * bundle is part of the initial load; another language's core bundle loads before the UI renders,
 * and each panel's bundle (SPEC §2 "Lazy-loaded language bundles") loads when the panel opens:
 *
 *   assets/lang/core/{lang}.json          namespace "translation" (the default)
 *   assets/lang/{bundle}/{lang}.json      namespace {bundle}: t('search:nothingFound')
 *
 * The language comes from the path prefix, then the lang setting, then the browser (chooseLanguage).
 * A bundle that fails to load is logged and English stays (SPEC §8).
 */

import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../assets/lang/core/en.json';
import { DEFAULT_LANGUAGE, languageFromTag, RTL_LANGUAGES, type Language } from '../common/languages.ts';

type Loader = () => Promise<{ default: Record<string, unknown> }>;

// Every bundle file is its own chunk, fetched on demand.
const FILES = import.meta.glob<{ default: Record<string, unknown> }>(['../assets/lang/*/*.json', '!../assets/lang/core/en.json']);

function loaderFor(bundle: string, lang: string): Loader | undefined {
  return FILES[`../assets/lang/${bundle}/${lang}.json`] as Loader | undefined;
}

/** SPEC §2: path prefix, then the lang setting (unless auto), then the browser's languages. */
export function chooseLanguage(pathLang: Language | null, setting: string, browser: readonly string[]): Language {
  if (pathLang) return pathLang;
  if (setting !== 'auto') {
    const fromSetting = languageFromTag(setting);
    if (fromSetting) return fromSetting;
  }
  for (const tag of browser) {
    const lang = languageFromTag(tag);
    if (lang) return lang;
  }
  return DEFAULT_LANGUAGE;
}

const loaded = new Set<string>(['translation/en']);

async function addBundle(instance: i18n, bundle: string, lang: string): Promise<void> {
  const ns = bundle === 'core' ? 'translation' : bundle;
  const key = `${ns}/${lang}`;
  if (loaded.has(key)) return;
  const load = loaderFor(bundle, lang);
  if (!load) {
    if (lang !== DEFAULT_LANGUAGE) console.error(`Language file ${bundle}/${lang} is missing; English stays`);
    return;
  }
  try {
    const { default: resources } = await load();
    instance.addResourceBundle(lang, ns, resources, true, true);
    loaded.add(key);
  } catch (error) {
    console.error(`Language file ${bundle}/${lang} failed to load; English stays`, error);
  }
}

/** Loads a panel's bundle in the current language (and English, its fallback). */
export async function loadBundle(bundle: string): Promise<void> {
  const lang = i18next.language || DEFAULT_LANGUAGE;
  await Promise.all([addBundle(i18next, bundle, DEFAULT_LANGUAGE), lang === DEFAULT_LANGUAGE ? null : addBundle(i18next, bundle, lang)]);
}

function applyDocumentLanguage(lang: Language): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = lang;
  document.documentElement.dir = RTL_LANGUAGES.includes(lang) ? 'rtl' : 'ltr';
}

/** Switches language: its core bundle and the bundles already in use load first. */
export async function changeLanguage(lang: Language): Promise<void> {
  const bundles = [...loaded].map((k) => k.split('/')[0]).filter((ns, i, all) => all.indexOf(ns) === i);
  await Promise.all(bundles.map((ns) => addBundle(i18next, ns === 'translation' ? 'core' : ns, lang)));
  await i18next.changeLanguage(lang);
  applyDocumentLanguage(lang);
}

export async function initI18n(lang: Language = DEFAULT_LANGUAGE): Promise<typeof i18next> {
  await i18next.use(initReactI18next).init({
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    resources: { en: { translation: en } },
    interpolation: { escapeValue: false },
    returnNull: false,
    partialBundledLanguages: true,
  });
  if (lang !== DEFAULT_LANGUAGE) await changeLanguage(lang);
  else applyDocumentLanguage(lang);
  return i18next;
}
