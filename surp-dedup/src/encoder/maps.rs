//! Maps: choosing a shape for a map by prediction, checking its keys as they
//! come, turning it explicit when a key differs, and compacting an explicit
//! map into a reference to a shape registered earlier.

use super::*;

impl Encoder {
    // ---- maps ------------------------------------------------------------

    /// Opens a map at context `ctx`: as a reference to the shape last seen
    /// there if it fits (inline), else explicitly (out of line: in a
    /// document of records, nearly every map takes the reference).
    #[inline(always)]
    pub(crate) fn begin_map(&mut self, ctx: u64, len: Option<usize>) -> Result<MapFrame> {
        if let Some(n) = len
            && let Some((shape, keys)) = self.predictions.get(prediction_key(ctx, n), n)
        {
            self.enter()?;
            let start = self.out.len();
            match u8::try_from(shape) {
                // The one-byte form, pushed directly: the common case.
                Ok(index) if usize::from(index) < wire::FIXSHAPE_COUNT => {
                    self.out.push(wire::FIXSHAPE + index);
                }
                _ => wire::write_shape_ref(&mut self.out, shape as usize)?,
            }
            return Ok(MapFrame {
                start,
                ctx,
                written: 0,
                keys,
                key_count: n,
                shape,
                shapes_at_start: self.shapes.len() as u32,
            });
        }
        let start = self.begin_explicit_map(len)?;
        Ok(MapFrame {
            start,
            ctx,
            written: 0,
            keys: self.explicit.len() - 1,
            key_count: 0,
            shape: EXPLICIT,
            shapes_at_start: self.shapes.len() as u32,
        })
    }

    /// Opens an explicit map: its header, and its state on `explicit`.
    /// Returns where the map starts; the caller makes its frame, so that
    /// both ways of opening a map build the frame from values in registers.
    /// A frame returned from here came back through memory, and copying it
    /// from there right after its fields were stored one by one made the
    /// processor wait for each store (a wide load cannot take its bytes
    /// from several narrower stores still in flight).
    #[inline(never)]
    pub(super) fn begin_explicit_map(&mut self, len: Option<usize>) -> Result<usize> {
        self.enter()?;
        let start = self.out.len();
        match len {
            Some(n) => wire::write_header(&mut self.out, Kind::Map, n)?,
            None => self.out.extend_from_slice(&[0; wire::MAX_HEADER]),
        }
        self.explicit.push(ExplicitMap {
            declared: len,
            keys_base: self.keys.len(),
            text_base: self.key_text.len(),
            string_keys: true,
            seq_hash: 0,
            mark: self.mark(),
        });
        Ok(start)
    }

    /// The state of the explicit map of `frame`.
    pub(super) fn explicit_state(&mut self, frame: &MapFrame) -> &mut ExplicitMap {
        &mut self.explicit[frame.keys]
    }

    /// A string key: in a shaped map, checked against the shape (inline);
    /// in an explicit map, written through the string table and recorded
    /// (out of line).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn map_key_str(&mut self, frame: &mut MapFrame, key: &str) -> Result<()> {
        self.map_key_checked(frame, key, ShapeTable::key_at_is)
    }

    /// [`Encoder::map_key_str`] for a name known at compile time (a
    /// struct's field, an enum's variant), always inline: the check against
    /// the shape then compares its length, first and last bytes with
    /// constants.
    ///
    /// A struct's field names are `&'static str`, the same ones every time,
    /// and recognizing them by address would skip the comparison. It is
    /// not done: sound code
    /// may free a leaked name (`Box::from_raw`) and leak another of the
    /// same length at the same address during one encode, and the shape
    /// would then claim the old name. The bytes are always compared.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn map_key_name(&mut self, frame: &mut MapFrame, key: &'static str) -> Result<()> {
        self.map_key_checked(frame, key, ShapeTable::key_at_is_inline)
    }

    /// The body of both: `is_key` is the shape table's check of the next
    /// key, which the caller chooses inline or not.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(super) fn map_key_checked(
        &mut self,
        frame: &mut MapFrame,
        key: &str,
        is_key: fn(&ShapeTable, usize, &[u8]) -> bool,
    ) -> Result<()> {
        if frame.written < frame.key_count
            && is_key(&self.shapes, frame.keys + frame.written, key.as_bytes())
        {
            return Ok(());
        }
        *frame = self.map_key_other_str(*frame, key)?;
        Ok(())
    }

    /// A string key that is not the next key of a shaped map: the map is
    /// or becomes explicit, and the key is written through the string table.
    ///
    /// The frame goes in and out by value: a frame whose address reached
    /// this call would live in memory on the inline path too, and every
    /// struct would store and reload it. It comes back only on success,
    /// which is enough because nothing fails once the map is explicit:
    /// `make_explicit` fails (on a value left unfinished) before it changes
    /// the frame or pushes the map's state, and what follows writes to a
    /// `Vec`, which cannot fail; giving the frame back with the error as
    /// well would return it through memory on every struct.
    #[inline(never)]
    pub(super) fn map_key_other_str(&mut self, mut frame: MapFrame, key: &str) -> Result<MapFrame> {
        let frame = &mut frame;
        self.make_explicit(frame)?;
        let hash = hash_bytes(key.as_bytes());
        let start = self.out.len();
        self.write_str_hashed(key, hash)?;
        let end = self.out.len();
        let state = self.explicit_state(frame);
        if state.string_keys {
            state.seq_hash = combine(state.seq_hash, hash);
            let text_start = self.key_text.len();
            self.key_text.extend_from_slice(key.as_bytes());
            self.keys.push(KeyInfo {
                start,
                end,
                text_start,
                text_len: key.len(),
            });
        }
        Ok(*frame)
    }

    /// A key that is not written as a string: the map cannot be a shape.
    /// The caller writes the key as a value afterwards.
    pub(crate) fn map_key_other(&mut self, frame: &mut MapFrame) -> Result<()> {
        self.make_explicit(frame)?;
        self.explicit_state(frame).string_keys = false;
        Ok(())
    }

    #[inline]
    pub(crate) fn map_value_done(&mut self, frame: &mut MapFrame) {
        frame.written += 1;
    }

    /// Rewrites a shaped map, whose first `frame.written` keys matched, into
    /// explicit form: the header, then each matched key before its value;
    /// nothing for a map that is explicit already.
    #[inline]
    pub(super) fn make_explicit(&mut self, frame: &mut MapFrame) -> Result<()> {
        if frame.shape == EXPLICIT {
            return Ok(());
        }
        self.rewrite_shaped(frame)
    }

    #[cold]
    pub(super) fn rewrite_shaped(&mut self, frame: &mut MapFrame) -> Result<()> {
        let shape = frame.shape;
        // A shaped map has the length of its shape.
        let declared = frame.key_count;
        // The values are read back below: they must be as they will stay.
        let mark = self.mark_since(frame.start);
        self.remove_pending(mark);
        let matched = frame.written;
        let keys_base = self.keys.len();
        let text_base = self.key_text.len();
        let mut seq_hash = 0;
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        wire::write_header(&mut scratch, Kind::Map, declared)?;
        // The values follow the shape reference back to back.
        let mut value_start = frame.start + wire::shape_ref_size(shape as usize);
        for i in 0..matched {
            let key = self.shapes.key(shape, i);
            let hash = hash_bytes(key);
            let key_start = frame.start + scratch.len();
            match self.strings.lookup(key, hash) {
                Lookup::Slot(slot) => {
                    self.wrote_reference = true;
                    wire::write_str_ref(&mut scratch, slot)?;
                }
                Lookup::Literal { takes_slot } => {
                    debug_assert!(
                        !takes_slot,
                        "a key of an earlier shape never takes a new slot"
                    );
                    scratch.extend_from_slice(&self.str_literal(key));
                }
            }
            let key_end = frame.start + scratch.len();
            let text_start = self.key_text.len();
            self.key_text.extend_from_slice(key);
            self.keys.push(KeyInfo {
                start: key_start,
                end: key_end,
                text_start,
                text_len: key.len(),
            });
            seq_hash = combine(seq_hash, hash);
            let value_end = self.value_end(value_start)?;
            scratch.extend_from_slice(&self.out[value_start..value_end]);
            value_start = value_end;
        }
        self.out.truncate(frame.start);
        self.out.extend_from_slice(&scratch);
        self.moved += scratch.len();
        self.scratch = scratch;
        frame.shape = EXPLICIT;
        frame.keys = self.explicit.len();
        frame.key_count = 0;
        self.explicit.push(ExplicitMap {
            declared: Some(declared),
            keys_base,
            text_base,
            string_keys: true,
            seq_hash,
            mark,
        });
        Ok(())
    }

    /// Where the complete value that starts at `at` in the output ends.
    ///
    /// Walks the encoder's own output; shape references take their value
    /// counts from the shape table. Only a rewrite needs this, so the
    /// common path records nothing per value. The output is well formed
    /// unless a `Serialize` impl dropped a collection unfinished (on an
    /// error it then ignored): that is an error here, not a panic.
    pub(super) fn value_end(&self, mut at: usize) -> Result<usize> {
        let mut pending = 1usize;
        while pending > 0 {
            pending -= 1;
            let header = self.out.get(at..).map(|rest| wire::decode_header(rest, at));
            let Some(Ok((header, size))) = header else {
                return Err(unfinished_value_error());
            };
            at += size;
            let items = match header {
                wire::Header::Len(Kind::Str | Kind::Bytes, n) => {
                    at = at.saturating_add(usize::try_from(n).unwrap_or(usize::MAX));
                    0
                }
                wire::Header::Len(Kind::Array, n) => n,
                wire::Header::Len(Kind::Map, n) => n.saturating_mul(2),
                wire::Header::ShapeRef(shape) => match self.shapes.key_count(shape) {
                    Some(count) => count as u64,
                    None => return Err(unfinished_value_error()),
                },
                wire::Header::Some => 1,
                _ => 0,
            };
            pending = pending.saturating_add(usize::try_from(items).unwrap_or(usize::MAX));
        }
        if at > self.out.len() {
            return Err(unfinished_value_error());
        }
        Ok(at)
    }

    /// The literal encoding of a key's text (valid UTF-8: it was a `&str`).
    pub(super) fn str_literal(&self, key: &[u8]) -> Vec<u8> {
        let mut v = Vec::with_capacity(9 + key.len());
        // The header cannot fail for a Vec.
        let _ = wire::write_header(&mut v, Kind::Str, key.len());
        v.extend_from_slice(key);
        v
    }

    /// Ends a map. The frame is taken by reference: the map's compound
    /// keeps it in memory while its entries are written, and copying it
    /// whole for this call (a few wide loads) right after its count was
    /// stored made each struct wait for that store. Only the out-of-line
    /// path copies it.
    #[inline(always)]
    pub(crate) fn end_map(&mut self, frame: &MapFrame) -> Result<()> {
        if frame.written == frame.key_count && frame.shape != EXPLICIT {
            // The prediction that chose this shape stays as it is.
            self.depth.leave();
            self.wrote_reference = true;
            return Ok(());
        }
        self.end_other_map(*frame)
    }

    /// Ends a map that is explicit, or shaped with fewer keys than its
    /// shape (made explicit here).
    #[inline(never)]
    pub(super) fn end_other_map(&mut self, mut frame: MapFrame) -> Result<()> {
        self.depth.leave();
        self.make_explicit(&mut frame)?;
        // Its state, and above it only those of maps left unended.
        self.explicit.truncate(frame.keys + 1);
        let state = self
            .explicit
            .pop()
            .expect("an explicit map pushed its state when it began or turned explicit");
        if let Some(n) = state.declared
            && n != frame.written
        {
            return Err(count_error(Kind::Map, n, frame.written));
        }
        let result = self.end_explicit_map(&frame, &state);
        self.keys.truncate(state.keys_base);
        self.key_text.truncate(state.text_base);
        result
    }

    pub(super) fn end_explicit_map(&mut self, frame: &MapFrame, state: &ExplicitMap) -> Result<()> {
        let (count, keys_base) = (frame.written, state.keys_base);
        let header = wire::header_size(Kind::Map, count);
        // Its keys are the records from `keys_base` on, one per entry,
        // unless a map left unended inside it recorded keys of its own:
        // then it is left as it is.
        let own_keys = self.keys.len() - keys_base == count;
        if state.string_keys && own_keys && dedup::may_become_shape(count) {
            let keys = &self.keys[keys_base..];
            let explicit = header + keys.iter().map(|k| k.end - k.start).sum::<usize>();
            let text = |i: usize| {
                let k = &self.keys[keys_base + i];
                &self.key_text[k.text_start..k.text_start + k.text_len]
            };
            let seq_hash = state.seq_hash;
            if let Some(shape) =
                self.shapes
                    .find(text, count, seq_hash, frame.shapes_at_start as usize)
            {
                self.predict(frame.ctx, count, shape);
                if dedup::reference_is_shorter(shape as usize, explicit) {
                    self.wrote_reference = true;
                    return self.compact(frame, state, shape);
                }
            } else if self.shapes.takes_next(explicit) {
                let now = header
                    + (0..count)
                        .map(|i| self.key_size_now(text(i)))
                        .sum::<usize>();
                let keys: Vec<&[u8]> = (0..count).map(text).collect();
                let shape = self.shapes.register(|i| keys[i], count, seq_hash, now);
                let canonical = self
                    .shapes
                    .find(|i| keys[i], count, seq_hash, shape as usize + 1)
                    .unwrap_or(shape);
                self.predict(frame.ctx, count, canonical);
            }
        }
        if state.declared.is_none() {
            self.close_gap(frame.start, Kind::Map, count, state.mark)?;
        }
        Ok(())
    }

    /// Records `shape`, of `count` keys, as the guess for maps of `count`
    /// keys at context `ctx`, with what writing the guess needs.
    pub(super) fn predict(&mut self, ctx: u64, count: usize, shape: u32) {
        let keys = self.shapes.referable(shape, count);
        self.predictions
            .set(prediction_key(ctx, count), count, shape, keys);
    }

    /// The bytes of value `i` of the map whose keys start at `keys_base`:
    /// from the end of its key to the next key, or to the end of the output.
    #[inline]
    pub(super) fn value_span(&self, keys_base: usize, i: usize) -> std::ops::Range<usize> {
        let start = self.keys[keys_base + i].end;
        let end = self
            .keys
            .get(keys_base + i + 1)
            .map_or(self.out.len(), |k| k.start);
        start..end
    }

    /// Replaces an explicit map's header and keys by a shape reference.
    ///
    /// The reference goes at the end of the header and first key (or of the
    /// gap and first key), and the rest of them and the other keys are
    /// removed later, so that the values do not move now.
    pub(super) fn compact(
        &mut self,
        frame: &MapFrame,
        state: &ExplicitMap,
        shape: u32,
    ) -> Result<()> {
        let (count, keys_base, mark) = (frame.written, state.keys_base, state.mark);
        let first_end = self.keys[keys_base].end;
        let size = wire::shape_ref_size(shape as usize);
        if first_end - frame.start >= size {
            // Nothing inside the map waits for removal, so its values can
            // move now; do so when that costs at most `MOVE_PER_REMOVED`
            // bytes per byte removed. Each byte is removed once, so these
            // moves add up to a constant times the output, whatever the
            // depth; and a small map (a derived struct of numbers, the usual
            // case) is settled without a range to record, sort and replay.
            let move_now = self.pending.ranges.len() == mark.ranges && {
                let other_keys: usize = (1..count)
                    .map(|i| {
                        let key = self.keys[keys_base + i];
                        key.end - key.start
                    })
                    .sum();
                let removed = first_end - frame.start - size + other_keys;
                let values = self.out.len() - first_end - other_keys;
                values <= MOVE_PER_REMOVED * removed
            };
            // The reference goes where the map starts if the values follow
            // it now, or right before the first value if they stay.
            let at = if move_now {
                frame.start
            } else {
                first_end - size
            };
            let end = self.out.len();
            wire::write_shape_ref(&mut self.out, shape as usize)?;
            self.out.copy_within(end.., at);
            self.out.truncate(end);
            if move_now {
                let mut write = frame.start + size;
                for i in 0..count {
                    let value = self.value_span(keys_base, i);
                    let len = value.len();
                    self.out.copy_within(value, write);
                    write += len;
                }
                self.moved += write - (frame.start + size);
                self.out.truncate(write);
            } else {
                self.remove_later(frame.start, first_end - size - frame.start);
                for i in 1..count {
                    let key = self.keys[keys_base + i];
                    self.remove_later(key.start, key.end - key.start);
                }
                self.settle(frame.start, mark);
            }
            return Ok(());
        }
        // A one-byte header and an empty first key, before a reference of
        // three bytes: the values move, without the ranges pending in them.
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        wire::write_shape_ref(&mut scratch, shape as usize)?;
        self.pending.ranges[mark.ranges..].sort_by_key(|r| r.0);
        let mut next_range = mark.ranges;
        for i in 0..count {
            let std::ops::Range {
                start: mut from,
                end: value_end,
            } = self.value_span(keys_base, i);
            while let Some(&(at, len)) = self.pending.ranges.get(next_range)
                && at < value_end
            {
                scratch.extend_from_slice(&self.out[from..at]);
                from = at + len;
                next_range += 1;
            }
            scratch.extend_from_slice(&self.out[from..value_end]);
        }
        self.pending.ranges.truncate(mark.ranges);
        self.pending.bytes = mark.bytes;
        self.out.truncate(frame.start);
        self.out.extend_from_slice(&scratch);
        self.moved += scratch.len();
        self.scratch = scratch;
        Ok(())
    }
}
