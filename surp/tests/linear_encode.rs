//! Collections whose length serde does not know (`serialize_seq(None)`,
//! `serialize_map(None)`) encode in time linear in their size, whatever the
//! depth (issue 19, item 11: 64 MiB nested 100 deep took 40 times as long
//! as at depth 1, because each level copied its buffered children again).
//!
//! Timings are not asserted. What made the encoder quadratic was a side
//! buffer per level, each holding a copy of everything below it, so the
//! heap a counting allocator (`counting/mod.rs`) sees requested is the
//! measure: a small multiple of the output, not the depth times it. The
//! bytes must also be those of the same value with its lengths given, and
//! decode back.

mod counting;
mod unknown_lengths;

use std::io;

use counting::usage_with;
use serde::ser::{Serialize, SerializeSeq, Serializer};
use surp::Value;
use unknown_lengths::{Arrays, CHUNK, CHUNKS, DEPTH, Maps};

/// Heap a linear encoder may request per output byte. The buffers grow by
/// doubling and the counting allocator charges each growth its whole new
/// size, so a buffer of `n` bytes costs up to about `4 n`: one for the side
/// buffer and one for the output. Buffering at every level cost `DEPTH`
/// times that.
const HEAP_PER_OUTPUT_BYTE: usize = 10;

/// A writer that keeps only the bytes' count and a checksum.
#[derive(Default)]
struct Tally {
    len: usize,
    sum: u64,
}

impl io::Write for Tally {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.len += buf.len();
        for &b in buf {
            self.sum = self.sum.wrapping_mul(31).wrapping_add(b.into());
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn tally(bytes: &[u8]) -> (usize, u64) {
    let mut t = Tally::default();
    io::Write::write_all(&mut t, bytes).unwrap();
    (t.len, t.sum)
}

/// Encodes `unknown` with `to_vec` and `to_writer`, checks the bytes against
/// `sized`'s and the round trip, and the heap requested against the output.
fn check_linear<T: Serialize>(what: &str, sized: &T, unknown: &T) {
    let expected = surp::to_vec(sized).unwrap();
    let n = expected.len();
    assert!(n > CHUNK * CHUNKS, "{what}: {n} bytes");

    // The heap one path requested, against the output's size.
    let check_heap = |path: &str, total: usize| {
        println!(
            "{what}: {path} of {n} bytes requested {total} bytes of heap ({:.2} per byte)",
            total as f64 / n as f64
        );
        assert!(
            total <= HEAP_PER_OUTPUT_BYTE * n,
            "{what}: {path} requested {total} bytes of heap for {n} bytes of output"
        );
    };

    let (heap, bytes) = usage_with(|| surp::to_vec(unknown).unwrap());
    assert!(
        bytes == expected,
        "{what}: to_vec differs from the sized encoding"
    );
    check_heap("to_vec", heap.total);

    let (heap, written) = usage_with(|| {
        let mut sink = Tally::default();
        surp::to_writer(&mut sink, unknown).unwrap();
        (sink.len, sink.sum)
    });
    assert_eq!(written, tally(&expected), "{what}: to_writer differs");
    check_heap("to_writer", heap.total);

    let value: Value = surp::from_slice(&bytes).unwrap();
    assert!(
        surp::to_vec(&value).unwrap() == expected,
        "{what}: round trip"
    );
}

#[test]
fn arrays_of_unknown_length_nested_100_deep_encode_in_linear_heap() {
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

#[test]
fn maps_of_unknown_length_nested_100_deep_encode_in_linear_heap() {
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

/// The heap does not grow with the depth: the same payload costs about the
/// same at depth 1 and at depth 100 (within the rounding of buffers that
/// double).
#[test]
fn the_heap_an_unknown_length_encode_requests_does_not_grow_with_depth() {
    let heap = |depth| {
        usage_with(|| {
            surp::to_vec(&Arrays {
                depth,
                sized: false,
            })
            .unwrap()
        })
        .0
        .total
    };
    let (shallow, deep) = (heap(1), heap(DEPTH));
    println!("heap requested at depth 1: {shallow}, at depth {DEPTH}: {deep}");
    assert!(
        deep <= 2 * shallow,
        "depth {DEPTH} requested {deep} bytes, depth 1 {shallow}"
    );
}

/// Many small collections of unknown length inside one: each leaves a gap
/// in the side buffer, and the buffer stays a small multiple of the output.
#[test]
fn many_small_unknown_length_collections_in_one_stay_linear() {
    struct Rows(bool);
    impl Serialize for Rows {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut seq = s.serialize_seq(self.0.then_some(100_000))?;
            for i in 0..100_000u32 {
                seq.serialize_element(&Row(self.0, i))?;
            }
            seq.end()
        }
    }
    struct Row(bool, u32);
    impl Serialize for Row {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut seq = s.serialize_seq(self.0.then_some(self.1 as usize % 3))?;
            for _ in 0..self.1 % 3 {
                seq.serialize_element(&self.1)?;
            }
            seq.end()
        }
    }
    check_linear_small(&Rows(true), &Rows(false));
}

fn check_linear_small<T: Serialize>(sized: &T, unknown: &T) {
    let expected = surp::to_vec(sized).unwrap();
    let n = expected.len();
    let (heap, bytes) = usage_with(|| surp::to_vec(unknown).unwrap());
    assert!(bytes == expected);
    println!(
        "small rows: {n} bytes, {} bytes of heap requested",
        heap.total
    );
    assert!(heap.total <= 4 * HEAP_PER_OUTPUT_BYTE * n);
}
