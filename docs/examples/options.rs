fn main() -> Result<(), surp::Error> {
    // `Some(x)` costs nothing: it is written as `x` itself...
    assert_eq!(surp::to_vec(&None::<u32>)?, [0xe8]); // null
    assert_eq!(surp::to_vec(&Some(5u32))?, [0x05]); // just 5

    // ...unless `x` would itself be written as null. Then each `Some` is a
    // one-byte marker (0xeb), so nested options still round-trip exactly.
    assert_eq!(surp::to_vec(&Some(None::<u32>))?, [0xeb, 0xe8]);
    assert_eq!(surp::to_vec(&Some(Some(None::<u32>)))?, [0xeb, 0xeb, 0xe8]);
    assert_eq!(surp::to_vec(&Some(Some(5u32)))?, [0x05]);

    let nested: Option<Option<u32>> = Some(None);
    let back: Option<Option<u32>> = surp::from_slice(&surp::to_vec(&nested)?)?;
    assert_eq!(back, nested);

    // A dynamic reader has no Option: it reads through the marker.
    let value: surp::Value = surp::from_slice(&[0xeb, 0xe8])?;
    assert!(value.is_null());
    Ok(())
}
