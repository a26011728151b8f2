//! Encoding a value nested deeper than the decoders' limit is an error from
//! every serializer, never a stack overflow; at the limit it encodes, and
//! the decoders read it back.

use serde::ser::{Serialize, SerializeSeq, Serializer};
use surp::{DEFAULT_MAX_DEPTH, ErrorKind, Value};

fn nested_arrays(depth: usize) -> Value {
    let mut value = Value::Null;
    for _ in 0..depth {
        value = Value::Array(vec![value]);
    }
    value
}

fn nested_maps(depth: usize) -> Value {
    let mut value = Value::Null;
    for _ in 0..depth {
        value = Value::Map(vec![(Value::from("k"), value)]);
    }
    value
}

/// Arrays whose length serde does not know up front (written through the
/// serializers' other path), nested `depth` deep.
struct Unsized(usize);

impl Serialize for Unsized {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        if self.0 > 0 {
            seq.serialize_element(&Unsized(self.0 - 1))?;
        }
        seq.end()
    }
}

/// A chain of newtype enum variants, and one of `Some`s.
enum Chain {
    Link(Box<Chain>),
    End,
}

impl Serialize for Chain {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Chain::Link(next) => s.serialize_newtype_variant("Chain", 0, "Link", next),
            Chain::End => s.serialize_unit_variant("Chain", 1, "End"),
        }
    }
}

fn chain(depth: usize) -> Chain {
    let mut c = Chain::End;
    for _ in 0..depth {
        c = Chain::Link(Box::new(c));
    }
    c
}

/// `depth` nested `Some`s around a `None`: each but the last writes a tag.
struct Somes(usize);

impl Serialize for Somes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 == 0 {
            s.serialize_none()
        } else {
            s.serialize_some(&Somes(self.0 - 1))
        }
    }
}

/// Every serializer: surp's (into a `Vec` and into a writer) and
/// surp-dedup's.
fn encode_all<T: Serialize>(value: &T) -> [surp::Result<Vec<u8>>; 3] {
    [
        surp::to_vec(value),
        {
            let mut out = Vec::new();
            surp::to_writer(&mut out, value).map(|()| out)
        },
        surp_dedup::to_vec(value),
    ]
}

/// See `SMALL_STACK_KIB` in `surp/tests/hostile.rs`.
const SMALL_STACK_KIB: usize = if cfg!(debug_assertions) { 1024 } else { 256 };

fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK_KIB * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .expect("the thread finished without overflowing its stack");
}

fn assert_too_deep(results: [surp::Result<Vec<u8>>; 3], what: &str) {
    for (i, result) in results.into_iter().enumerate() {
        let err = result.expect_err(what);
        assert_eq!(
            *err.kind(),
            ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH),
            "{what}, serializer {i}"
        );
    }
}

#[test]
fn a_million_deep_value_is_an_error_from_every_serializer() {
    on_small_stack(|| {
        let arrays = nested_arrays(1_000_000);
        assert_too_deep(encode_all(&arrays), "arrays");
        drop(arrays);
        let maps = nested_maps(1_000_000);
        assert_too_deep(encode_all(&maps), "maps");
        drop(maps);
        assert_too_deep(encode_all(&Unsized(1_000_000)), "unsized arrays");
        assert_too_deep(encode_all(&Somes(1_000_000)), "somes");
        let links = chain(1_000_000);
        assert_too_deep(encode_all(&links), "newtype variants");
        // Taken apart link by link: its own drop would recurse.
        let mut rest = links;
        while let Chain::Link(next) = rest {
            rest = *next;
        }
    });
}

#[test]
fn values_at_the_depth_limit_encode_and_decode_one_level_more_do_not() {
    on_small_stack(|| {
        for depth in [DEFAULT_MAX_DEPTH - 1, DEFAULT_MAX_DEPTH] {
            for value in [nested_arrays(depth), nested_maps(depth)] {
                for bytes in encode_all(&value) {
                    let bytes = bytes.unwrap();
                    let back: Value = surp::from_slice(&bytes).unwrap();
                    assert_eq!(back, value);
                }
            }
            for bytes in encode_all(&Unsized(depth - 1)) {
                surp::from_slice::<Value>(&bytes.unwrap()).unwrap();
            }
        }
        let over = DEFAULT_MAX_DEPTH + 1;
        assert_too_deep(encode_all(&nested_arrays(over)), "arrays");
        assert_too_deep(encode_all(&nested_maps(over)), "maps");
        assert_too_deep(encode_all(&Unsized(over)), "unsized");
    });
}
