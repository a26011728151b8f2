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

/// See `SMALL_STACK_KIB` in `surp/tests/hostile/nesting.rs`. Decoding a
/// deduplicated `Value` of nested maps at the depth limit takes more stack
/// per level than a plain one, a little over 1 MiB in an unoptimised build,
/// so debug test runs get 1.5 MiB here; the optimised build holds the
/// 256 KiB bar.
const SMALL_STACK_KIB: usize = if cfg!(debug_assertions) { 1536 } else { 256 };

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

/// A recursive type of one serde compound kind, as `#[derive(Serialize)]`
/// writes it: built `depth` levels deep without recursion, and taken apart
/// the same way (a derived drop of a million levels would recurse).
trait Recursive: Serialize + Sized {
    const KIND: &'static str;
    fn leaf() -> Self;
    fn wrap(self) -> Self;
    /// The value one level in, leaving this one without it.
    fn take_inner(&mut self) -> Option<Self>;

    fn nested(depth: usize) -> Self {
        (0..depth).fold(Self::leaf(), |inner, _| inner.wrap())
    }

    fn dismantle(mut self) {
        while let Some(inner) = self.take_inner() {
            self = inner;
        }
    }
}

#[derive(serde::Serialize)]
struct Struct {
    next: Option<Box<Struct>>,
    n: u8,
}

impl Recursive for Struct {
    const KIND: &'static str = "struct";
    fn leaf() -> Self {
        Struct { next: None, n: 0 }
    }
    fn wrap(self) -> Self {
        Struct {
            next: Some(Box::new(self)),
            n: 1,
        }
    }
    fn take_inner(&mut self) -> Option<Self> {
        self.next.take().map(|b| *b)
    }
}

#[derive(serde::Serialize)]
struct TupleStruct(Option<Box<TupleStruct>>, u8);

impl Recursive for TupleStruct {
    const KIND: &'static str = "tuple struct";
    fn leaf() -> Self {
        TupleStruct(None, 0)
    }
    fn wrap(self) -> Self {
        TupleStruct(Some(Box::new(self)), 1)
    }
    fn take_inner(&mut self) -> Option<Self> {
        self.0.take().map(|b| *b)
    }
}

/// A tuple: `Some((inner, n))` inside a newtype struct, which adds nothing.
#[derive(serde::Serialize)]
struct Tuple(Option<Box<(Tuple, u8)>>);

impl Recursive for Tuple {
    const KIND: &'static str = "tuple";
    fn leaf() -> Self {
        Tuple(None)
    }
    fn wrap(self) -> Self {
        Tuple(Some(Box::new((self, 1))))
    }
    fn take_inner(&mut self) -> Option<Self> {
        self.0.take().map(|b| b.0)
    }
}

macro_rules! recursive_enum {
    ($name:ident, $kind:literal, $node:pat => $inner:ident, $wrap:expr) => {
        impl Recursive for $name {
            const KIND: &'static str = $kind;
            fn leaf() -> Self {
                $name::Leaf
            }
            fn wrap(self) -> Self {
                let wrap: fn(Box<$name>) -> $name = $wrap;
                wrap(Box::new(self))
            }
            fn take_inner(&mut self) -> Option<Self> {
                match std::mem::replace(self, $name::Leaf) {
                    $node => Some(*$inner),
                    $name::Leaf => None,
                }
            }
        }
    };
}

#[derive(serde::Serialize)]
enum TupleVariant {
    Leaf,
    Node(Box<TupleVariant>, u8),
}
recursive_enum!(TupleVariant, "tuple variant", TupleVariant::Node(next, _) => next, |b| TupleVariant::Node(b, 1));

#[derive(serde::Serialize)]
enum StructVariant {
    Leaf,
    Node { next: Box<StructVariant> },
}
recursive_enum!(StructVariant, "struct variant", StructVariant::Node { next } => next, |next| StructVariant::Node { next });

#[derive(serde::Serialize)]
enum NewtypeVariant {
    Leaf,
    Node(Box<NewtypeVariant>),
}
recursive_enum!(NewtypeVariant, "newtype variant", NewtypeVariant::Node(next) => next, NewtypeVariant::Node);

#[derive(serde::Serialize)]
struct Seq(Vec<Seq>);

impl Recursive for Seq {
    const KIND: &'static str = "sequence";
    fn leaf() -> Self {
        Seq(Vec::new())
    }
    fn wrap(self) -> Self {
        Seq(vec![self])
    }
    fn take_inner(&mut self) -> Option<Self> {
        self.0.pop()
    }
}

#[derive(serde::Serialize)]
struct Map(std::collections::BTreeMap<u8, Map>);

impl Recursive for Map {
    const KIND: &'static str = "map";
    fn leaf() -> Self {
        Map(Default::default())
    }
    fn wrap(self) -> Self {
        Map([(0, self)].into())
    }
    fn take_inner(&mut self) -> Option<Self> {
        std::mem::take(&mut self.0).into_values().next()
    }
}

/// `Some`s around a `None`, each written as a `some` tag.
#[derive(serde::Serialize)]
struct Opt(Option<Box<Opt>>);

impl Recursive for Opt {
    const KIND: &'static str = "option";
    fn leaf() -> Self {
        Opt(None)
    }
    fn wrap(self) -> Self {
        Opt(Some(Box::new(self)))
    }
    fn take_inner(&mut self) -> Option<Self> {
        self.0.take().map(|b| *b)
    }
}

/// Calls `check::<T>()` for every compound kind.
macro_rules! for_every_kind {
    ($check:ident) => {
        $check::<Struct>();
        $check::<TupleStruct>();
        $check::<Tuple>();
        $check::<TupleVariant>();
        $check::<StructVariant>();
        $check::<NewtypeVariant>();
        $check::<Seq>();
        $check::<Map>();
        $check::<Opt>();
    };
}

#[test]
fn every_compound_kind_nested_a_million_deep_is_an_error_from_every_serializer() {
    fn check<T: Recursive>() {
        let value = T::nested(1_000_000);
        assert_too_deep(encode_all(&value), T::KIND);
        value.dismantle();
    }
    on_small_stack(|| {
        for_every_kind!(check);
    });
}

/// The deepest value of each kind that a serializer writes is one that the
/// decoder, with its default limits, reads: no encoder writes a document
/// that the decoder refuses.
#[test]
fn the_deepest_value_of_every_kind_that_encodes_also_decodes() {
    fn check<T: Recursive>() {
        for serializer in 0..3 {
            let mut deepest = None;
            for depth in 1..=2 * DEFAULT_MAX_DEPTH {
                let value = T::nested(depth);
                match encode_all(&value).into_iter().nth(serializer).unwrap() {
                    Ok(bytes) => deepest = Some((depth, bytes)),
                    Err(e) => {
                        let what = format!("{} at depth {depth}", T::KIND);
                        assert_eq!(
                            *e.kind(),
                            ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH),
                            "{what}"
                        );
                        break;
                    }
                }
            }
            let (depth, bytes) = deepest.expect("a value one level deep encodes");
            assert!(depth < 2 * DEFAULT_MAX_DEPTH, "{} has no limit", T::KIND);
            surp::from_slice::<Value>(&bytes).unwrap_or_else(|e| {
                panic!("{} at depth {depth}, serializer {serializer}: {e}", T::KIND)
            });
        }
    }
    on_small_stack(|| {
        for_every_kind!(check);
    });
}
