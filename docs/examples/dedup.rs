use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Reading<'a> {
    sensor: &'a str,
    status: &'a str,
    celsius: f32,
}

fn main() -> Result<(), surp::Error> {
    // Repeated strings: the second and later copies become 2-byte references.
    let regions = vec!["north-east"; 4];
    let plain = surp::to_vec(&regions)?;
    let dedup = surp_dedup::to_vec(&regions)?;
    assert_eq!(plain.len(), 45);
    // The marker, an array of 4, the literal, then 3 references to slot 0.
    assert_eq!(dedup, b"\xf2\xa4\x8anorth-east\xf3\x00\xf3\x00\xf3\x00");

    // Records of one shape: after the first, the keys cost a 1-byte shape
    // reference (2 bytes from the ninth shape on), and repeated values a
    // 2-byte string reference.
    let readings: Vec<Reading> = (0..100)
        .map(|i| Reading {
            sensor: ["greenhouse-1", "greenhouse-2"][i % 2],
            status: "ok",
            celsius: 20.0 + (i % 8) as f32 * 0.25,
        })
        .collect();
    let plain = surp::to_vec(&readings)?;
    let dedup = surp_dedup::to_vec(&readings)?;
    assert_eq!((plain.len(), dedup.len()), (4202, 848));

    // Any Surp decoder reads it, and strings still borrow from the input.
    let back: Vec<Reading> = surp::from_slice(&dedup)?;
    assert_eq!(back, readings);

    // When nothing repeats, the output is plain Surp, byte for byte.
    let unique = vec!["alpha", "beta", "gamma"];
    assert_eq!(surp_dedup::to_vec(&unique)?, surp::to_vec(&unique)?);

    // Table sizes are options. A reader whose tables are smaller than the
    // writer's refuses the document instead of growing them.
    let small = surp_dedup::Options::new().max_dedup_strings(256).max_dedup_shapes(16);
    let bytes = small.to_vec(&readings)?;
    assert_eq!(small.from_slice::<Vec<Reading>>(&bytes)?, readings);
    let tiny = surp_dedup::Options::new().max_dedup_strings(1);
    let err = tiny.from_slice::<Vec<Reading>>(&bytes).unwrap_err();
    assert_eq!(
        err.to_string(),
        "reference to string slot 3, beyond this decoder's limit of 1 slot (Options::max_dedup_strings) at byte 59, in [1].status"
    );
    Ok(())
}
