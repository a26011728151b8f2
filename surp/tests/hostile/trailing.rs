//! Trailing bytes after a value.

use serde::Deserialize;
use serde::de::IgnoredAny;
use surp::{ErrorKind, Options, Value};

use crate::utf8::Named;
use crate::{both, error_within};

#[test]
fn trailing_bytes_after_a_value_are_an_error_in_from_slice_and_from_reader() {
    let record = [0xb1, 0x81, b'a', 0x01];
    let cases: [(&[u8], usize); 5] = [
        (&[0x00, 0x00], 1),
        (&[0xe8, 0xe8], 1),
        (&[0x81, b'x', 0xa0], 2),
        (&[0xa1, 0x01, 0xff], 2),
        (&[0xb1, 0x81, b'a', 0x01, 0x00], 4),
    ];
    for (input, at) in cases {
        let results = [
            surp::from_slice::<Value>(input).map(drop),
            surp::from_reader::<_, Value>(input).map(drop),
            surp::from_slice::<IgnoredAny>(input).map(drop),
            surp::from_reader::<_, IgnoredAny>(input).map(drop),
        ];
        for result in results {
            let err = error_within(result, input);
            assert_eq!(*err.kind(), ErrorKind::TrailingBytes, "{input:02x?}");
            assert_eq!(err.offset(), Some(at), "{input:02x?}");
        }
    }
    let mut named = record.to_vec();
    named.push(0xe8);
    for result in both::<Named>(&Options::new(), &named) {
        assert_eq!(
            *error_within(result, &named).kind(),
            ErrorKind::TrailingBytes
        );
    }
}

#[test]
fn a_deserializer_reads_several_values_and_then_requires_the_end() {
    let mut input = surp::to_vec(&1u8).unwrap();
    input.extend(surp::to_vec("two").unwrap());
    assert_eq!(
        *error_within(surp::from_slice::<u8>(&input), &input).kind(),
        ErrorKind::TrailingBytes
    );

    let mut de = surp::Deserializer::from_slice(&input);
    assert_eq!(u8::deserialize(&mut de).unwrap(), 1);
    assert_eq!(String::deserialize(&mut de).unwrap(), "two");
    de.end().unwrap();

    let mut de = surp::Deserializer::from_reader(&input[..]);
    assert_eq!(u8::deserialize(&mut de).unwrap(), 1);
    assert_eq!(String::deserialize(&mut de).unwrap(), "two");
    de.end().unwrap();
}
