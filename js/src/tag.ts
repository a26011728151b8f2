/**
 * The tag table of spec section 2, written once: every tag byte and length
 * class the encoder writes and the decoder reads is named here, so the spec
 * and the code can be read side by side.
 *
 * @module
 */

/** `0x00`–`0x7f`: the unsigned integer equal to the tag. */
export const FIXUINT_MAX = 0x7f;
/** `0x80`–`0x9f`: a string of `tag & 0x1f` bytes. */
export const FIXSTR = 0x80;
/** `0xa0`–`0xaf`: an array of `tag & 0x0f` values. */
export const FIXARRAY = 0xa0;
/** `0xb0`–`0xbf`: a map of `tag & 0x0f` entries. */
export const FIXMAP = 0xb0;
/** `0xc0`–`0xc7`: a reference to shape `tag & 0x07` (section 7.2). */
export const FIXSHAPE = 0xc0;
/**
 * The four length classes `0xc8 + 4k + c`: string, byte string, array, map;
 * the length follows in `1 << c` bytes.
 */
export const STR8 = 0xc8;
export const BIN8 = 0xcc;
export const ARRAY8 = 0xd0;
export const MAP8 = 0xd4;
/** `0xd8`–`0xdf`: uint, `tag - 0xd7` payload bytes. */
export const UINT = 0xd8;
/** `0xe0`–`0xe7`: nint (`-1 - n`), `tag - 0xdf` payload bytes. */
export const NINT = 0xe0;
export const NULL = 0xe8;
export const FALSE = 0xe9;
export const TRUE = 0xea;
/** `Option::Some` around a value written as null (section 5.3). */
export const SOME = 0xeb;
export const F16 = 0xec;
export const F32 = 0xed;
export const F64 = 0xee;
/** Wide uint: a width byte `w` (9–16), then `w` bytes. */
export const WIDE_UINT = 0xef;
/** Wide nint: a width byte `w` (9–16), then `w` bytes of `-1 - v`. */
export const WIDE_NINT = 0xf0;
export const RESERVED = 0xf1;
/** The first byte of a deduplicated document (section 7). */
export const DEDUP_MARKER = 0xf2;
/** `0xf3`–`0xf5`: a string reference with a 1, 2 or 3-byte slot index. */
export const STR_REF = 0xf3;
/** `0xf6`–`0xf7`: a shape reference with a 1 or 2-byte index. */
export const SHAPE_REF = 0xf6;
/** `0xf8`–`0xff`: the negative integer `tag - 256` (−8 to −1). */
export const FIXNINT = 0xf8;

/** The widths of the wide integer forms. */
export const WIDE_MIN = 9;
export const WIDE_MAX = 16;

/** The bytes of a length after its tag: 1, 2, 4 or 8, by its class. */
export function lengthWidth(n: number): number {
  return n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 2 ** 32 ? 4 : 8;
}

/** The bytes of the header of a string of `len` UTF-8 bytes: a fixstr tag, or a tag and the length. */
export function strHeaderSize(len: number): number {
  return len < 32 ? 1 : 1 + lengthWidth(len);
}

/** The bytes of a string literal of `len` UTF-8 bytes: its header and the bytes. */
export function strSize(len: number): number {
  return len + strHeaderSize(len);
}
