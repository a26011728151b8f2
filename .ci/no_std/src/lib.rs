//! What a `#![no_std]` program with an allocator gets from surp without its
//! `std` feature: encoding into a `Vec` or a fixed slice, decoding borrowed
//! values, `Value`, and deduplicated documents.

#![no_std]

extern crate alloc;

use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// A record a sensor might send.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct Reading<'a> {
    pub sensor: &'a str,
    pub celsius: f32,
    pub samples: Vec<u16>,
}

/// Encodes `reading` into `buf` and reads it back, borrowing its name.
pub fn through_a_slice<'a>(buf: &'a mut [u8], reading: &Reading<'_>) -> surp::Result<Reading<'a>> {
    let doc = surp::to_slice(buf, reading)?;
    surp::from_slice(doc)
}

/// Encodes `reading` into a `Vec` and reads it as a dynamic value.
pub fn as_value(reading: &Reading<'_>) -> surp::Result<surp::Value> {
    surp::from_slice(&surp::to_vec(reading)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn reading() -> Reading<'static> {
        Reading { sensor: "greenhouse-3", celsius: 21.5, samples: vec![1, 300, 4_464] }
    }

    #[test]
    fn a_reading_round_trips_through_a_fixed_slice() {
        let mut buf = [0u8; 64];
        assert_eq!(through_a_slice(&mut buf, &reading()).unwrap(), reading());
        let mut small = [0u8; 4];
        let err = through_a_slice(&mut small, &reading()).unwrap_err();
        assert_eq!(*err.kind(), surp::ErrorKind::OutputFull);
    }

    #[test]
    fn a_reading_reads_as_a_value() {
        let value = as_value(&reading()).unwrap();
        assert_eq!(value["sensor"].as_str(), Some("greenhouse-3"));
        assert_eq!(value["celsius"].as_f64(), Some(21.5));
    }

    #[test]
    fn a_deduplicated_document_decodes() {
        // [{"id": 1}, {"id": 2}]: the second map is a reference to shape 0.
        let doc = [0xf2, 0xa2, 0xb1, 0x82, b'i', b'd', 0x01, 0xc0, 0x02];
        let value: surp::Value = surp::from_slice(&doc).unwrap();
        assert_eq!(value[1]["id"].as_u64(), Some(2));
    }

    #[test]
    fn malformed_input_is_an_error_with_an_offset() {
        let err = surp::from_slice::<Reading<'_>>(&[0xa3, 0x01]).unwrap_err();
        assert_eq!(err.offset(), Some(0));
    }
}
