//! The deduplicating encoder writes collections whose length serde does not
//! know (`serialize_seq(None)`, `serialize_map(None)`) in time linear in
//! their size, whatever the depth (issue 19, item 11).
//!
//! It reserved room for the largest header before such a collection and
//! closed the gap when it ended by moving the items back; compacting an
//! explicit map into a shape reference moved its values the same way. At
//! every level of a nested value that moved everything below it again.
//! Timings are not asserted: the encoder counts the bytes it copies within
//! its output (`surp_dedup::__private::to_vec_counting_moves`), and that count must
//! stay a small multiple of the output, not the depth times it. The heap a
//! counting allocator sees requested is checked too, and the bytes must be
//! those of the same value with its lengths given, and decode back.

#[path = "../../surp/tests/counting/mod.rs"]
mod counting;
#[path = "../../surp/tests/unknown_lengths/mod.rs"]
mod unknown_lengths;

use counting::usage_with;
use serde::ser::Serialize;
use surp::Value;
use unknown_lengths::{Arrays, CHUNK, CHUNKS, DEPTH, Maps};

/// Bytes a linear encoder may copy within its output per output byte: the
/// gaps and compacted keys are removed in one pass at the end.
const MOVES_PER_OUTPUT_BYTE: usize = 2;
/// Heap a linear encoder may request per output byte (the output doubles as
/// it grows, and the counting allocator charges each growth its new size).
const HEAP_PER_OUTPUT_BYTE: usize = 10;

fn check_linear<T: Serialize>(what: &str, sized: &T, unknown: &T) {
    let expected = surp_dedup::to_vec(sized).unwrap();
    let n = expected.len();
    assert!(n > CHUNK * CHUNKS, "{what}: {n} bytes");
    let (_, sized_moves) = surp_dedup::__private::to_vec_counting_moves(sized).unwrap();

    let (heap, (bytes, moved)) =
        usage_with(|| surp_dedup::__private::to_vec_counting_moves(unknown).unwrap());
    println!(
        "{what}: {n} bytes; moved {moved} ({:.2} per byte; {sized_moves} with lengths given), \
         heap requested {} ({:.2} per byte)",
        moved as f64 / n as f64,
        heap.total,
        heap.total as f64 / n as f64
    );
    assert!(bytes == expected, "{what}: differs from the sized encoding");
    assert!(
        moved <= MOVES_PER_OUTPUT_BYTE * n,
        "{what}: moved {moved} bytes for {n} bytes of output"
    );
    assert!(
        sized_moves <= MOVES_PER_OUTPUT_BYTE * n,
        "{what} with lengths given: moved {sized_moves} bytes for {n} bytes of output"
    );
    assert!(
        heap.total <= HEAP_PER_OUTPUT_BYTE * n,
        "{what}: requested {} bytes of heap for {n} bytes of output",
        heap.total
    );

    let mut written = Vec::new();
    surp_dedup::to_writer(&mut written, unknown).unwrap();
    assert!(written == expected, "{what}: to_writer differs");

    let value: Value = surp_dedup::from_slice(&bytes).unwrap();
    assert!(
        surp_dedup::to_vec(&value).unwrap() == expected,
        "{what}: round trip"
    );
}

#[test]
fn arrays_of_unknown_length_nested_100_deep_encode_in_linear_moves() {
    check_linear(
        "arrays",
        &Arrays {
            depth: DEPTH,
            sized: true,
        },
        &Arrays {
            depth: DEPTH,
            sized: false,
        },
    );
}

/// Every level is `{"level": .., "inner": ..}`: a shape by the second level,
/// so each map is also compacted into a shape reference when it ends.
#[test]
fn maps_of_unknown_length_nested_100_deep_encode_in_linear_moves() {
    check_linear(
        "maps",
        &Maps {
            depth: DEPTH,
            sized: true,
        },
        &Maps {
            depth: DEPTH,
            sized: false,
        },
    );
}

/// Two such trees side by side: the maps of the second are written
/// explicitly (a map of unknown length is never predicted) and each matches
/// the shape the first registered, so each is compacted into a shape
/// reference when it ends, at every level.
#[test]
fn maps_of_unknown_length_compacted_at_every_level_encode_in_linear_moves() {
    let tree = |sized| Maps {
        depth: DEPTH,
        sized,
    };
    check_linear(
        "compacted maps",
        &(tree(true), tree(true)),
        &(tree(false), tree(false)),
    );
}

/// What is moved does not grow with the depth: the same payload costs about
/// the same at depth 1 and at depth 100.
#[test]
fn the_bytes_an_unknown_length_encode_moves_do_not_grow_with_depth() {
    let moved = |depth| {
        surp_dedup::__private::to_vec_counting_moves(&Maps {
            depth,
            sized: false,
        })
        .unwrap()
        .1
    };
    let (shallow, deep) = (moved(1), moved(DEPTH));
    println!("moved at depth 1: {shallow}, at depth {DEPTH}: {deep}");
    assert!(
        deep <= shallow + shallow / 100,
        "depth {DEPTH} moved {deep} bytes, depth 1 {shallow}"
    );
}
