//! `Option`: how nested `Some`s are written so that `Some(None)` stays
//! distinct from `None` (see `docs/spec.md`, the `some` tag).

use serde::ser::{self, Serialize};

use super::{Compound, Fixed, Serializer};
use crate::error::{Error, Result};
use crate::output::Output;
use crate::wire;

/// Serializes the content of one or more nested `Some`s.
///
/// `Some(x)` is written as plain `x` unless the innermost content is written
/// as null (`None`, `()`, a unit struct); only then does each enclosing `Some`
/// put a `SOME` tag in front. `Some(None)` stays distinct from `None` at the
/// cost of one byte, and every other `Option` costs nothing.
pub struct SomeSerializer<'a, O> {
    pub(super) ser: &'a mut Serializer<O>,
    /// Enclosing `Some`s whose markers are written only if a null follows.
    pub(super) pending: usize,
}

impl<O: Output> SomeSerializer<'_, O> {
    #[inline]
    fn marked_null(self) -> Result<()> {
        wire::write_marked_null(&mut self.ser.out, self.pending)
    }
}

macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {$(
        #[inline]
        fn $method(self, $($arg: $ty),*) -> Result<$ret> {
            ser::Serializer::$method(self.ser, $($arg),*)
        }
    )*};
}

impl<'a, O: Output> ser::Serializer for SomeSerializer<'a, O> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, O>;
    type SerializeTuple = Fixed<'a, O>;
    type SerializeTupleStruct = Fixed<'a, O>;
    type SerializeTupleVariant = Fixed<'a, O>;
    type SerializeMap = Compound<'a, O>;
    type SerializeStruct = Fixed<'a, O>;
    type SerializeStructVariant = Fixed<'a, O>;

    // A scalar is never written as null: it needs no marker.
    crate::__serialize_scalars!(self => &mut self.ser.out);

    forward! {
        serialize_char(v: char) -> ();
        serialize_str(v: &str) -> ();
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str) -> ();
        serialize_seq(len: Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(len: usize) -> Self::SerializeTuple;
        serialize_tuple_struct(name: &'static str, len: usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> Self::SerializeTupleVariant;
        serialize_map(len: Option<usize>) -> Self::SerializeMap;
        serialize_struct(name: &'static str, len: usize) -> Self::SerializeStruct;
        serialize_struct_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> Self::SerializeStructVariant;
    }

    fn serialize_none(self) -> Result<()> {
        self.marked_null()
    }
    fn serialize_unit(self) -> Result<()> {
        self.marked_null()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.marked_null()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        self.ser.depth.check_some(self.pending)?;
        value.serialize(SomeSerializer {
            ser: self.ser,
            pending: self.pending + 1,
        })
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::Serializer::serialize_newtype_variant(self.ser, name, index, variant, value)
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}
