/**
 * The 41 supported languages (SPEC §9: "en, zh-TW, zh, ja, fr ... bn") and the lazily loaded
 * language bundles (SPEC §2). A path may start with one of these as its prefix (SPEC §2).
 */

export const LANGUAGES = [
  'en', 'zh-TW', 'zh', 'ja', 'fr', 'ko', 'it', 'ru', 'nl', 'cs', 'tr', 'pl', 'sv', 'fi', 'ro', 'el',
  'hu', 'hr', 'ca', 'da', 'ar', 'fa', 'hi', 'ta', 'sk', 'uk', 'bg', 'he', 'is', 'lt', 'et', 'vi',
  'sl', 'sr', 'id', 'th', 'pt', 'nb', 'es', 'de', 'bn',
] as const;

export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'en';

/** Languages written right to left. */
export const RTL_LANGUAGES: readonly Language[] = ['ar', 'fa', 'he'];

/** Each language's own name, for the language menu. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English', 'zh-TW': '繁體中文', zh: '简体中文', ja: '日本語', fr: 'Français', ko: '한국어', it: 'Italiano',
  ru: 'Русский', nl: 'Nederlands', cs: 'Čeština', tr: 'Türkçe', pl: 'Polski', sv: 'Svenska', fi: 'Suomi',
  ro: 'Română', el: 'Ελληνικά', hu: 'Magyar', hr: 'Hrvatski', ca: 'Català', da: 'Dansk', ar: 'العربية',
  fa: 'فارسی', hi: 'हिन्दी', ta: 'தமிழ்', sk: 'Slovenčina', uk: 'Українська', bg: 'Български', he: 'עברית',
  is: 'Íslenska', lt: 'Lietuvių', et: 'Eesti', vi: 'Tiếng Việt', sl: 'Slovenščina', sr: 'Српски',
  id: 'Bahasa Indonesia', th: 'ไทย', pt: 'Português', nb: 'Norsk bokmål', es: 'Español', de: 'Deutsch', bn: 'বাংলা',
};

export function isLanguage(text: unknown): text is Language {
  return typeof text === 'string' && (LANGUAGES as readonly string[]).includes(text);
}

/**
 * The supported language for a BCP 47 tag: zh-TW / zh-Hant / zh-HK give zh-TW, other zh give zh,
 * no (Norwegian) and nn give nb, else the primary subtag when supported; null when none matches.
 */
export function languageFromTag(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const parts = tag.replace('_', '-').split('-');
  const primary = parts[0].toLowerCase();
  if (primary === 'zh') {
    const rest = parts.slice(1).map((p) => p.toLowerCase());
    return rest.some((p) => p === 'tw' || p === 'hant' || p === 'hk' || p === 'mo') ? 'zh-TW' : 'zh';
  }
  if (primary === 'no' || primary === 'nn') return 'nb';
  return isLanguage(primary) ? primary : null;
}
