use std::io::{BufReader, Cursor};

use serde::{Deserialize, Serialize};
use surp::{Category, ErrorKind, frame};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Message {
    seq: u32,
    body: String,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The sender writes each document after its length.
    let mut wire = Vec::new();
    for seq in 0..3 {
        let body = "ok".repeat(seq as usize);
        frame::write_frame(&mut wire, &Message { seq, body })?;
    }
    assert_eq!(&wire[..4], &[12, 0, 0, 0]); // the first document's length

    // The receiver reuses one buffer for every frame; a socket would be
    // read through a BufReader in the same way.
    let mut reader = BufReader::new(Cursor::new(&wire));
    let mut buf = Vec::new();
    let mut received = Vec::new();
    while frame::read_frame(&mut reader, 1024, &mut buf)? {
        let message: Message = surp::from_slice(&buf)?;
        received.push(message.seq);
    }
    assert_eq!(received, [0, 1, 2]);

    // A frame longer than the limit is refused before its body is read.
    let mut long = Vec::new();
    frame::write_frame(&mut long, &"x".repeat(100))?;
    let err = frame::read_frame(&long[..], 64, &mut buf).unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::FrameTooLong {
            len: 102,
            limit: 64
        }
    ));
    assert_eq!(err.offset(), Some(0));

    // A stream that ends inside a frame is an error of the Eof category;
    // one that ends between frames is `Ok(false)`.
    let err = frame::read_frame(&wire[..6], 1024, &mut buf).unwrap_err();
    assert_eq!(err.classify(), Category::Eof);
    assert!(!frame::read_frame(&wire[..0], 1024, &mut buf)?);
    Ok(())
}
