/**
 * Names folded for matching: lower case, diacritics removed, letters that Unicode does not
 * decompose spelled the way English keyboards type them, punctuation as single spaces.
 *
 *   "Zürich" -> "zurich"   "Saint-Étienne" -> "saint etienne"   "Łódź" -> "lodz"   "Straße" -> "strasse"
 */

/** Letters without a canonical decomposition (NFKD leaves them whole). */
const SPELLED: Readonly<Record<string, string>> = {
  ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i', ħ: 'h', ŧ: 't', ŋ: 'ng', ĸ: 'k',
};
const SPELLED_RE = new RegExp(`[${Object.keys(SPELLED).join('')}]`, 'g');

/** A character outside ASCII: text without one NFKD, the marks and SPELLED leave as it is. */
const NON_ASCII = /[^\p{ASCII}]/u;

export function foldName(text: string): string {
  // Most names are plain ASCII (the gazetteer folds some 800 000 at its load): skip the Unicode passes.
  if (!NON_ASCII.test(text)) return text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(SPELLED_RE, (c) => SPELLED[c])
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
