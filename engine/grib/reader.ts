/**
 * Bounds-checked big-endian reads of one GRIB2 section. Octet numbers are 1-based and counted
 * from the start of the section, exactly as the WMO Manual on Codes (FM 92 GRIB edition 2) numbers
 * them, so `s.u16(13)` reads "octets 13-14" of the template tables. Every read outside the
 * section throws a GribError naming the section and what was being read.
 */

export class GribError extends Error {
  override name = 'GribError';
}

/** Section names for messages (WMO FM 92, Part B). */
export const SECTION_NAMES = [
  'indicator', 'identification', 'local use', 'grid definition', 'product definition',
  'data representation', 'bit-map', 'data', 'end',
] as const;

export class SectionReader {
  private readonly view: DataView;

  /**
   * @param bytes  the whole file (or message)
   * @param start  byte offset of the section's first octet in `bytes`
   * @param length the section's length in octets
   * @param label  what the errors call it, e.g. 'section 3 (grid definition) of message 2'
   */
  constructor(readonly bytes: Uint8Array, readonly start: number, readonly length: number, readonly label: string) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Throws unless octets first..last exist in the section. */
  need(last: number, what: string): void {
    if (last > this.length) {
      throw new GribError(`${this.label} is ${this.length} octets, too short for ${what} (needs ${last})`);
    }
  }

  u8(octet: number): number {
    this.need(octet, `octet ${octet}`);
    return this.view.getUint8(this.start + octet - 1);
  }

  u16(octet: number): number {
    this.need(octet + 1, `octets ${octet}-${octet + 1}`);
    return this.view.getUint16(this.start + octet - 1);
  }

  u32(octet: number): number {
    this.need(octet + 3, `octets ${octet}-${octet + 3}`);
    return this.view.getUint32(this.start + octet - 1);
  }

  /** GRIB2 signed integers are sign and magnitude: the first bit is the sign (Manual on Codes, 92.1.5). */
  s8(octet: number): number {
    const v = this.u8(octet);
    return v & 0x80 ? -(v & 0x7f) : v;
  }

  s16(octet: number): number {
    const v = this.u16(octet);
    return v & 0x8000 ? -(v & 0x7fff) : v;
  }

  s32(octet: number): number {
    const v = this.u32(octet);
    return v >= 0x80000000 ? -(v - 0x80000000) : v;
  }

  /** IEEE 754 single precision, big-endian (the reference value R of the data representation templates). */
  f32(octet: number): number {
    this.need(octet + 3, `octets ${octet}-${octet + 3}`);
    return this.view.getFloat32(this.start + octet - 1);
  }

  /** Byte offset in `bytes` of an octet of this section. */
  offsetOf(octet: number): number {
    return this.start + octet - 1;
  }
}
