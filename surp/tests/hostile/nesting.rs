//! Nesting: a million levels hit the depth limit on a small stack, and the
//! limit is exact.

use serde::Deserialize;
use serde::de::{DeserializeOwned, IgnoredAny};
use surp::{DEFAULT_MAX_DEPTH, ErrorKind, Options, Value, wire};

use crate::{both, common, error_within};

const MILLION: usize = 1_000_000;

/// A stack far too small for unchecked recursion a million levels deep, and
/// large enough for the default limit of 128.
///
/// Measured (the smallest thread stack that decodes 128 levels, found by
/// bisection): an optimised build needs at most 128 KiB (a `Value` of nested
/// maps, about 1 KiB per level), so release test runs hold the 256 KiB bar.
/// An unoptimised build needs up to 790 KiB (about 6.2 KiB per level), so
/// debug test runs get 1 MiB instead.
/// `stack_use_per_level_fits_the_small_stack` prints the figures.
const SMALL_STACK_KIB: usize = if cfg!(debug_assertions) { 1024 } else { 256 };

/// One level of nesting in each container form the decoder follows, and
/// whether JSON can hold it (JSON object keys are strings).
const LEVELS: [(&str, &[u8], bool); 6] = [
    ("fixarray", &[0xa1], true),
    ("array with a 1-byte count", &[0xd0, 0x01], true),
    ("fixmap with an integer key", &[0xb1, 0x00], false),
    ("fixmap with a string key", &[0xb1, 0x81, b'k'], true),
    ("map with a 1-byte count", &[0xd4, 0x01, 0x00], false),
    ("some marker", &[0xeb], true),
];

fn nest(level: &[u8], depth: usize, leaf: &[u8]) -> Vec<u8> {
    let mut input = level.repeat(depth);
    input.extend_from_slice(leaf);
    input
}

#[derive(Deserialize, Debug)]
struct Nest(#[allow(dead_code)] Vec<Nest>);

#[derive(Deserialize, Debug)]
struct Linked {
    #[allow(dead_code)]
    next: Option<Box<Linked>>,
}

#[derive(Deserialize, Debug)]
enum Chain {
    End,
    Link(#[allow(dead_code)] Box<Chain>),
}

#[derive(Deserialize, Debug)]
struct Maybe(#[allow(dead_code)] Option<Box<Maybe>>);

/// A one-entry map with a string key: `{key: <next level>}`.
fn keyed(key: &str) -> Vec<u8> {
    let mut level = vec![0xb1, wire::FIXSTR | key.len() as u8];
    level.extend_from_slice(key.as_bytes());
    level
}

#[test]
fn a_million_levels_of_nesting_hit_the_depth_limit_on_a_small_stack() {
    for (name, level, json_can_hold_it) in LEVELS {
        let input = nest(level, MILLION, &[]);
        let expected_offset = DEFAULT_MAX_DEPTH * level.len();
        common::on_stack_of(SMALL_STACK_KIB, move || {
            for result in both::<Value>(&Options::new(), &input) {
                let err = error_within(result, &input);
                assert_eq!(
                    *err.kind(),
                    ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH),
                    "{name}"
                );
                assert_eq!(err.offset(), Some(expected_offset), "{name}");
            }
            let json = error_within(surp::from_slice::<serde_json::Value>(&input), &input);
            if json_can_hold_it {
                assert_eq!(
                    *json.kind(),
                    ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH),
                    "{name}"
                );
            }
        });
    }
}

#[test]
fn a_million_levels_of_nesting_into_recursive_types_hit_the_depth_limit_on_a_small_stack() {
    fn check<T: DeserializeOwned + std::fmt::Debug>(name: &str, level: &[u8]) {
        let input = nest(level, MILLION, &[]);
        for result in both::<T>(&Options::new(), &input) {
            let err = error_within(result, &input);
            assert_eq!(
                *err.kind(),
                ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH),
                "{name}"
            );
            assert_eq!(
                err.offset(),
                Some(DEFAULT_MAX_DEPTH * level.len()),
                "{name}"
            );
        }
    }
    common::on_stack_of(SMALL_STACK_KIB, || {
        check::<Nest>("Nest(Vec<Nest>)", &[0xa1]);
        check::<Linked>("Linked { next }", &keyed("next"));
        check::<Chain>("Chain::Link", &keyed("Link"));
        check::<Maybe>("Maybe(Option<Box<Maybe>>)", &[0xeb]);
    });
}

#[test]
fn an_option_that_recurses_without_consuming_input_hits_the_depth_limit() {
    // `Maybe(Some(x))` is written as `x` itself, so every `Some` of a chain
    // starts at the same byte; decoding once recursed here without end.
    common::on_stack_of(SMALL_STACK_KIB, || {
        for input in [&[0x05][..], &[0xa0], &[0x81, b'x']] {
            for result in both::<Maybe>(&Options::new(), input) {
                let err = error_within(result, input);
                assert_eq!(
                    *err.kind(),
                    ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH),
                    "{input:02x?}"
                );
                assert_eq!(err.offset(), Some(0));
            }
        }
    });
    // The guard counts only `Some`s nested at one offset: a long list of
    // implicit `Some`s at increasing offsets is fine.
    let list: Vec<Option<u8>> = (0..1000).map(|i| Some((i % 100) as u8)).collect();
    let bytes = surp::to_vec(&list).unwrap();
    assert_eq!(surp::from_slice::<Vec<Option<u8>>>(&bytes).unwrap(), list);
    let deep: Option<Option<Option<Option<u8>>>> = Some(Some(Some(Some(9))));
    assert_eq!(surp::to_vec(&deep).unwrap(), [9]);
    assert_eq!(
        surp::from_slice::<Option<Option<Option<Option<u8>>>>>(&[9]).unwrap(),
        deep
    );
}

#[test]
fn skipping_a_million_levels_of_nesting_uses_no_stack() {
    for (name, level, _) in LEVELS {
        let complete = nest(level, MILLION, &[0x00]);
        let cut = nest(level, MILLION, &[]);
        common::on_stack_of(SMALL_STACK_KIB, move || {
            for result in both::<IgnoredAny>(&Options::new(), &complete) {
                result.unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            for result in both::<IgnoredAny>(&Options::new(), &cut) {
                let err = error_within(result, &cut);
                assert!(
                    matches!(
                        err.kind(),
                        ErrorKind::UnexpectedEof | ErrorKind::LengthExceedsInput { .. }
                    ),
                    "{name}: {err}"
                );
            }
        });
    }
}

/// How deep a decoded `Value` is, counting arrays and maps.
fn value_depth(v: &Value) -> usize {
    match v {
        Value::Array(items) => 1 + items.iter().map(value_depth).max().unwrap_or(0),
        Value::Map(entries) => {
            1 + entries
                .iter()
                .map(|(k, v)| value_depth(k).max(value_depth(v)))
                .max()
                .unwrap_or(0)
        }
        _ => 0,
    }
}

#[test]
fn depth_at_the_limit_decodes_and_one_more_fails_on_a_small_stack() {
    common::on_stack_of(SMALL_STACK_KIB, || {
        for (name, level, _) in LEVELS {
            let at_limit = nest(level, DEFAULT_MAX_DEPTH, &[0x00]);
            for result in both::<Value>(&Options::new(), &at_limit) {
                let value = result.unwrap_or_else(|e| panic!("{name}: {e}"));
                let expected = if level == [0xeb] {
                    0
                } else {
                    DEFAULT_MAX_DEPTH
                };
                assert_eq!(value_depth(&value), expected, "{name}");
            }
            let over = nest(level, DEFAULT_MAX_DEPTH + 1, &[0x00]);
            for result in both::<Value>(&Options::new(), &over) {
                let err = error_within(result, &over);
                assert_eq!(
                    *err.kind(),
                    ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH)
                );
                assert_eq!(err.offset(), Some(DEFAULT_MAX_DEPTH * level.len()));
            }
        }
    });
}

#[test]
fn recursive_types_at_the_depth_limit_decode_and_one_more_fails_on_a_small_stack() {
    /// `levels` repetitions of `level` around `leaf` nest exactly to the limit.
    fn check<T: DeserializeOwned + std::fmt::Debug>(level: &[u8], levels: usize, leaf: &[u8]) {
        let at_limit = nest(level, levels, leaf);
        for result in both::<T>(&Options::new(), &at_limit) {
            result.unwrap_or_else(|e| panic!("{}: {e}", std::any::type_name::<T>()));
        }
        let over = nest(level, levels + 1, leaf);
        for result in both::<T>(&Options::new(), &over) {
            let err = error_within(result, &over);
            assert_eq!(
                *err.kind(),
                ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH)
            );
            assert_eq!(err.offset(), Some(DEFAULT_MAX_DEPTH * level.len()));
        }
    }
    common::on_stack_of(SMALL_STACK_KIB, || {
        // The innermost level is an empty array and a map without `next`
        // (each one more level), the unit variant and `None` (no level).
        check::<Nest>(&[0xa1], DEFAULT_MAX_DEPTH - 1, &[0xa0]);
        check::<Linked>(&keyed("next"), DEFAULT_MAX_DEPTH - 1, &[0xb0]);
        check::<Chain>(&keyed("Link"), DEFAULT_MAX_DEPTH, &[0x83, b'E', b'n', b'd']);
        check::<Maybe>(&[0xeb], DEFAULT_MAX_DEPTH, &[0xe8]);
    });
}

#[test]
fn structs_read_by_position_nest_to_the_depth_limit_on_a_small_stack() {
    // A deduplicated array of two `Linked` chains: the first, `{"next":
    // null}`, registers shape 0 (`["next"]`, the field list of `Linked`);
    // the second is `levels` references to it, each read by position.
    fn doc(levels: usize) -> Vec<u8> {
        let mut input = vec![wire::DEDUP_MARKER, wire::FIXARRAY | 2];
        input.extend(keyed("next"));
        input.push(wire::NULL);
        input.extend(std::iter::repeat_n(wire::FIXSHAPE, levels));
        input.push(wire::NULL);
        input
    }
    common::on_stack_of(SMALL_STACK_KIB, || {
        // The array is one level.
        let at_limit = doc(DEFAULT_MAX_DEPTH - 1);
        for opts in [Options::new(), Options::new().positional_structs(false)] {
            for result in both::<Vec<Linked>>(&opts, &at_limit) {
                result.unwrap_or_else(|e| panic!("{e}"));
            }
            let over = doc(DEFAULT_MAX_DEPTH);
            for result in both::<Vec<Linked>>(&opts, &over) {
                let err = error_within(result, &over);
                assert_eq!(
                    *err.kind(),
                    ErrorKind::DepthLimitExceeded(DEFAULT_MAX_DEPTH)
                );
                // The reference that opens one level too many.
                assert_eq!(err.offset(), Some(9 + DEFAULT_MAX_DEPTH - 1));
            }
        }
    });
}

/// An `io::Read` that notes the deepest stack address it is called from: the
/// decoder reads from it at every level, so this measures the decoder itself.
struct StackProbe<'a> {
    input: &'a [u8],
    deepest: usize,
}

fn stack_address() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

impl std::io::Read for StackProbe<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.deepest = self.deepest.min(stack_address());
        self.input.read(buf)
    }
}

/// Stack bytes used to decode `input` as `T` from a reader.
fn stack_used<T: DeserializeOwned>(input: &[u8], opts: &Options) -> usize {
    let top = stack_address();
    let mut probe = StackProbe {
        input,
        deepest: usize::MAX,
    };
    opts.from_reader::<_, T>(&mut probe).unwrap();
    top - probe.deepest
}

#[test]
fn stack_use_per_level_fits_the_small_stack() {
    fn measure<T: DeserializeOwned>(name: &str, level: &[u8], leaf: &[u8]) {
        let deeper = Options::new().max_depth(4 * DEFAULT_MAX_DEPTH);
        let at_limit = stack_used::<T>(&nest(level, DEFAULT_MAX_DEPTH, leaf), &deeper);
        let far = stack_used::<T>(&nest(level, 3 * DEFAULT_MAX_DEPTH, leaf), &deeper);
        let per_level = (far - at_limit) / (2 * DEFAULT_MAX_DEPTH);
        println!(
            "{name}: {per_level} bytes of stack per level, {} KiB at depth {DEFAULT_MAX_DEPTH}",
            at_limit / 1024
        );
        assert!(per_level > 0, "{name}: the probe saw no recursion");
        assert!(
            at_limit < SMALL_STACK_KIB * 1024,
            "{name}: {at_limit} bytes at the default depth exceed the small stack"
        );
    }
    common::on_stack_of(16 * 1024, || {
        measure::<Value>("Value, arrays", &[0xa1], &[0x00]);
        measure::<Value>("Value, maps", &[0xb1, 0x00], &[0x00]);
        measure::<serde_json::Value>("serde_json::Value, arrays", &[0xa1], &[0x00]);
        measure::<Nest>("Nest(Vec<Nest>)", &[0xa1], &[0xa0]);
        measure::<Linked>("Linked { next }", &keyed("next"), &[0xe8]);
        measure::<Chain>("Chain::Link", &keyed("Link"), &[0x83, b'E', b'n', b'd']);
    });
}

#[test]
fn a_lower_depth_limit_is_enforced_exactly() {
    for limit in [0, 1, 5] {
        let opts = Options::new().max_depth(limit);
        let at_limit = nest(&[0xa1], limit, &[0x07]);
        for result in both::<Value>(&opts, &at_limit) {
            result.unwrap();
        }
        let over = nest(&[0xa1], limit + 1, &[0x07]);
        for result in both::<Value>(&opts, &over) {
            let err = error_within(result, &over);
            assert_eq!(*err.kind(), ErrorKind::DepthLimitExceeded(limit));
            assert_eq!(err.offset(), Some(limit));
        }
    }
}
