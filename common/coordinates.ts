/**
 * Coordinates typed into the search field (SPEC §2 "location search"): decimal degrees or degrees,
 * minutes and seconds, with signs or hemisphere letters, in either order when letters say which is
 * which.
 *
 *   "48.85, 2.35"   "-33.9 151.2"   "48.85N 2.35E"   "N 48.85 E 2.35"   "2.35E 48.85N"
 *   "48°51'24\"N 2°21'03\"E"   "48 51 24 N, 2 21 3 E"   "48°51.4'N 2°21.05'E"
 *
 * The text becomes tokens (numbers, unit marks ° ' ", hemisphere letters, one separator , ; /),
 * the tokens two groups, each group one angle: degrees [minutes [seconds]], only the last part
 * fractional, minutes and seconds under 60. Without letters the first angle is the latitude.
 * Anything else — a word, a third number group, a latitude beyond ±90 or a longitude beyond ±180 —
 * gives null: the text is a place name to look up instead.
 */

export interface LatLon {
  lat: number;
  lon: number;
}

type Token =
  | { kind: 'num'; text: string }
  | { kind: 'unit'; place: 0 | 1 | 2 }
  | { kind: 'hemi'; letter: 'N' | 'S' | 'E' | 'W' }
  | { kind: 'sep' };

/** Longer than any coordinate anyone types: no need to look further. */
const MAX_LENGTH = 64;

const UNIT_MARKS: Readonly<Record<string, 0 | 1 | 2>> = {
  '°': 0, 'º': 0, '˚': 0,
  "'": 1, '′': 1, '’': 1, '‘': 1,
  '"': 2, '″': 2, '”': 2, '“': 2,
};

function tokenize(text: string): Token[] | null {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const number = /^[-+−]?\d+(?:\.\d+)?/.exec(text.slice(i));
    if (number) {
      tokens.push({ kind: 'num', text: number[0].replace('−', '-') });
      i += number[0].length;
      continue;
    }
    if (c === "'" && text[i + 1] === "'") {
      // Two single quotes for seconds, as typed on keyboards without a double quote key.
      tokens.push({ kind: 'unit', place: 2 });
      i += 2;
      continue;
    }
    if (c in UNIT_MARKS) {
      tokens.push({ kind: 'unit', place: UNIT_MARKS[c] });
      i++;
      continue;
    }
    const upper = c.toUpperCase();
    if (upper === 'N' || upper === 'S' || upper === 'E' || upper === 'W') {
      // A letter inside a word ("New", "Sevilla") is not a hemisphere.
      if (/\p{L}/u.test(text[i + 1] ?? '')) return null;
      tokens.push({ kind: 'hemi', letter: upper });
      i++;
      continue;
    }
    if (c === ',' || c === ';' || c === '/') {
      tokens.push({ kind: 'sep' });
      i++;
      continue;
    }
    return null;
  }
  return tokens;
}

/** Splits the tokens into the two angles' groups; null when they do not split one clear way. */
function split(tokens: Token[]): [Token[], Token[]] | null {
  const seps = tokens.flatMap((t, i) => (t.kind === 'sep' ? [i] : []));
  if (seps.length > 1) return null;
  if (seps.length === 1) return [tokens.slice(0, seps[0]), tokens.slice(seps[0] + 1)];

  const hemis = tokens.flatMap((t, i) => (t.kind === 'hemi' ? [i] : []));
  if (hemis.length > 0) {
    if (hemis.length !== 2) return null;
    // Leading letters ("N 48 E 2"): the second angle starts at the second letter.
    if (hemis[0] === 0) return [tokens.slice(0, hemis[1]), tokens.slice(hemis[1])];
    // Trailing letters ("48 N 2 E"): the first angle ends at the first letter.
    return [tokens.slice(0, hemis[0] + 1), tokens.slice(hemis[0] + 1)];
  }

  // Degree marks: the second angle starts at the number before the second degree mark.
  const degrees = tokens.flatMap((t, i) => (t.kind === 'unit' && t.place === 0 ? [i] : []));
  if (degrees.length === 2) return [tokens.slice(0, degrees[1] - 1), tokens.slice(degrees[1] - 1)];
  if (degrees.length > 0 || tokens.some((t) => t.kind === 'unit')) return null;

  // Bare numbers: as many for each angle (2: degrees, 4: and minutes, 6: and seconds).
  if (tokens.length % 2 !== 0 || tokens.length > 6) return null;
  return [tokens.slice(0, tokens.length / 2), tokens.slice(tokens.length / 2)];
}

interface Angle {
  value: number;
  /** The hemisphere letter, if the group had one. */
  axis: 'lat' | 'lon' | null;
}

function angleOf(group: Token[]): Angle | null {
  let hemi: 'N' | 'S' | 'E' | 'W' | null = null;
  const body = [...group];
  if (body[0]?.kind === 'hemi') hemi = (body.shift() as { letter: 'N' | 'S' | 'E' | 'W' }).letter;
  if (body[body.length - 1]?.kind === 'hemi') {
    if (hemi) return null;
    hemi = (body.pop() as { letter: 'N' | 'S' | 'E' | 'W' }).letter;
  }
  const parts: string[] = [];
  for (let i = 0; i < body.length; i++) {
    const t = body[i];
    if (t.kind !== 'num') return null;
    const unit = body[i + 1];
    if (unit?.kind === 'unit') {
      // A mark names the part: it must be the part this number is in order.
      if (unit.place !== parts.length) return null;
      i++;
    }
    parts.push(t.text);
  }
  if (parts.length < 1 || parts.length > 3) return null;
  // Only the degrees carry a sign; only the last part has a fraction.
  if (parts.slice(1).some((p) => /^[-+]/.test(p))) return null;
  if (parts.slice(0, -1).some((p) => p.includes('.'))) return null;
  const [deg, min = 0, sec = 0] = parts.map(Number);
  if (min >= 60 || sec >= 60) return null;
  const negative = parts[0].startsWith('-');
  if (negative && hemi) return null;
  let value = Math.abs(deg) + min / 60 + sec / 3600;
  if (negative || hemi === 'S' || hemi === 'W') value = -value;
  return { value, axis: hemi === null ? null : hemi === 'N' || hemi === 'S' ? 'lat' : 'lon' };
}

/** The coordinates the text spells, or null when it is no coordinate pair. */
export function parseCoordinates(text: string): LatLon | null {
  if (text.length > MAX_LENGTH) return null;
  const tokens = tokenize(text.trim());
  if (!tokens || tokens.length === 0) return null;
  const groups = split(tokens);
  if (!groups) return null;
  const a = angleOf(groups[0]);
  const b = angleOf(groups[1]);
  if (!a || !b) return null;
  if ((a.axis === null) !== (b.axis === null)) return null;
  if (a.axis !== null && a.axis === b.axis) return null;
  const [lat, lon] = a.axis === 'lon' ? [b.value, a.value] : [a.value, b.value];
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  // Round away the float noise of the minutes and seconds (1e-6° is about 10 cm).
  const round = (x: number) => Math.round(x * 1e6) / 1e6 + 0;
  return { lat: round(lat), lon: round(lon) };
}

/** The way the search shows a coordinate pair: 3 decimals (SPEC §9 coordinate precision). */
export function formatCoordinates({ lat, lon }: LatLon): string {
  const fixed = (x: number) => x.toFixed(3).replace(/^-(0\.0+)$/, '$1');
  return `${fixed(lat)}, ${fixed(lon)}`;
}
