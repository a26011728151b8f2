use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Order<'a> {
    id: u64,
    customer: &'a str,
    items: Vec<String>,
    total: f64,
    note: Option<String>,
}

fn main() -> Result<(), surp::Error> {
    let order = Order {
        id: 1042,
        customer: "Ada Lovelace",
        items: vec!["notebook".into(), "pencil".into()],
        total: 12.5,
        note: None,
    };

    // Encode: one call, into a new Vec<u8>.
    let bytes = surp::to_vec(&order)?;
    assert_eq!(bytes.len(), 67);

    // Decode: `customer` is a &str that points into `bytes`, no copy made.
    let back: Order = surp::from_slice(&bytes)?;
    assert_eq!(back, order);
    Ok(())
}
