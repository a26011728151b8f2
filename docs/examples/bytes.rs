use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Blob<'a> {
    // Without an attribute, serde treats Vec<u8> as a sequence of integers.
    as_sequence: Vec<u8>,
    // serde_bytes tells serde these are bytes: Surp writes a byte string.
    #[serde(with = "serde_bytes")]
    as_bytes: Vec<u8>,
    // Borrowed bytes point into the input, like borrowed strings.
    #[serde(borrow, with = "serde_bytes")]
    borrowed: &'a [u8],
}

fn main() -> Result<(), surp::Error> {
    let data: Vec<u8> = (0..=255).collect();

    // A sequence spends a tag on every byte of 128 or more; a byte string
    // is a short header and the bytes as they are.
    assert_eq!(surp::to_vec(&data)?.len(), 387);
    assert_eq!(surp::to_vec(serde_bytes::Bytes::new(&data))?.len(), 259);

    // A plain Vec<u8> also accepts a byte string, and serde_bytes accepts a
    // sequence, so adding the attribute to a field later reads old and new
    // documents alike.
    let as_bytes = surp::to_vec(serde_bytes::Bytes::new(&data))?;
    let as_sequence = surp::to_vec(&data)?;
    assert_eq!(surp::from_slice::<Vec<u8>>(&as_bytes)?, data);
    assert_eq!(
        surp::from_slice::<serde_bytes::ByteBuf>(&as_sequence)?.into_vec(),
        data
    );

    let blob = Blob {
        as_sequence: data.clone(),
        as_bytes: data.clone(),
        borrowed: &data,
    };
    let bytes = surp::to_vec(&blob)?;
    let back: Blob = surp::from_slice(&bytes)?;
    assert_eq!(back, blob);
    Ok(())
}
