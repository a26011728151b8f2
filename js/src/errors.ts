/**
 * The one error class of the package. Its `kind` is the name of the Rust
 * `surp::ErrorKind` variant for the same problem (the names the test
 * vectors use), its `category` that of `Error::classify()`, and its
 * `offset` the byte where the problem was found.
 *
 * @module
 */

/** What went wrong; each name is a variant of the Rust `surp::ErrorKind`. */
export type ErrorKind =
  /** The input ended inside a value. */
  | "UnexpectedEof"
  /** The reserved tag byte `0xf1`. */
  | "ReservedTag"
  /** A string that is not valid UTF-8. */
  | "InvalidUtf8"
  /** A wide integer whose width byte is outside 9 to 16. */
  | "InvalidWideInteger"
  /** An integer below `i128::MIN` or above `u128::MAX`. */
  | "IntegerOutOfRange"
  /** Nesting deeper than `maxDepth`. */
  | "DepthLimitExceeded"
  /** A declared length larger than the remaining input could hold. */
  | "LengthExceedsInput"
  /** A declared length above `maxLen`. */
  | "LengthLimitExceeded"
  /** A frame longer than the reader's limit, or a document too long for a frame. */
  | "FrameTooLong"
  /** References expanding past `maxExpansion` or `maxAlloc`, or a literal longer than `maxAlloc`. */
  | "AllocationLimitExceeded"
  /** Bytes left over after a complete document. */
  | "TrailingBytes"
  /** The deduplication marker anywhere but at the start of a document. */
  | "MisplacedDedupMarker"
  /** A reference to a string slot that is not defined (yet), or past `maxDedupStrings`. */
  | "UnknownStringRef"
  /** A reference to a shape that is not defined (yet), or past `maxDedupShapes`. */
  | "UnknownShapeRef"
  /** A deduplication reference in a document without the marker. */
  | "RefWithoutMarker"
  /** A JavaScript value that has no Surp form (a function, a symbol, ...). */
  | "Message"
  /** A session or dictionary rule (spec section 9) broken; `SurpError.session` says which. */
  | "Session";

/**
 * Which rule of sessions and dictionaries (spec section 9) an error of kind
 * `"Session"` is about; each name is a variant of the Rust
 * `surp::error::SessionError`, so that the test vectors' `Session(X)` is
 * `kind` `"Session"` with `session` `"X"`.
 */
export type SessionErrorKind =
  /** A plain or deduplicated document where a session document was expected. */
  | "NotASessionDocument"
  /** A session prefix followed by a kind byte that no version defines, or one that has no place here. */
  | "UnknownKind"
  /** A session header of a version other than 1. */
  | "UnsupportedVersion"
  /** A header's dictionary flag is neither 0 nor 1. */
  | "InvalidFlag"
  /** A document that is not a header where the header was expected. */
  | "MissingHeader"
  /** A second header in one session. */
  | "UnexpectedHeader"
  /** A message number that is not an unsigned integer of at most 8 bytes. */
  | "InvalidSequence"
  /** A message out of order: lost, reordered, replayed or from another session. */
  | "Sequence"
  /** A message after one that failed to decode, before a reset message. */
  | "Broken"
  /** A header asks for a larger budget than the decoder accepts. */
  | "BudgetTooLarge"
  /** A document of another dictionary, of one the decoder lacks, or without the decoder's. */
  | "WrongDictionary"
  /** A dictionary that breaks a rule of section 9.2. */
  | "InvalidDictionary"
  /** The encoder's message numbers are exhausted. */
  | "SequenceExhausted";

/** The broad class of an error, as Rust's `Error::classify()` gives it. */
export type Category =
  /** Reading or writing failed. */
  | "Io"
  /** The input is not a valid Surp document, or passes a configured limit. */
  | "Syntax"
  /** The value does not fit the data model (an integer out of range, a value with no Surp form). */
  | "Data"
  /** The input ended before the document did: more input might complete it. */
  | "Eof";

const CATEGORY: Record<ErrorKind, Category> = {
  UnexpectedEof: "Eof",
  LengthExceedsInput: "Eof",
  ReservedTag: "Syntax",
  InvalidUtf8: "Syntax",
  InvalidWideInteger: "Syntax",
  DepthLimitExceeded: "Syntax",
  LengthLimitExceeded: "Syntax",
  FrameTooLong: "Syntax",
  AllocationLimitExceeded: "Syntax",
  TrailingBytes: "Syntax",
  MisplacedDedupMarker: "Syntax",
  UnknownStringRef: "Syntax",
  UnknownShapeRef: "Syntax",
  RefWithoutMarker: "Syntax",
  IntegerOutOfRange: "Data",
  Message: "Data",
  Session: "Syntax",
};

/**
 * An encoding or decoding error. Malformed input and values that cannot be
 * encoded throw only this class.
 *
 * ```ts
 * try {
 *   decode(new Uint8Array([0xd9, 0xff]));
 * } catch (e) {
 *   if (e instanceof SurpError) console.log(e.kind, e.offset); // "UnexpectedEof" 2
 * }
 * ```
 */
export class SurpError extends Error {
  /** What went wrong: the name of the Rust `ErrorKind` variant. */
  readonly kind: ErrorKind;
  /** The broad class of the error (`Error::classify()` in Rust). */
  readonly category: Category;
  /** The byte offset in the input where the problem was found; `undefined` for encoding errors. */
  readonly offset: number | undefined;
  /** For kind `"Session"`, which rule of spec section 9 (the Rust `SessionError` variant); else `undefined`. */
  readonly session: SessionErrorKind | undefined;

  /** @internal */
  constructor(kind: ErrorKind, description: string, offset?: number, session?: SessionErrorKind) {
    super(offset === undefined ? description : `${description} at byte ${offset}`);
    this.kind = kind;
    this.category = CATEGORY[kind];
    this.offset = offset;
    this.session = session;
  }

  override get name(): string {
    return "SurpError";
  }
}

/** What a declared length counts, in messages. */
export type LengthOf = "string" | "byte string" | "array" | "map";

const UNIT: Record<LengthOf, string> = {
  string: "bytes",
  "byte string": "bytes",
  array: "items",
  map: "entries",
};

// The constructors below are the only places that word a message, so that
// the decoder's hot code holds one call per failure.

/** @internal */
export function unexpectedEof(offset: number): SurpError {
  return new SurpError("UnexpectedEof", "unexpected end of input", offset);
}

/** @internal */
export function lengthExceedsInput(of: LengthOf, len: number | bigint, offset: number): SurpError {
  return new SurpError(
    "LengthExceedsInput",
    `${of} declares ${len} ${UNIT[of]} but the input is too short to hold them`,
    offset,
  );
}

/** @internal */
export function lengthLimitExceeded(of: LengthOf, len: number | bigint, limit: number, offset: number): SurpError {
  return new SurpError(
    "LengthLimitExceeded",
    `${of} of length ${len} exceeds the configured limit of ${limit}`,
    offset,
  );
}

/** @internal */
export function depthLimitExceeded(limit: number, offset?: number): SurpError {
  return new SurpError("DepthLimitExceeded", `nesting deeper than the limit of ${limit}`, offset);
}

/** @internal */
export function allocationLimitExceeded(limit: number, offset: number): SurpError {
  return new SurpError(
    "AllocationLimitExceeded",
    `document expands beyond the allocation limit of ${limit} bytes`,
    offset,
  );
}

/** @internal */
export function unknownRef(
  table: "string slot" | "shape",
  index: number,
  defined: number,
  limit: number,
  offset: number,
): SurpError {
  const kind = table === "shape" ? "UnknownShapeRef" : "UnknownStringRef";
  let why: string;
  if (index >= limit) {
    const unit = table === "shape" ? "shape" : "slot";
    const option = table === "shape" ? "maxDedupShapes" : "maxDedupStrings";
    why = `beyond this decoder's limit of ${limit} ${unit}${limit === 1 ? "" : "s"} (${option})`;
  } else if (defined === 0) {
    why = "but none is defined yet";
  } else {
    why = `but only ${defined} ${defined === 1 ? "is" : "are"} defined`;
  }
  return new SurpError(kind, `reference to ${table} ${index}, ${why}`, offset);
}

/** @internal */
export function frameTooLong(len: number, limit: number, offset?: number): SurpError {
  return new SurpError("FrameTooLong", `frame of length ${len} exceeds the limit of ${limit}`, offset);
}

/** @internal */
export function sessionError(session: SessionErrorKind, description: string, offset?: number): SurpError {
  return new SurpError("Session", description, offset, session);
}

/** @internal */
export function unsupported(what: string): SurpError {
  return new SurpError("Message", `${what} has no Surp form`);
}

/**
 * A `RangeError` from the engine as a SurpError: the call stack ran out
 * (a `maxDepth` set beyond what the stack holds) or a string or buffer was
 * too large for it. Anything else is returned as it was.
 *
 * @internal
 */
export function fromEngine(e: unknown, offset?: number): unknown {
  if (!(e instanceof RangeError)) return e;
  if (/call stack/i.test(e.message)) {
    return new SurpError("DepthLimitExceeded", "nesting deeper than the JavaScript stack holds", offset);
  }
  return new SurpError("AllocationLimitExceeded", `a value too large for this JavaScript engine (${e.message})`, offset);
}
