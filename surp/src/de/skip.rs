//! Skipping a value that the type being decoded ignores.

use serde::de;

use super::Deserializer;
use crate::error::{Error, ErrorKind, Result};
use crate::read::Read;
use crate::wire::{self, Kind};

impl<'de, R: Read<'de>> Deserializer<R> {
    /// Skips one value without building anything.
    ///
    /// Plain documents are skipped with a counter instead of recursion: no
    /// stack is used, so there is no depth to limit. Deduplicated documents
    /// must be walked in order, because skipped strings and maps still define
    /// table entries.
    pub(super) fn skip_value(&mut self) -> Result<()> {
        if self.depth == 0 {
            // The tags below are read past `next_tag`, which would take
            // each one at depth 0 for the start of a document.
            self.at_root()?;
        }
        if self.dict.is_some() {
            return de::Deserializer::deserialize_any(&mut *self, de::IgnoredAny).map(drop);
        }
        let mut pending: u64 = 1;
        while pending > 0 {
            pending -= 1;
            let start = self.read.offset();
            let tag = self.read.next_u8()?;
            let (kind, len) = match tag {
                wire::FIXUINT..=wire::FIXUINT_MAX
                | wire::FIXNINT_MIN..=wire::FIXNINT_LAST
                | wire::NULL
                | wire::FALSE
                | wire::TRUE => continue,
                wire::SOME => {
                    pending += 1;
                    continue;
                }
                wire::FIXSTR..=wire::FIXSTR_LAST => (Kind::Str, Kind::Str.inline_len(tag)),
                wire::FIXARRAY..=wire::FIXARRAY_LAST => (Kind::Array, Kind::Array.inline_len(tag)),
                wire::FIXMAP..=wire::FIXMAP_LAST => (Kind::Map, Kind::Map.inline_len(tag)),
                wire::STR8..=wire::STR_LAST => (Kind::Str, self.read_len(tag)?),
                wire::BIN8..=wire::BIN_LAST => (Kind::Bytes, self.read_len(tag)?),
                wire::ARRAY8..=wire::ARRAY_LAST => (Kind::Array, self.read_len(tag)?),
                wire::MAP8..=wire::MAP_LAST => (Kind::Map, self.read_len(tag)?),
                wire::UINT1..=wire::UINT_LAST => {
                    self.read.skip(wire::int_width(tag))?;
                    continue;
                }
                wire::NINT1..=wire::NINT_LAST => {
                    self.read.skip(wire::int_width(tag))?;
                    continue;
                }
                wire::F16 | wire::F32 | wire::F64 => {
                    self.read.skip(wire::float_width(tag))?;
                    continue;
                }
                wire::WIDE_UINT | wire::WIDE_NINT => {
                    self.read_wide(start)?;
                    continue;
                }
                wire::RESERVED => return Err(Error::new(ErrorKind::ReservedTag(tag), start)),
                wire::DEDUP_MARKER => {
                    return Err(Error::new(ErrorKind::MisplacedDedupMarker, start));
                }
                wire::FIXSHAPE..=wire::FIXSHAPE_LAST | wire::STR_REF1..=wire::SHAPE_REF2 => {
                    return Err(Error::new(ErrorKind::RefWithoutMarker, start));
                }
            };
            if len > self.opts.max_len as u64 {
                let limit = self.opts.max_len;
                return Err(Error::new(
                    ErrorKind::LengthLimitExceeded { kind, len, limit },
                    start,
                ));
            }
            match kind {
                Kind::Str | Kind::Bytes => {
                    let Ok(len) = usize::try_from(len) else {
                        return Err(Error::new(
                            ErrorKind::LengthExceedsInput { kind, len },
                            start,
                        ));
                    };
                    if len > self.opts.max_alloc {
                        // Skipped, but a reader would have to read it all:
                        // one literal is held to the same limit either way.
                        return Err(self.literal_over_max_alloc(kind, len, start));
                    }
                    self.read.skip(len)?;
                }
                Kind::Array | Kind::Map => {
                    let items = if kind == Kind::Map {
                        len.saturating_mul(2)
                    } else {
                        len
                    };
                    pending = pending.saturating_add(items);
                    // Each pending item needs at least one more byte.
                    if let Some(rem) = self.read.remaining()
                        && pending > rem as u64
                    {
                        return Err(Error::new(
                            ErrorKind::LengthExceedsInput { kind, len },
                            start,
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}
