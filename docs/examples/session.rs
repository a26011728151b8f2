use serde::{Deserialize, Serialize};
use surp::ErrorKind;
use surp::error::SessionError;
use surp_dedup::SessionOptions;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Order {
    customer: String,
    region: String,
    status: String,
    cents: u32,
}

fn main() -> Result<(), surp::Error> {
    let order = |i: u32| Order {
        customer: format!("customer-{}", i % 7),
        region: "eu-west-1".into(),
        status: ["paid", "shipped"][i as usize % 2].into(),
        cents: 1_000 + i,
    };

    // Both ends agree on the options; the decoder refuses a header that
    // asks for a larger budget than its own.
    let options = SessionOptions::new();
    let mut sender = options.encoder();
    let mut receiver = options.decoder();
    receiver.read_header(&sender.header())?;

    let mut sizes = Vec::new();
    for i in 0..20 {
        let message = sender.encode(&order(i))?;
        sizes.push(message.len());
        assert_eq!(receiver.decode::<Order>(&message)?, order(i));
    }
    // The first message is the plain document behind a 3-byte prefix (the
    // session tag, the kind, the message's number). Later ones refer to its
    // keys and strings: once every customer has been sent, an order takes
    // 13 bytes instead of 59.
    assert_eq!(surp::to_vec(&order(0))?.len(), 59);
    assert_eq!(sizes[0], 62);
    assert!(sizes[7..].iter().all(|&n| n == 13), "{sizes:?}");

    // A message lost on the way: the next one is refused, never decoded
    // against tables that miss what the lost one added.
    let _lost = sender.encode(&order(20))?;
    let next = sender.encode(&order(21))?;
    let err = receiver.decode::<Order>(&next).unwrap_err();
    assert_eq!(
        *err.kind(),
        ErrorKind::Session(SessionError::Sequence {
            expected: 20,
            found: 21
        })
    );

    // The sender starts again from empty tables, and the receiver follows.
    sender.reset();
    let again = sender.encode(&order(22))?;
    assert_eq!(receiver.decode::<Order>(&again)?, order(22));
    Ok(())
}
