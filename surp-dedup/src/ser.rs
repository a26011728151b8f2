//! The serde `Serializer` of the deduplication layer.
//!
//! Scalars, byte strings and headers are written by `surp::__private::wire`, exactly as
//! the plain serializer writes them; strings and maps go through the
//! [`Encoder`]. A serializer knows its position in the document (a context
//! hash, for shape prediction) and whether it is writing a map key, so that
//! a key counts as a string exactly when it is written as one, which is the
//! rule the decoder applies.

use serde::ser::{self, Serialize};
use surp::__private::wire;
use surp::{Error, Result};

use crate::encoder::{Encoder, MapFrame, SeqFrame};

/// Serializes one value into the encoder.
pub(crate) struct Serializer<'a, const STRINGS: bool> {
    pub(crate) enc: &'a mut Encoder,
    pub(crate) ctx: u64,
    /// Enclosing `Some`s whose markers are written only if a null follows
    /// (see the plain serializer and `docs/spec.md` section 5.3).
    pub(crate) pending_some: usize,
    /// The map whose key this value is, if it is one.
    pub(crate) key_of: Option<&'a mut MapFrame>,
}

impl<'a, const STRINGS: bool> Serializer<'a, STRINGS> {
    pub(crate) fn new(enc: &'a mut Encoder, ctx: u64) -> Self {
        Serializer {
            enc,
            ctx,
            pending_some: 0,
            key_of: None,
        }
    }

    /// Before writing anything but a string: a key stops being a string key.
    #[inline]
    fn non_string(&mut self) -> Result<()> {
        match self.key_of.as_deref_mut() {
            Some(frame) => self.enc.map_key_other(frame),
            None => Ok(()),
        }
    }

    #[inline]
    fn string(self, s: &str) -> Result<()> {
        match self.key_of {
            Some(frame) => self.enc.map_key_str(frame, s),
            None => self.enc.write_str::<STRINGS>(s),
        }
    }

    fn null(mut self) -> Result<()> {
        self.non_string()?;
        wire::write_marked_null(&mut self.enc.out, self.pending_some)
    }

    /// Opens the one-entry map of an enum variant and writes its name.
    ///
    /// The map is predicted at a context of its own per variant: every
    /// variant's map has one key, so at the enum's own context the variants
    /// would displace each other's shapes, and each change of variant would
    /// rewrite a map. The context only steers the prediction; the bytes are
    /// the same either way.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn variant(mut self, index: u32, variant: &'static str) -> Result<(&'a mut Encoder, MapFrame)> {
        self.non_string()?;
        let ctx = crate::encoder::variant_context(self.ctx, index);
        let mut frame = self.enc.begin_map(ctx, Some(1))?;
        self.enc.map_key_name(&mut frame, variant)?;
        Ok((self.enc, frame))
    }
}

impl<'a, const STRINGS: bool> ser::Serializer for Serializer<'a, STRINGS> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = SeqCompound<'a, STRINGS>;
    type SerializeTuple = SeqCompound<'a, STRINGS>;
    type SerializeTupleStruct = SeqCompound<'a, STRINGS>;
    type SerializeTupleVariant = VariantSeq<'a, STRINGS>;
    type SerializeMap = MapCompound<'a, STRINGS>;
    type SerializeStruct = MapCompound<'a, STRINGS>;
    type SerializeStructVariant = VariantMap<'a, STRINGS>;

    // A scalar in a key's place makes its map's keys not all strings.
    surp::__serialize_scalars!(self => &mut self.enc.out, before { self.non_string()?; });

    #[inline]
    fn serialize_char(self, v: char) -> Result<()> {
        self.string(v.encode_utf8(&mut [0; 4]))
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.string(v)
    }
    fn serialize_none(self) -> Result<()> {
        self.null()
    }
    fn serialize_some<T: Serialize + ?Sized>(mut self, value: &T) -> Result<()> {
        self.enc.depth.check_some(self.pending_some)?;
        self.pending_some += 1;
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.null()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.null()
    }
    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        if self.key_of.is_some() {
            return self.string(variant);
        }
        self.enc.write_variant_name::<STRINGS>(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        let (enc, mut frame) = self.variant(index, variant)?;
        value.serialize(Serializer::<STRINGS>::new(enc, frame.value_context()))?;
        enc.map_value_done(&mut frame);
        enc.end_map(&frame)
    }
    // A dynamic value's arrays and maps (`surp::Value`) come through here
    // and `serialize_map`, once per container: inline, so that the call
    // does not cost more than the header it writes.
    #[inline]
    fn serialize_seq(mut self, len: Option<usize>) -> Result<SeqCompound<'a, STRINGS>> {
        self.non_string()?;
        let frame = self.enc.begin_seq(self.ctx, len)?;
        Ok(SeqCompound {
            enc: self.enc,
            frame,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqCompound<'a, STRINGS>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<SeqCompound<'a, STRINGS>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantSeq<'a, STRINGS>> {
        let (enc, outer) = self.variant(index, variant)?;
        let inner = enc.begin_seq(outer.value_context(), Some(len))?;
        Ok(VariantSeq {
            seq: SeqCompound { enc, frame: inner },
            outer,
        })
    }
    #[inline]
    fn serialize_map(mut self, len: Option<usize>) -> Result<MapCompound<'a, STRINGS>> {
        self.non_string()?;
        let frame = self.enc.begin_map(self.ctx, len)?;
        Ok(MapCompound {
            enc: self.enc,
            frame,
        })
    }
    // A struct's map is usually a predicted shape reference: the whole of
    // that path, down to `Encoder::begin_map`, goes inline in the derived
    // `Serialize`, so that its frame lives in registers instead of being
    // returned through memory (not in debug builds, whose frames would grow
    // past the depth tests' stack). It repeats `serialize_map`'s body rather
    // than share it: a forced-inline helper called by both put this path
    // into every dynamic map's `serialize_map` too.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn serialize_struct(
        mut self,
        _name: &'static str,
        len: usize,
    ) -> Result<MapCompound<'a, STRINGS>> {
        self.non_string()?;
        let frame = self.enc.begin_map(self.ctx, Some(len))?;
        Ok(MapCompound {
            enc: self.enc,
            frame,
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantMap<'a, STRINGS>> {
        let (enc, outer) = self.variant(index, variant)?;
        let inner = enc.begin_map(outer.value_context(), Some(len))?;
        Ok(VariantMap {
            map: MapCompound { enc, frame: inner },
            outer,
        })
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

/// An array being written.
pub(crate) struct SeqCompound<'a, const STRINGS: bool> {
    enc: &'a mut Encoder,
    frame: SeqFrame,
}

impl<const STRINGS: bool> SeqCompound<'_, STRINGS> {
    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(Serializer::<STRINGS>::new(
            self.enc,
            self.frame.element_context(),
        ))?;
        self.enc.seq_element_done(&mut self.frame);
        Ok(())
    }
}

impl<const STRINGS: bool> ser::SerializeSeq for SeqCompound<'_, STRINGS> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.enc.end_seq(self.frame)
    }
}

impl<const STRINGS: bool> ser::SerializeTuple for SeqCompound<'_, STRINGS> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.enc.end_seq(self.frame)
    }
}

impl<const STRINGS: bool> ser::SerializeTupleStruct for SeqCompound<'_, STRINGS> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.enc.end_seq(self.frame)
    }
}

/// A map or struct being written.
pub(crate) struct MapCompound<'a, const STRINGS: bool> {
    enc: &'a mut Encoder,
    frame: MapFrame,
}

impl<const STRINGS: bool> MapCompound<'_, STRINGS> {
    #[inline]
    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(Serializer::<STRINGS>::new(
            self.enc,
            self.frame.value_context(),
        ))?;
        self.enc.map_value_done(&mut self.frame);
        Ok(())
    }
}

impl<const STRINGS: bool> ser::SerializeMap for MapCompound<'_, STRINGS> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        let ctx = self.frame.value_context();
        key.serialize(Serializer::<STRINGS> {
            enc: self.enc,
            ctx,
            pending_some: 0,
            key_of: Some(&mut self.frame),
        })
    }
    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.value(value)
    }
    fn end(self) -> Result<()> {
        self.enc.end_map(&self.frame)
    }
}

impl<const STRINGS: bool> ser::SerializeStruct for MapCompound<'_, STRINGS> {
    type Ok = ();
    type Error = Error;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.enc.map_key_name(&mut self.frame, key)?;
        self.value(value)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn end(self) -> Result<()> {
        self.enc.end_map(&self.frame)
    }
}

/// A tuple variant: a one-entry map whose value is an array.
pub(crate) struct VariantSeq<'a, const STRINGS: bool> {
    seq: SeqCompound<'a, STRINGS>,
    outer: MapFrame,
}

impl<const STRINGS: bool> ser::SerializeTupleVariant for VariantSeq<'_, STRINGS> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.seq.element(value)
    }
    fn end(mut self) -> Result<()> {
        self.seq.enc.end_seq(self.seq.frame)?;
        self.seq.enc.map_value_done(&mut self.outer);
        self.seq.enc.end_map(&self.outer)
    }
}

/// A struct variant: a one-entry map whose value is a map.
pub(crate) struct VariantMap<'a, const STRINGS: bool> {
    map: MapCompound<'a, STRINGS>,
    outer: MapFrame,
}

impl<const STRINGS: bool> ser::SerializeStructVariant for VariantMap<'_, STRINGS> {
    type Ok = ();
    type Error = Error;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::SerializeStruct::serialize_field(&mut self.map, key, value)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn end(mut self) -> Result<()> {
        self.map.enc.end_map(&self.map.frame)?;
        self.map.enc.map_value_done(&mut self.outer);
        self.map.enc.end_map(&self.outer)
    }
}
