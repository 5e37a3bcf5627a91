/**
 * WMO bulletin framing around GRIB messages, as NWS and GTS files carry it (WMO Manual on the
 * Global Telecommunication System, WMO-No. 386, Part II, Attachment II-4 and II-12):
 *
 *   [SOH CR CR LF nnn CR CR LF]   starting line: SOH (0x01) and a 3- or 5-digit sequence number
 *   T1T2A1A2ii CCCC YYGGgg[ BBB] CR CR LF   abbreviated heading, e.g. "HTRA50 KWBC 101200 RRA"
 *   GRIB ... 7777                 the message
 *   [CR CR LF ETX]                end of message: ETX (0x03)
 *
 * before and between messages (NDFD files carry the heading line alone). ecCodes skips such bytes;
 * the decoder and the ingest skip exactly these and nothing else, so any other data between
 * messages is still reported as damage.
 */

const SOH = 0x01;
const ETX = 0x03;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;

/** T1T2A1A2ii CCCC YYGGgg, then an optional BBB indicator (RRx, CCx, AAx, Pxx), trailing spaces allowed. */
const HEADING = /^[A-Z]{4}\d{2} [A-Z]{4} \d{6}( [A-Z]{3})? *$/;
/** The longest heading line: 18 characters, a BBB group and a few trailing spaces. */
const MAX_HEADING = 32;

function lineEnd(bytes: Uint8Array, from: number, to: number): number {
  let p = from;
  while (p < to && p - from <= MAX_HEADING && bytes[p] !== CR && bytes[p] !== LF) p++;
  return p;
}

/** A 3- to 5-digit sequence number or an abbreviated heading, ended by CR or LF: its length, or 0. */
function framingLine(bytes: Uint8Array, from: number, to: number): number {
  const end = lineEnd(bytes, from, to);
  if (end >= to || (bytes[end] !== CR && bytes[end] !== LF)) return 0;
  const text = String.fromCharCode(...bytes.subarray(from, end));
  return /^\d{3,5}$/.test(text) || HEADING.test(text) ? end - from : 0;
}

/**
 * The first offset in [from, to) that is not WMO bulletin framing (SOH CR CR LF, ETX, CR, LF,
 * space, a sequence number line, an abbreviated heading line), or `to` when every byte is.
 */
export function skipBulletinFraming(bytes: Uint8Array, from: number, to = bytes.length): number {
  let p = from;
  while (p < to) {
    const b = bytes[p];
    if (b === ETX || b === CR || b === LF || b === SPACE) {
      p++;
      continue;
    }
    // SOH begins the starting line: SOH CR CR LF.
    if (b === SOH && p + 3 < to && bytes[p + 1] === CR && bytes[p + 2] === CR && bytes[p + 3] === LF) {
      p += 4;
      continue;
    }
    const line = framingLine(bytes, p, to);
    if (line === 0) return p;
    p += line;
  }
  return p;
}
