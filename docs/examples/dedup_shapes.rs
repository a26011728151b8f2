use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Visit<'a> {
    user: String,
    page: &'a str,
    ms: u32,
}

fn main() -> Result<(), surp::Error> {
    // Every user id is new; only the field names and the two pages repeat.
    let visits: Vec<Visit> = (0..100)
        .map(|i| Visit {
            user: format!("user-{i:04}"),
            page: ["/home", "/cart"][i % 2],
            ms: 10 + i as u32 % 7,
        })
        .collect();
    let plain = surp::to_vec(&visits)?;
    let both = surp_dedup::to_vec(&visits)?;
    let opts = surp_dedup::Options::new().dedup_strings(false);
    let shapes = opts.to_vec(&visits)?;
    // Shapes only: after the first record, the three keys cost a 1-byte
    // shape reference, and every string is written out. The default also
    // turns the repeated pages into 2-byte references.
    assert_eq!((plain.len(), shapes.len(), both.len()), (3102, 1816, 1424));

    // Any Surp decoder reads it.
    let back: Vec<Visit> = surp::from_slice(&shapes)?;
    assert_eq!(back, visits);
    Ok(())
}
