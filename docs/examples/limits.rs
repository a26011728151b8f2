fn main() -> Result<(), surp::Error> {
    // The defaults, as the crate defines them.
    assert_eq!(surp::DEFAULT_MAX_DEPTH, 128);
    assert_eq!(surp::DEFAULT_MAX_ALLOC, 1 << 30); // 1 GiB
    assert_eq!(surp::DEFAULT_MAX_DEDUP_STRINGS, 1 << 20);
    assert_eq!(surp::DEFAULT_MAX_DEDUP_SHAPES, 1 << 16);

    // Tighter limits for input from the network: build the Options once and
    // decode with them.
    let limits = surp::Options::new()
        .max_depth(16)
        .max_len(10_000)
        .max_alloc(1 << 20);

    let request = surp::to_vec(&vec!["GET", "/index.html"])?;
    let fields: Vec<&str> = limits.from_slice(&request)?;
    assert_eq!(fields, ["GET", "/index.html"]);

    // Each limit is checked before the decoder acts on the input.
    let deep = surp::to_vec(&vec![vec![vec![vec![0u8]]]])?;
    let err = surp::Options::new()
        .max_depth(2)
        .from_slice::<surp::Value>(&deep)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "nesting deeper than the limit of 2 at byte 2, in [0][0]"
    );

    let long = surp::to_vec(&vec![0u32; 20])?;
    let err = surp::Options::new()
        .max_len(16)
        .from_slice::<Vec<u32>>(&long)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "array of length 20 exceeds the configured limit of 16 at byte 0"
    );

    let text = surp::to_vec("a string of thirty-two bytes....")?;
    let err = surp::Options::new()
        .max_alloc(16)
        .from_slice::<String>(&text)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "document expands beyond the allocation limit of 16 bytes at byte 0"
    );
    Ok(())
}
