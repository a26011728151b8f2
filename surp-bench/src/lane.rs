//! A lane: one format's state while a dataset is measured, and how each of
//! its runs is timed. Every lane of every suite times its runs through
//! [`timed_encode`], [`timed_decode`], [`timed_decode_into`] and
//! [`timed_roundtrip`], so they are timed alike; a compressed pipeline's
//! lane adds a [`ZstdStep`].

use std::hint::black_box;
use std::time::Instant;

use crate::Operation;
use crate::codec::CodecError;

/// The zstd level of the compressed-size column and of the compressed
/// pipelines: zstd's default, what users reach for first.
pub const ZSTD_LEVEL: i32 = 3;

/// The zstd half of a compressed pipeline's lane: a compressor and a
/// decompressor, each with its buffer, made once before anything is timed
/// and reused by every run, as a program that compresses many documents
/// would keep them.
pub(crate) struct ZstdStep {
    pub(crate) pack: Packer<'static>,
    pub(crate) unpack: Unpacker<'static>,
}

/// Encodes into its own buffer, then compresses that into the caller's, as
/// one zstd frame; with a dictionary, that frame needs the same dictionary
/// to decompress (`'d` is the dictionary's borrow).
pub(crate) struct Packer<'d> {
    compressor: zstd::bulk::Compressor<'d>,
    /// The plain encoding, cleared (capacity kept) before each encode.
    plain: Vec<u8>,
}

/// Decompresses into its own buffer, which the decode then reads.
pub(crate) struct Unpacker<'d> {
    decompressor: zstd::bulk::Decompressor<'d>,
    /// The decompressed encoding, cleared (capacity kept) before each run.
    unpacked: Vec<u8>,
}

impl ZstdStep {
    /// A compressor at [`ZSTD_LEVEL`] and a decompressor, with empty
    /// buffers.
    pub(crate) fn new() -> Result<ZstdStep, CodecError> {
        Ok(ZstdStep {
            pack: Packer::new(zstd::bulk::Compressor::new(ZSTD_LEVEL)?),
            unpack: Unpacker::new(zstd::bulk::Decompressor::new()?),
        })
    }
}

impl<'d> Packer<'d> {
    /// A packer around a compressor, with an empty buffer.
    pub(crate) fn new(compressor: zstd::bulk::Compressor<'d>) -> Packer<'d> {
        Packer {
            compressor,
            plain: Vec::new(),
        }
    }

    /// Runs `encode` into the plain buffer, then compresses the plain
    /// encoding into `out` (which the caller has cleared) as one zstd frame
    /// that records its size.
    pub(crate) fn pack(
        &mut self,
        encode: impl FnOnce(&mut Vec<u8>) -> Result<(), CodecError>,
        out: &mut Vec<u8>,
    ) -> Result<(), CodecError> {
        self.plain.clear();
        encode(&mut self.plain)?;
        out.clear();
        out.reserve(zstd::compress_bound(self.plain.len()));
        self.compressor.compress_to_buffer(&self.plain, out)?;
        Ok(())
    }
}

impl<'d> Unpacker<'d> {
    /// An unpacker around a decompressor, with an empty buffer.
    pub(crate) fn new(decompressor: zstd::bulk::Decompressor<'d>) -> Unpacker<'d> {
        Unpacker {
            decompressor,
            unpacked: Vec::new(),
        }
    }

    /// Decompresses one frame into the buffer, sized from the size the
    /// frame records, and returns the plain encoding.
    pub(crate) fn unpack(&mut self, compressed: &[u8]) -> Result<&[u8], CodecError> {
        let size = zstd::bulk::Decompressor::upper_bound(compressed)
            .ok_or("the zstd frame does not record its decompressed size")?;
        self.unpacked.clear();
        self.unpacked.reserve(size);
        self.decompressor
            .decompress_to_buffer(compressed, &mut self.unpacked)?;
        Ok(&self.unpacked)
    }
}

/// The nanoseconds since `start`, saturated.
fn elapsed_ns(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// Times one encode into `scratch`, cleared first (capacity kept): every
/// lane's encode runs go through here, so they are timed alike.
pub(crate) fn timed_encode(
    scratch: &mut Vec<u8>,
    encode: impl FnOnce(&mut Vec<u8>) -> Result<(), CodecError>,
) -> Result<u64, CodecError> {
    scratch.clear();
    let start = Instant::now();
    encode(scratch)?;
    let ns = elapsed_ns(start);
    black_box(&scratch);
    Ok(ns)
}

/// Bytes of the block [`settle_allocator`] asks for: above glibc's small
/// bins (up to 1,008 bytes) and its thread cache, and far below the size
/// from which it maps memory instead (128 KiB by default).
const SETTLE_BYTES: usize = 4096;

/// Finishes, outside the clock, the free work that dropping a decoded value
/// left behind. glibc's allocator keeps small freed blocks in "fast bins" and
/// merges them only when a later request is too large for a small bin; so
/// after a value tree of thousands of small blocks is dropped, that merge
/// (`malloc_consolidate`) runs inside whatever timed operation next asks for
/// a large block. Which operation that is depends on the order of the runs:
/// a decoder that allocates a table early paid for the previous format's
/// drop in some runs and not in others, so its medians jumped between
/// runs. One large request here makes the allocator do it now. With another allocator
/// (`--features jemalloc`) it is one more allocation, untimed.
#[inline(never)]
fn settle_allocator() {
    drop(black_box(Vec::<u8>::with_capacity(SETTLE_BYTES)));
}

/// Times one decode; the decoded value is dropped after the clock stops:
/// freeing it is not decoding (nor is the work the allocator defers from it,
/// see [`settle_allocator`]).
pub(crate) fn timed_decode<T>(
    decode: impl FnOnce() -> Result<T, CodecError>,
) -> Result<u64, CodecError> {
    let start = Instant::now();
    let decoded = decode()?;
    let ns = elapsed_ns(start);
    drop(black_box(decoded));
    settle_allocator();
    Ok(ns)
}

/// Times a decode of many values into `decoded` (emptied first, its
/// capacity kept from run to run, so that a timed run does not grow it);
/// the values are dropped after the clock stops, as [`timed_decode`] drops
/// its one value.
pub(crate) fn timed_decode_into<T>(
    decoded: &mut Vec<T>,
    decode: impl FnOnce(&mut Vec<T>) -> Result<(), CodecError>,
) -> Result<u64, CodecError> {
    decoded.clear();
    let start = Instant::now();
    decode(decoded)?;
    let ns = elapsed_ns(start);
    black_box(&decoded);
    decoded.clear();
    settle_allocator();
    Ok(ns)
}

/// Times an encode into `scratch` (cleared first) and the decode of what
/// it wrote, as one run; the decoded value is dropped after the clock.
pub(crate) fn timed_roundtrip<T>(
    scratch: &mut Vec<u8>,
    encode: impl FnOnce(&mut Vec<u8>) -> Result<(), CodecError>,
    decode: impl FnOnce(&[u8]) -> Result<T, CodecError>,
) -> Result<u64, CodecError> {
    scratch.clear();
    let start = Instant::now();
    encode(scratch)?;
    let decoded = decode(black_box(scratch))?;
    let ns = elapsed_ns(start);
    drop(black_box(decoded));
    settle_allocator();
    Ok(ns)
}

/// One format's state while a dataset is measured: its checked encoding and
/// whatever its runs need. The value suite and the typed suite each have
/// their own lanes; one timing loop (`measure::measure_lanes`) serves both,
/// and knows which format each lane is.
pub(crate) trait Lane {
    /// The checked encoding of the dataset, which decode runs read.
    fn encoded(&self) -> &[u8];
    /// How many messages the encoding holds: `None` for one document (the
    /// value and typed suites), the stream's length in the messages suite.
    fn messages(&self) -> Option<u64> {
        None
    }
    /// Whether the format can run this operation on this dataset.
    fn supports(&self, operation: Operation) -> bool;
    /// One run of the operation; returns its time in nanoseconds. Only the
    /// operation is timed: clearing the buffer before and dropping the
    /// decoded value after are not.
    fn run(&mut self, operation: Operation) -> Result<u64, CodecError>;
}

/// Why a format failed its check before timing: the operation and what
/// went wrong.
pub(crate) type LaneError = (Operation, String);
