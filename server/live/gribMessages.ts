/**
 * Where the GRIB2 messages of a byte buffer start and end, without decoding them: enough to check
 * that a downloaded byte range holds whole messages and nothing else.
 *
 * Section 0 of every message (WMO FM 92 GRIB edition 2, section 0, 16 octets):
 *   octets 1-4   "GRIB"
 *   octets 5-6   reserved
 *   octet  7     discipline
 *   octet  8     edition number (2)
 *   octets 9-16  total length of the message in octets, unsigned big-endian, this section included
 * and every message ends with section 8, the four octets "7777".
 *
 * NWS and GTS files put WMO bulletin headers (sequence number, "TTAAii CCCC YYGGgg" heading, end
 * of message) before and between messages, as engine/grib/bulletin.ts describes: those are
 * skipped, as ecCodes and the decoder skip them.
 */

import { skipBulletinFraming } from '../../engine/grib/bulletin.ts';

export interface GribMessageSpan {
  /** Byte offset of "GRIB" in the buffer. */
  offset: number;
  /** Total length of the message, "GRIB" to "7777" inclusive. */
  length: number;
}

export class GribFormatError extends Error {
  override name = 'GribFormatError';
}

const SECTION0_LENGTH = 16;
const END_MARKER_LENGTH = 4;
const G = 0x47, R = 0x52, I = 0x49, B = 0x42, SEVEN = 0x37;

/**
 * The messages of `bytes`, which must be one or more whole GRIB2 messages back to back, each
 * perhaps inside WMO bulletin framing: each starts with "GRIB", is edition 2, fits in the buffer
 * and ends with "7777". Anything else is a GribFormatError naming the offset.
 */
export function gribMessages(bytes: Uint8Array): GribMessageSpan[] {
  if (bytes.length === 0) throw new GribFormatError('No GRIB data: the buffer is empty');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const spans: GribMessageSpan[] = [];
  let offset = skipBulletinFraming(bytes, 0);
  while (offset < bytes.length) {
    if (bytes.length - offset < SECTION0_LENGTH + END_MARKER_LENGTH) {
      throw new GribFormatError(`Truncated GRIB message at byte ${offset}: ${bytes.length - offset} bytes left`);
    }
    if (bytes[offset] !== G || bytes[offset + 1] !== R || bytes[offset + 2] !== I || bytes[offset + 3] !== B) {
      throw new GribFormatError(`No "GRIB" at byte ${offset}`);
    }
    const edition = bytes[offset + 7];
    if (edition !== 2) throw new GribFormatError(`GRIB edition ${edition} at byte ${offset}; only edition 2 is read`);
    const length = Number(view.getBigUint64(offset + 8));
    if (length < SECTION0_LENGTH + END_MARKER_LENGTH || length > bytes.length - offset) {
      throw new GribFormatError(`GRIB message at byte ${offset} claims ${length} bytes; ${bytes.length - offset} are there`);
    }
    const end = offset + length;
    for (let i = end - END_MARKER_LENGTH; i < end; i++) {
      if (bytes[i] !== SEVEN) throw new GribFormatError(`GRIB message at byte ${offset} does not end with "7777"`);
    }
    spans.push({ offset, length });
    offset = skipBulletinFraming(bytes, end);
  }
  if (spans.length === 0) throw new GribFormatError(`No GRIB message: ${bytes.length} bytes of bulletin headers only`);
  return spans;
}
