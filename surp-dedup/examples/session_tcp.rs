//! A client and a server on loopback exchanging typed messages over TCP,
//! each direction a session (`docs/spec.md` section 9.1) framed by
//! `surp_dedup::codec::SessionCodec`: the client sends log records, the
//! server acknowledges each one.
//!
//! ```text
//! cargo run -p surp-dedup --example session_tcp
//! ```
//!
//! `tests/tokio_codec.rs` runs the same exchange and checks what arrives.

use bytes::BytesMut;
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use surp_dedup::SessionOptions;
use surp_dedup::codec::{SessionCodec, SessionCodecError};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::{Encoder, Framed};

/// What the client sends.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct LogRecord {
    pub timestamp_ms: u64,
    pub level: Level,
    pub service: String,
    pub host: String,
    pub message: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub enum Level {
    Debug,
    Info,
    Warn,
    Error,
}

/// What the server answers to each record.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Ack {
    /// How many records the server has received, this one included.
    pub received: u64,
    pub service: String,
    pub stored: bool,
}

/// Both directions' options: the default budget, no dictionary. Both ends
/// must accept the budget the other's header asks for.
pub fn options() -> SessionOptions {
    SessionOptions::new()
}

/// `count` records from a few services and hosts, as a log shipper sends
/// them: the keys, levels, services and hosts repeat, the messages do not.
pub fn log_records(count: u64) -> Vec<LogRecord> {
    const SERVICES: [&str; 3] = ["checkout", "search", "accounts"];
    const LEVELS: [Level; 4] = [Level::Info, Level::Info, Level::Warn, Level::Debug];
    (0..count)
        .map(|i| LogRecord {
            timestamp_ms: 1_767_225_600_000 + i * 37,
            level: if i % 50 == 49 {
                Level::Error
            } else {
                LEVELS[i as usize % LEVELS.len()]
            },
            service: SERVICES[i as usize % SERVICES.len()].to_owned(),
            host: format!("web-{:02}.eu-west-1.internal", i % 4),
            message: format!("request {i} handled in {} ms", 3 + i * 7 % 120),
        })
        .collect()
}

/// The server's side of one connection: reads records until the client
/// closes its session and acknowledges each; gives back what it received.
pub async fn serve(stream: TcpStream) -> Result<Vec<LogRecord>, SessionCodecError> {
    let mut framed = Framed::new(stream, SessionCodec::<LogRecord, Ack>::new(&options()));
    let mut received = Vec::new();
    while let Some(record) = framed.next().await {
        let record = record?;
        let ack = Ack {
            received: received.len() as u64 + 1,
            service: record.service.clone(),
            stored: record.level != Level::Debug,
        };
        framed.send(ack).await?;
        received.push(record);
    }
    Ok(received)
}

/// The client: connects to `addr`, sends each record and waits for its
/// acknowledgement; gives back the acknowledgements.
pub async fn send_records(
    addr: std::net::SocketAddr,
    records: &[LogRecord],
) -> Result<Vec<Ack>, SessionCodecError> {
    let stream = TcpStream::connect(addr).await?;
    let mut framed = Framed::new(stream, SessionCodec::<Ack, LogRecord>::new(&options()));
    let mut acks = Vec::with_capacity(records.len());
    for record in records {
        framed.send(record).await?;
        match framed.next().await {
            Some(ack) => acks.push(ack?),
            None => {
                let closed = std::io::ErrorKind::UnexpectedEof;
                return Err(std::io::Error::new(closed, "the server closed the connection").into());
            }
        }
    }
    // `send` flushed every frame; dropping the connection closes it, which
    // ends the server's stream between two frames.
    drop(framed);
    Ok(acks)
}

/// The bytes the client writes for `records`: the session's header and
/// messages, each in a frame.
pub fn session_frames_len(records: &[LogRecord]) -> Result<usize, SessionCodecError> {
    let mut codec = SessionCodec::<Ack, LogRecord>::new(&options());
    let mut wire = BytesMut::new();
    for record in records {
        codec.encode(record, &mut wire)?;
    }
    Ok(wire.len())
}

/// The bytes of the same records as plain Surp documents, each in a frame:
/// what the session saves against.
pub fn plain_frames_len(records: &[LogRecord]) -> surp::Result<usize> {
    records
        .iter()
        .map(|r| Ok(surp::frame::PREFIX_LEN + surp::to_vec(r)?.len()))
        .sum()
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let server = tokio::spawn(async move {
        let (stream, _) = listener.accept().await?;
        serve(stream).await
    });

    let records = log_records(200);
    let acks = send_records(addr, &records).await?;
    let received = server.await??;

    assert_eq!(received, records);
    let stored = acks.iter().filter(|a| a.stored).count();
    println!(
        "server received {} records, client received {} acknowledgements ({stored} stored)",
        received.len(),
        acks.len()
    );
    println!(
        "the client wrote {} bytes; the same records as plain Surp frames take {}",
        session_frames_len(&records)?,
        plain_frames_len(&records)?
    );
    Ok(())
}
