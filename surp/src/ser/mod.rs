//! The serde `Serializer`: any `Serialize` type into Surp bytes.
//!
//! The serializer is generic over its [`Output`] and never allocates per
//! value: every scalar is one tag byte plus a fixed-width payload written by
//! [`crate::wire`]. The one exception is a sequence or map whose length serde
//! does not know up front (`#[serde(flatten)]`, unsized iterators): Surp
//! headers carry counts, so such a collection is built in a side buffer and
//! copied after its header. Collections of unknown length nested in it share
//! that buffer, so each byte is copied once whatever the depth (see
//! [`Spill`]).
//!
//! How the serde data model maps to the wire is specified in `docs/spec.md`:
//! structs are maps keyed by field name, enums are externally tagged (a unit
//! variant is its name; other variants are a one-entry map from name to
//! content), and `Option` costs nothing except where `Some` would be
//! ambiguous.

use serde::ser::{self, Serialize};

use crate::error::{Error, ErrorKind, Result};
use crate::output::{Output, Spill};
use crate::wire::MAX_HEADER;
use crate::wire::{self, Kind};

pub(crate) mod depth;
mod scalars;
mod some;
#[allow(unused_imports)]
use crate::prelude::*;
use depth::Depth;
pub use some::SomeSerializer;

/// A Surp serializer writing to an [`Output`].
///
/// ```
/// use serde::Serialize;
///
/// # fn main() -> Result<(), surp::Error> {
/// let mut ser = surp::Serializer::new(Vec::new());
/// (1u8, "a").serialize(&mut ser)?;
/// assert_eq!(ser.into_inner(), [0xa2, 0x01, 0x81, b'a']);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Serializer<O> {
    out: O,
    depth: Depth,
    /// The side buffer, kept between collections of unknown length.
    spill: Option<Box<Spill>>,
}

impl<O: Output> Serializer<O> {
    /// A serializer that appends to `out`. Values nested deeper than
    /// [`DEFAULT_MAX_DEPTH`](crate::DEFAULT_MAX_DEPTH) (the decoder's
    /// default limit) are an error rather than a stack overflow.
    pub fn new(out: O) -> Self {
        Serializer {
            out,
            depth: Depth::new(crate::DEFAULT_MAX_DEPTH),
            spill: None,
        }
    }

    /// Sets the deepest nesting of arrays, maps, enum variants with content
    /// and `Some`s this serializer writes (default 128, the decoder's
    /// default [`Options::max_depth`](crate::Options::max_depth)); a deeper
    /// value is [`ErrorKind::DepthLimitExceeded`]. Each level takes stack,
    /// so a limit far above the default may overflow it instead.
    ///
    /// ```
    /// use serde::Serialize;
    ///
    /// let deep = vec![vec![vec![0u8]]];
    /// let mut ser = surp::Serializer::new(Vec::new()).max_depth(2);
    /// let err = deep.serialize(&mut ser).unwrap_err();
    /// assert_eq!(*err.kind(), surp::ErrorKind::DepthLimitExceeded(2));
    /// ```
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.depth = Depth::new(depth);
        self
    }

    /// Gives back the output.
    pub fn into_inner(self) -> O {
        self.out
    }

    /// The output written so far.
    pub fn get_ref(&self) -> &O {
        &self.out
    }

    #[inline]
    fn begin(&mut self, kind: Kind, len: Option<usize>) -> Result<Compound<'_, O>> {
        self.depth.enter()?;
        let mode = match len {
            Some(len) => {
                wire::write_header(&mut self.out, kind, len)?;
                Mode::Declared(len)
            }
            None => self.begin_unknown(),
        };
        Ok(Compound {
            ser: self,
            kind,
            written: 0,
            mode,
        })
    }

    /// Where the items of a collection of unknown length go: behind a gap in
    /// the side buffer if this serializer writes to it, else to the side
    /// buffer. Out of line, so that collections of known length do not carry
    /// it.
    #[cold]
    #[inline(never)]
    fn begin_unknown(&mut self) -> Mode {
        if let Some(spill) = self.out.__spill() {
            let at = spill.bytes.len();
            spill.bytes.extend_from_slice(&[0; MAX_HEADER]);
            spill.gaps.push((at, 0));
            Mode::Gap {
                at,
                gaps: spill.gaps.len() - 1,
                slack: spill.slack,
            }
        } else {
            let mut spill = self.spill.take().unwrap_or_default();
            spill.clear();
            Mode::Buffered(spill)
        }
    }

    /// Begins a tuple or struct: serde gives its length up front, so it
    /// never needs the side buffer of [`Compound`].
    #[inline]
    fn begin_fixed(&mut self, kind: Kind, len: usize) -> Result<Fixed<'_, O>> {
        self.depth.enter()?;
        wire::write_header(&mut self.out, kind, len)?;
        Ok(Fixed {
            ser: self,
            kind,
            declared: len,
            written: 0,
        })
    }

    /// Opens the one-entry map of an enum variant with content and writes
    /// the variant's name; the map is a nesting token.
    /// Always inlined, like the variant methods that call it: in a derived
    /// `serialize` each variant's name is then a constant, and the headers
    /// and name are one fixed-size write.
    #[inline(always)]
    fn variant(&mut self, variant: &str) -> Result<()> {
        self.depth.enter()?;
        wire::write_variant_key(&mut self.out, variant)
    }
}

impl<'a, O: Output> ser::Serializer for &'a mut Serializer<O> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, O>;
    type SerializeTuple = Fixed<'a, O>;
    type SerializeTupleStruct = Fixed<'a, O>;
    type SerializeTupleVariant = Fixed<'a, O>;
    type SerializeMap = Compound<'a, O>;
    type SerializeStruct = Fixed<'a, O>;
    type SerializeStructVariant = Fixed<'a, O>;

    crate::__serialize_scalars!(self => &mut self.out);

    #[inline]
    fn serialize_char(self, v: char) -> Result<()> {
        wire::write_str(&mut self.out, v.encode_utf8(&mut [0; 4]))
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        wire::write_str(&mut self.out, v)
    }
    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.out.write_u8(wire::NULL)
    }
    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(SomeSerializer {
            ser: self,
            pending: 1,
        })
    }
    #[inline]
    fn serialize_unit(self) -> Result<()> {
        self.out.write_u8(wire::NULL)
    }
    #[inline]
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.out.write_u8(wire::NULL)
    }
    #[inline(always)]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        wire::write_static_str(&mut self.out, variant)
    }
    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }
    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.variant(variant)?;
        value.serialize(&mut *self)?;
        self.depth.leave();
        Ok(())
    }
    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq> {
        self.begin(Kind::Array, len)
    }
    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple> {
        self.begin_fixed(Kind::Array, len)
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        self.begin_fixed(Kind::Array, len)
    }
    #[inline]
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        self.variant(variant)?;
        self.begin_fixed(Kind::Array, len)
    }
    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap> {
        self.begin(Kind::Map, len)
    }
    #[inline]
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Self::SerializeStruct> {
        self.begin_fixed(Kind::Map, len)
    }
    #[inline]
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        self.variant(variant)?;
        self.begin_fixed(Kind::Map, len)
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

/// The state of an array or map being written.
#[derive(Debug)]
pub struct Compound<'a, O> {
    ser: &'a mut Serializer<O>,
    kind: Kind,
    written: usize,
    mode: Mode,
}

/// Where the items of a [`Compound`] go.
#[derive(Debug)]
enum Mode {
    /// After the header, which has the count serde gave.
    Declared(usize),
    /// The count is unknown and the output is not a side buffer: items go to
    /// this one, and the header is written when it ends.
    Buffered(Box<Spill>),
    /// The count is unknown and the output is a side buffer: items follow a
    /// gap for the header at `at`, entry `gaps` of the buffer's gaps; `slack`
    /// is the buffer's slack when the gap was opened.
    Gap {
        at: usize,
        gaps: usize,
        slack: usize,
    },
}

impl<O: Output> Compound<'_, O> {
    #[inline]
    fn item<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        if let Mode::Buffered(spill) = &mut self.mode {
            return buffered_item(spill, self.ser.depth, value);
        }
        value.serialize(&mut *self.ser)
    }

    #[inline]
    fn finish(self) -> Result<()> {
        self.ser.depth.leave();
        match self.mode {
            Mode::Declared(declared) if declared == self.written => Ok(()),
            Mode::Declared(declared) => Err(Error::without_offset(ErrorKind::LengthMismatch {
                kind: self.kind,
                declared,
                written: self.written,
            })),
            mode => finish_unknown(self.ser, self.kind, self.written, mode),
        }
    }
}

/// An item of the outermost collection of unknown length, into the side
/// buffer: out of line, so that the items of other collections do not carry
/// a second serializer.
#[inline(never)]
fn buffered_item<T: Serialize + ?Sized>(spill: &mut Spill, depth: Depth, value: &T) -> Result<()> {
    value.serialize(&mut Serializer {
        out: spill,
        depth,
        spill: None,
    })
}

/// Ends a collection of unknown length: out of line, like its beginning.
#[cold]
#[inline(never)]
fn finish_unknown<O: Output>(
    ser: &mut Serializer<O>,
    kind: Kind,
    count: usize,
    mode: Mode,
) -> Result<()> {
    match mode {
        Mode::Declared(_) => unreachable!("a collection of known length has its header"),
        Mode::Buffered(spill) => {
            wire::write_header(&mut ser.out, kind, count)?;
            spill.write_to(&mut ser.out)?;
            ser.spill = Some(spill);
            Ok(())
        }
        Mode::Gap { at, gaps, slack } => {
            let spill = ser
                .out
                .__spill()
                .expect("a gap is only opened in a side buffer");
            close_gap(spill, kind, count, at, gaps, slack)
        }
    }
}

/// Writes the header of a collection that started with a gap at `at`, at the
/// end of the gap, and records the rest of the gap as slack. When the slack
/// of the collection and of those nested in it is at least half of its
/// bytes, it is removed now, in one pass over them.
fn close_gap(
    spill: &mut Spill,
    kind: Kind,
    count: usize,
    at: usize,
    gaps: usize,
    slack: usize,
) -> Result<()> {
    let gap_slack = wire::write_header_in_gap(&mut spill.bytes, at, kind, count)?;
    spill.gaps[gaps].1 = gap_slack;
    spill.slack += gap_slack;
    if 2 * (spill.slack - slack) >= spill.bytes.len() - at {
        spill.close_gaps(gaps);
    }
    Ok(())
}

impl<O: Output> ser::SerializeSeq for Compound<'_, O> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.written += 1;
        self.item(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<O: Output> ser::SerializeMap for Compound<'_, O> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.written += 1;
        self.item(key)
    }
    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.item(value)
    }
    // serde's default is not always inlined into a recursive `serialize`.
    #[inline]
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<()> {
        self.written += 1;
        self.item(key)?;
        self.item(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

/// The state of a tuple or struct being written: serde gave its length up
/// front, so its header is written and its items follow it directly.
///
/// Kept apart from [`Compound`] so that a struct's fields need no check for
/// a side buffer: derived `serialize` methods then keep this state in
/// registers.
#[derive(Debug)]
pub struct Fixed<'a, O> {
    ser: &'a mut Serializer<O>,
    kind: Kind,
    declared: usize,
    written: usize,
}

impl<O: Output> Fixed<'_, O> {
    #[inline(always)]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.written += 1;
        value.serialize(&mut *self.ser)
    }

    #[inline(always)]
    fn finish(self) -> Result<()> {
        self.ser.depth.leave();
        if self.declared == self.written {
            return Ok(());
        }
        Err(self.mismatch())
    }

    /// Ends the array or map of a tuple or struct variant, and the
    /// variant's one-entry map around it.
    #[inline(always)]
    fn finish_variant(self) -> Result<()> {
        self.ser.depth.leave();
        self.finish()
    }

    #[cold]
    fn mismatch(&self) -> Error {
        Error::without_offset(ErrorKind::LengthMismatch {
            kind: self.kind,
            declared: self.declared,
            written: self.written,
        })
    }
}

impl<O: Output> ser::SerializeTuple for Fixed<'_, O> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<O: Output> ser::SerializeTupleStruct for Fixed<'_, O> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<O: Output> ser::SerializeTupleVariant for Fixed<'_, O> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish_variant()
    }
}

impl<O: Output> ser::SerializeStruct for Fixed<'_, O> {
    type Ok = ();
    type Error = Error;
    // Always inlined into the derived `serialize`, where `key` is a constant:
    // its header and bytes fold into one fixed-size write.
    #[inline(always)]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        wire::write_static_str(&mut self.ser.out, key)?;
        self.element(value)
    }
    #[inline(always)]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<O: Output> ser::SerializeStructVariant for Fixed<'_, O> {
    type Ok = ();
    type Error = Error;
    // Inlined for the reason the struct's is: `key` is a constant there.
    #[inline(always)]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    #[inline(always)]
    fn end(self) -> Result<()> {
        self.finish_variant()
    }
}
