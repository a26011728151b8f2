//! Values nested 100 deep whose collections serde may be told the length
//! of or not: what the `linear_encode` tests of `surp` and `surp-dedup`
//! encode.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// How deep the tests nest.
pub const DEPTH: usize = 100;
/// The payload at the bottom: `CHUNKS` byte strings of `CHUNK` bytes.
pub const CHUNK: usize = 1024;
pub const CHUNKS: usize = 4 * 1024;

pub struct Chunk(pub u8);

impl Serialize for Chunk {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&[self.0; CHUNK])
    }
}

/// Arrays nested `depth` deep, each `[level, inner]`, the innermost holding
/// the payload; lengths given to serde or not (`sized`).
pub struct Arrays {
    pub depth: usize,
    pub sized: bool,
}

impl Serialize for Arrays {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.depth == 0 {
            let mut seq = s.serialize_seq(self.sized.then_some(CHUNKS))?;
            for i in 0..CHUNKS {
                seq.serialize_element(&Chunk(i as u8))?;
            }
            return seq.end();
        }
        let mut seq = s.serialize_seq(self.sized.then_some(2))?;
        seq.serialize_element(&self.depth)?;
        seq.serialize_element(&Arrays {
            depth: self.depth - 1,
            sized: self.sized,
        })?;
        seq.end()
    }
}

/// Maps nested `depth` deep, each `{"level": level, "inner": inner}`, the
/// innermost from integers to the payload.
pub struct Maps {
    pub depth: usize,
    pub sized: bool,
}

impl Serialize for Maps {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.depth == 0 {
            let mut map = s.serialize_map(self.sized.then_some(CHUNKS))?;
            for i in 0..CHUNKS {
                map.serialize_entry(&i, &Chunk(i as u8))?;
            }
            return map.end();
        }
        let mut map = s.serialize_map(self.sized.then_some(2))?;
        map.serialize_entry("level", &self.depth)?;
        map.serialize_entry(
            "inner",
            &Maps {
                depth: self.depth - 1,
                sized: self.sized,
            },
        )?;
        map.end()
    }
}
