fn main() -> Result<(), surp::Error> {
    // Integers take as many bytes as their value needs, whatever their type.
    assert_eq!(surp::to_vec(&7u64)?, [0x07]);
    assert_eq!(surp::to_vec(&-3i64)?, [0xfd]);
    assert_eq!(surp::to_vec(&300u64)?, [0xd9, 0x2c, 0x01]);
    assert_eq!(surp::to_vec(&7u128)?, [0x07]);

    // i128 and u128 are native: small values stay small, and the full
    // range takes a width byte plus the bytes needed (at most 18 in all).
    assert_eq!(surp::to_vec(&(1u128 << 64))?.len(), 11);
    assert_eq!(surp::to_vec(&i128::MIN)?.len(), 18);
    let big = u128::MAX - 1;
    assert_eq!(surp::from_slice::<u128>(&surp::to_vec(&big)?)?, big);

    // Decoding checks the range of the target type.
    let err = surp::from_slice::<u8>(&surp::to_vec(&300u32)?).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid value: integer `300`, expected u8 at byte 0"
    );
    Ok(())
}
