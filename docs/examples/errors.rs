use serde::{Deserialize, Serialize};
use surp::ErrorKind;

#[derive(Serialize, Deserialize, Debug)]
struct User {
    id: u32,
    name: String,
}

fn main() -> Result<(), surp::Error> {
    let bytes = surp::to_vec(&User {
        id: 7,
        name: "Ada".into(),
    })?;
    let message = |input: &[u8]| surp::from_slice::<User>(input).unwrap_err().to_string();

    // Cut short: the string "Ada" (at byte 10) declares 3 bytes; 2 are left.
    assert_eq!(
        message(&bytes[..bytes.len() - 1]),
        "string declares 3 bytes but the input is too short to hold them at byte 10, in name"
    );
    // Extra bytes after a complete value.
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(
        message(&longer),
        "trailing bytes after the value at byte 14"
    );
    // A hostile length: an array claiming 2^63 items in a 9-byte input is
    // refused before anything is allocated.
    assert_eq!(
        message(&[0xd3, 0, 0, 0, 0, 0, 0, 0, 0x80]),
        "array declares 9223372036854775808 items but the input is too short to hold them at byte 0"
    );
    // The tag that plain and deduplicated documents reserve: it starts the
    // session documents of spec section 9, which say how to read them.
    assert_eq!(
        message(&[0xf1]),
        "reserved tag byte 0xf1 at byte 0 (a session message or dictionary document: \
         read it with surp_dedup's SessionDecoder or Dictionary)"
    );

    // Invalid UTF-8 in a string (a 2-byte string, 0xff 0xfe).
    let err = surp::from_slice::<String>(&[0x82, 0xff, 0xfe]).unwrap_err();
    assert_eq!(err.to_string(), "invalid UTF-8 in a string at byte 1");

    // A million nested arrays stop at the depth limit, long before the stack.
    let mut deep = vec![0xa1; 1_000_000];
    deep.push(0xa0);
    let err = surp::from_slice::<surp::Value>(&deep).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nesting deeper than the limit of 128 at byte 128"
    );

    // Type mismatches are serde's messages, placed at a byte offset, and
    // from_slice names where in the value they happened: here the first
    // element of the array the struct was read from.
    let other = surp::to_vec(&("seven", "Ada"))?;
    let err = surp::from_slice::<User>(&other).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: string \"seven\", expected u32 at byte 1, in [0]"
    );
    assert_eq!(err.path(), Some("[0]"));

    // Programs match on the kind and read the offset.
    assert!(matches!(err.kind(), ErrorKind::Message(_)));
    let err = surp::from_slice::<String>(&[0x82, 0xff, 0xfe]).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::InvalidUtf8));
    assert_eq!(err.offset(), Some(1));
    Ok(())
}
