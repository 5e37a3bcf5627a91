/*
 * GRIB2 template 5.41 (PNG): the per-byte work after inflate, as engine/codecs/png.ts describes
 * the format. The wrapper inflates the image data straight into
 *
 *   raw   u8[height * (rowBytes + 1)]   rows of [filter type | rowBytes bytes]
 *   out   u32[width * height]           the pixels as big-endian integers of bitsPerPixel bits
 */

/** Adler-32 (RFC 1950 section 8.2) of bytes[0, length), in blocks short enough that the sums stay below 2^32. */
export function pngAdler32(bytes: usize, length: i32): u32 {
  let a: u32 = 1;
  let b: u32 = 0;
  for (let i = 0; i < length;) {
    const end = min(length, i + 3800);
    for (; i < end; i++) {
      a += load<u8>(bytes + <usize>i);
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return (b << 16) | a;
}

/**
 * Undoes the per-row filters in place (PNG section 9.2); `bpp` = bytes per complete pixel, at
 * least 1. Returns 0, or -(y + 1) for row y whose filter type is not 0..4.
 */
export function pngUnfilter(raw: usize, height: i32, rowBytes: i32, bpp: i32): i32 {
  const stride = <usize>(rowBytes + 1);
  const n = <usize>rowBytes;
  const step = <usize>bpp;
  for (let y = 0; y < height; y++) {
    const row = raw + <usize>y * stride + 1;
    const prior = row - stride; // only read when y > 0
    const filter = load<u8>(row - 1);
    if (filter == 0) continue;
    if (filter == 1) {
      for (let x = step; x < n; x++) store<u8>(row + x, load<u8>(row + x) + load<u8>(row + x - step));
    } else if (filter == 2) {
      if (y > 0) for (let x: usize = 0; x < n; x++) store<u8>(row + x, load<u8>(row + x) + load<u8>(prior + x));
    } else if (filter == 3) {
      if (y > 0) {
        for (let x: usize = 0; x < step; x++) store<u8>(row + x, load<u8>(row + x) + (load<u8>(prior + x) >> 1));
        for (let x = step; x < n; x++) {
          store<u8>(row + x, load<u8>(row + x) + <u8>((<u32>load<u8>(row + x - step) + <u32>load<u8>(prior + x)) >> 1));
        }
      } else {
        for (let x = step; x < n; x++) store<u8>(row + x, load<u8>(row + x) + (load<u8>(row + x - step) >> 1));
      }
    } else if (filter == 4) {
      if (y > 0) {
        for (let x: usize = 0; x < step; x++) store<u8>(row + x, load<u8>(row + x) + load<u8>(prior + x));
        for (let x = step; x < n; x++) {
          const a = <i32>load<u8>(row + x - step);
          const b = <i32>load<u8>(prior + x);
          const c = <i32>load<u8>(prior + x - step);
          const pa = abs(b - c);
          const pb = abs(a - c);
          const pc = abs(a + b - 2 * c);
          store<u8>(row + x, load<u8>(row + x) + <u8>(pa <= pb && pa <= pc ? a : pb <= pc ? b : c));
        }
      } else {
        // Paeth with no prior row predicts from the left byte alone.
        for (let x = step; x < n; x++) store<u8>(row + x, load<u8>(row + x) + load<u8>(row + x - step));
      }
    } else {
      return -(y + 1);
    }
  }
  return 0;
}

/** The pixels as big-endian integers of bitsPerPixel (1, 2, 4, 8, 16, 24 or 32) bits, row-major. */
export function pngUnpack(raw: usize, width: i32, height: i32, rowBytes: i32, bitsPerPixel: i32, out: usize): void {
  const stride = <usize>(rowBytes + 1);
  let o = out;
  for (let y = 0; y < height; y++) {
    let i = raw + <usize>y * stride + 1;
    if (bitsPerPixel == 8) {
      for (let x = 0; x < width; x++, i++, o += 4) store<u32>(o, load<u8>(i));
    } else if (bitsPerPixel == 16) {
      for (let x = 0; x < width; x++, i += 2, o += 4) store<u32>(o, <u32>bswap<u16>(load<u16>(i)));
    } else if (bitsPerPixel == 24) {
      for (let x = 0; x < width; x++, i += 3, o += 4) {
        store<u32>(o, (<u32>load<u8>(i) << 16) | (<u32>load<u8>(i, 1) << 8) | <u32>load<u8>(i, 2));
      }
    } else if (bitsPerPixel == 32) {
      for (let x = 0; x < width; x++, i += 4, o += 4) store<u32>(o, bswap<u32>(load<u32>(i)));
    } else {
      const bits = <u32>bitsPerPixel;
      const perByte = 8 / bits;
      const mask: u32 = (1 << bits) - 1;
      for (let x: u32 = 0; x < <u32>width; x++, o += 4) {
        const shift = 8 - bits * (1 + (x % perByte));
        store<u32>(o, (<u32>load<u8>(i + <usize>(x / perByte)) >> shift) & mask);
      }
    }
  }
}

// ---- inflate (RFC 1950 zlib wrapper around RFC 1951 DEFLATE), straight into the rows

export const INFLATE_SLACK: i32 = 16;

const ERR_TRUNCATED: i32 = -1; // the stream ends inside a block
const ERR_TOO_MUCH: i32 = -2; // more output than the header's image size
const ERR_BLOCK_TYPE: i32 = -3; // block type 3
const ERR_LENGTHS: i32 = -4; // invalid or over-subscribed code lengths
const ERR_CODE: i32 = -5; // a code that is not in the block's tables, or a literal/length or distance symbol out of range
const ERR_DISTANCE: i32 = -6; // a distance back past the first byte
const ERR_STORED: i32 = -7; // stored block length and its complement disagree
const ERR_HEADER: i32 = -8; // not a zlib header of a deflate stream without preset dictionary

/** Decoding tables: entry = symbol << 4 | code length (0: no such code), indexed by the next bits (LSB first). */
const LITLEN = memory.data(2 << 15, 16);
const DIST = memory.data(2 << 15, 16);
const CODELEN = memory.data(2 << 7, 16);
/** Code lengths of a dynamic block: 286 literal/length + 30 distance codes (+ room for a repeat's overrun check). */
const LENGTHS = memory.data(320, 16);
const COUNTS = memory.data(16 * 2, 16);
const NEXT = memory.data(16 * 2, 16);
/** Order in which code length code lengths are sent (RFC 1951 section 3.2.7). */
const CODELEN_ORDER = memory.data<u8>([16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]);
/** Length symbols 257..285: base length and extra bits (RFC 1951 section 3.2.5). */
const LENGTH_BASE = memory.data<u16>([
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
]);
const LENGTH_EXTRA = memory.data<u8>([0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]);
/** Distance symbols 0..29: base distance and extra bits. */
const DIST_BASE = memory.data<u16>([
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
  8193, 12289, 16385, 24577,
]);
const DIST_EXTRA = memory.data<u8>([
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
]);

/** The bits from bit `pos` on, LSB first (8 readable bytes from pos / 8: the input carries INFLATE_SLACK). */
@inline function bitsAt(src: usize, pos: usize): u64 {
  return load<u64>(src + (pos >> 3)) >> <u64>(pos & 7);
}

/**
 * Builds a decoding table of 2^bits entries from `n` code lengths at `lengths` (canonical Huffman
 * codes, RFC 1951 section 3.2.2). Returns the table's index width (the longest length, at least
 * 1), or ERR_LENGTHS for an over-subscribed set. An incomplete set leaves entries 0.
 */
function buildTable(lengths: usize, n: i32, table: usize): i32 {
  memory.fill(COUNTS, 0, 32);
  let longest = 0;
  for (let s = 0; s < n; s++) {
    const l = <i32>load<u8>(lengths + <usize>s);
    if (l > 0) {
      store<u16>(COUNTS + (<usize>l << 1), load<u16>(COUNTS + (<usize>l << 1)) + 1);
      if (l > longest) longest = l;
    }
  }
  let left = 1;
  let code = 0;
  for (let l = 1; l <= 15; l++) {
    left = (left << 1) - <i32>load<u16>(COUNTS + (<usize>l << 1));
    if (left < 0) return ERR_LENGTHS;
    code = (code + <i32>load<u16>(COUNTS + (<usize>(l - 1) << 1))) << 1;
    store<u16>(NEXT + (<usize>l << 1), <u16>code);
  }
  const bits = max(longest, 1);
  memory.fill(table, 0, <usize>2 << bits);
  for (let s = 0; s < n; s++) {
    const l = <i32>load<u8>(lengths + <usize>s);
    if (l == 0) continue;
    const c = <u32>load<u16>(NEXT + (<usize>l << 1));
    store<u16>(NEXT + (<usize>l << 1), <u16>(c + 1));
    // Codes are sent MSB first and read LSB first: index by the reversed code.
    const reversed = (bitrev16(c) >> <u32>(16 - l)) & ((1 << l) - 1);
    const entry = <u16>((s << 4) | l);
    for (let e = reversed; e < <u32>(1 << bits); e += <u32>(1 << l)) store<u16>(table + (<usize>e << 1), entry);
  }
  return bits;
}

@inline function bitrev16(x: u32): u32 {
  x = ((x >> 1) & 0x5555) | ((x & 0x5555) << 1);
  x = ((x >> 2) & 0x3333) | ((x & 0x3333) << 2);
  x = ((x >> 4) & 0x0f0f) | ((x & 0x0f0f) << 4);
  return ((x >> 8) & 0x00ff) | ((x & 0x00ff) << 8);
}

/**
 * Inflates the zlib stream src[0, bytes) (followed by INFLATE_SLACK readable bytes) into out,
 * stopping with ERR_TOO_MUCH as soon as it would write more than `size` bytes (a deflate bomb
 * costs no more than the image). Returns the number of bytes written, or a negative code.
 */
export function pngInflate(src: usize, bytes: i32, out: usize, size: i32): i32 {
  if (bytes < 2) return ERR_TRUNCATED;
  const cmf = <u32>load<u8>(src);
  const flg = <u32>load<u8>(src, 1);
  if ((cmf & 15) != 8 || (cmf >> 4) > 7 || ((cmf << 8) | flg) % 31 != 0 || (flg & 0x20) != 0) return ERR_HEADER;
  const endBits = <usize>bytes << 3;
  let pos: usize = 16;
  let o = 0;
  for (;;) {
    if (pos + 3 > endBits) return ERR_TRUNCATED;
    const header = <u32>bitsAt(src, pos);
    const final = header & 1;
    const type = (header >> 1) & 3;
    pos += 3;
    if (type == 0) {
      pos = (pos + 7) & ~7;
      if (pos + 32 > endBits) return ERR_TRUNCATED;
      const lengths = <u32>bitsAt(src, pos);
      const len = <i32>(lengths & 0xffff);
      if ((lengths >> 16) != (~lengths & 0xffff)) return ERR_STORED;
      pos += 32;
      if (pos + (<usize>len << 3) > endBits) return ERR_TRUNCATED;
      if (o + len > size) return ERR_TOO_MUCH;
      memory.copy(out + <usize>o, src + (pos >> 3), <usize>len);
      o += len;
      pos += <usize>len << 3;
    } else if (type == 3) {
      return ERR_BLOCK_TYPE;
    } else {
      let litBits: i32;
      let distBits: i32;
      if (type == 1) {
        // Fixed codes (RFC 1951 section 3.2.6).
        for (let s = 0; s < 288; s++) store<u8>(LENGTHS + <usize>s, s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8);
        litBits = buildTable(LENGTHS, 288, LITLEN);
        for (let s = 0; s < 30; s++) store<u8>(LENGTHS + <usize>s, 5);
        distBits = buildTable(LENGTHS, 30, DIST);
      } else {
        if (pos + 14 > endBits) return ERR_TRUNCATED;
        const counts = <u32>bitsAt(src, pos);
        const hlit = <i32>(counts & 31) + 257;
        const hdist = <i32>((counts >> 5) & 31) + 1;
        const hclen = <i32>((counts >> 10) & 15) + 4;
        pos += 14;
        if (hlit > 286 || hdist > 30) return ERR_LENGTHS;
        memory.fill(LENGTHS, 0, 19);
        if (pos + <usize>(3 * hclen) > endBits) return ERR_TRUNCATED;
        for (let i = 0; i < hclen; i++) {
          store<u8>(LENGTHS + <usize>load<u8>(CODELEN_ORDER + <usize>i), <u8>(bitsAt(src, pos) & 7));
          pos += 3;
        }
        const codeBits = buildTable(LENGTHS, 19, CODELEN);
        if (codeBits < 0) return codeBits;
        const codeMask = (<u64>1 << <u64>codeBits) - 1;
        const total = hlit + hdist;
        for (let i = 0; i < total;) {
          const entry = <u32>load<u16>(CODELEN + (<usize>(bitsAt(src, pos) & codeMask) << 1));
          const l = entry & 15;
          if (l == 0) return ERR_CODE;
          pos += l;
          const sym = entry >> 4;
          if (sym < 16) {
            store<u8>(LENGTHS + <usize>i, <u8>sym);
            i++;
          } else {
            let repeat: i32;
            let value: u8 = 0;
            const extra = <u32>bitsAt(src, pos);
            if (sym == 16) {
              if (i == 0) return ERR_LENGTHS;
              value = load<u8>(LENGTHS + <usize>(i - 1));
              repeat = 3 + <i32>(extra & 3);
              pos += 2;
            } else if (sym == 17) {
              repeat = 3 + <i32>(extra & 7);
              pos += 3;
            } else {
              repeat = 11 + <i32>(extra & 127);
              pos += 7;
            }
            if (i + repeat > total) return ERR_LENGTHS;
            memory.fill(LENGTHS + <usize>i, value, <usize>repeat);
            i += repeat;
          }
          if (pos > endBits) return ERR_TRUNCATED;
        }
        if (load<u8>(LENGTHS + 256) == 0) return ERR_LENGTHS; // no end-of-block code
        litBits = buildTable(LENGTHS, hlit, LITLEN);
        if (litBits < 0) return litBits;
        // The distance lengths follow the literal/length ones.
        distBits = buildTable(LENGTHS + <usize>hlit, hdist, DIST);
        if (distBits < 0) return distBits;
      }
      const litMask = (<u64>1 << <u64>litBits) - 1;
      const distMask = (<u64>1 << <u64>distBits) - 1;
      for (;;) {
        let bits = bitsAt(src, pos);
        const entry = <u32>load<u16>(LITLEN + (<usize>(bits & litMask) << 1));
        const l = entry & 15;
        if (l == 0) return ERR_CODE;
        pos += l;
        const sym = entry >> 4;
        if (sym < 256) {
          if (o >= size) return ERR_TOO_MUCH;
          store<u8>(out + <usize>o, <u8>sym);
          o++;
          if (pos > endBits) return ERR_TRUNCATED;
          continue;
        }
        if (sym == 256) break;
        if (sym > 285) return ERR_CODE;
        const li = <usize>(sym - 257);
        bits = bitsAt(src, pos);
        const lengthExtra = <u32>load<u8>(LENGTH_EXTRA + li);
        const length = <i32>load<u16>(LENGTH_BASE + (li << 1)) + <i32>(bits & ((<u64>1 << <u64>lengthExtra) - 1));
        pos += lengthExtra;
        bits = bitsAt(src, pos);
        const dentry = <u32>load<u16>(DIST + (<usize>(bits & distMask) << 1));
        const dl = dentry & 15;
        if (dl == 0) return ERR_CODE;
        pos += dl;
        const dsym = <usize>(dentry >> 4);
        if (dsym > 29) return ERR_CODE;
        const distExtra = <u32>load<u8>(DIST_EXTRA + dsym);
        const distance = <i32>load<u16>(DIST_BASE + (dsym << 1)) + <i32>(bitsAt(src, pos) & ((<u64>1 << <u64>distExtra) - 1));
        pos += distExtra;
        if (pos > endBits) return ERR_TRUNCATED;
        if (distance > o) return ERR_DISTANCE;
        if (o + length > size) return ERR_TOO_MUCH;
        const to = out + <usize>o;
        const from = to - <usize>distance;
        if (distance >= length) {
          memory.copy(to, from, <usize>length);
        } else {
          for (let k: usize = 0; k < <usize>length; k++) store<u8>(to + k, load<u8>(from + k));
        }
        o += length;
      }
    }
    if (pos > endBits) return ERR_TRUNCATED;
    if (final) break;
  }
  return o;
}
