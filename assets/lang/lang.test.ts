/**
 * Language bundles (issue 4 item 4): every language of SPEC §9 has every bundle with every key of
 * the English one, the same {{placeholders}} and plural forms its grammar needs, and is actually
 * translated: strings equal to the English are few (names, units, symbols).
 */

import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../common/languages.ts';

const ROOT = new URL('./', import.meta.url);
const BUNDLES = readdirSync(ROOT, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out[prefix + key] = value;
    else Object.assign(out, flatten(value, `${prefix}${key}.`));
  }
  return out;
}

const read = (bundle: string, lang: string): Record<string, string> | null => {
  const url = new URL(`${bundle}/${lang}.json`, ROOT);
  return existsSync(url) ? flatten(JSON.parse(readFileSync(url, 'utf8')) as Tree) : null;
};

/** i18next plural suffixes: a language may need other forms than English's _one / _other. */
const PLURAL = /_(zero|one|two|few|many|other)$/;
const base = (key: string) => key.replace(PLURAL, '');
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort();

describe.each(BUNDLES)('language bundle %s', (bundle) => {
  const en = read(bundle, 'en')!;
  it('has English', () => expect(en).not.toBeNull());

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s: every key, the same placeholders, translated', (lang) => {
    const other = read(bundle, lang);
    expect(other, `${bundle}/${lang}.json is missing`).not.toBeNull();
    const missing = Object.keys(en).filter((k) => !(k in other!) && !Object.keys(other!).some((o) => base(o) === base(k)));
    expect(missing, `${bundle}/${lang}.json lacks keys`).toEqual([]);
    const unknown = Object.keys(other!).filter((k) => !Object.keys(en).some((e) => base(e) === base(k)));
    expect(unknown, `${bundle}/${lang}.json has keys English has not`).toEqual([]);
    for (const [key, text] of Object.entries(other!)) {
      const english = en[key] ?? Object.entries(en).find(([k]) => base(k) === base(key))![1];
      expect(placeholders(text), `${bundle}/${lang}.json ${key}: placeholders`).toEqual(placeholders(english));
      expect(text.trim().length, `${bundle}/${lang}.json ${key} is empty`).toBeGreaterThan(0);
    }
    // Names, units and symbols may stay as in English; prose may not.
    const same = Object.keys(en).filter((k) => other![k] === en[k] && /[a-z]{4,}\s+[a-z]{3,}/i.test(en[k]));
    expect(same.length, `${bundle}/${lang}.json copies English: ${same.slice(0, 5).join(', ')}`).toBeLessThanOrEqual(Math.max(1, Math.floor(Object.keys(en).length * 0.05)));
  });
});
