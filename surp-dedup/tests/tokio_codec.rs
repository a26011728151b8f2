//! The session codec over real transports: the example's client and server
//! over TCP on loopback, a reader that hands out a few bytes at a time, and
//! a peer that claims a frame longer than the limit or closes mid-frame.
#![cfg(feature = "tokio")]

use std::pin::Pin;
use std::task::{Context, Poll};

use futures_util::{SinkExt, StreamExt};
use surp::{Category, ErrorKind};
use surp_dedup::SessionOptions;
use surp_dedup::codec::{SessionCodec, SessionCodecError};
use tokio::io::{AsyncRead, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::{FramedRead, FramedWrite};

#[path = "../examples/session_tcp.rs"]
#[allow(dead_code)]
mod session_tcp;

use session_tcp::{Ack, Level, LogRecord};

async fn loopback() -> (TcpListener, std::net::SocketAddr) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    (listener, addr)
}

fn surp_error(err: SessionCodecError) -> surp::Error {
    match err {
        SessionCodecError::Surp(e) => e,
        other => panic!("expected a Surp error, got {other}"),
    }
}

#[tokio::test]
async fn the_example_exchange_delivers_every_record_and_acknowledgement() {
    let (listener, addr) = loopback().await;
    let server = tokio::spawn(async move {
        let (stream, _) = listener.accept().await.unwrap();
        session_tcp::serve(stream).await
    });
    let records = session_tcp::log_records(300);
    let acks = session_tcp::send_records(addr, &records).await.unwrap();
    let received = server.await.unwrap().unwrap();

    assert_eq!(received, records);
    let expected: Vec<Ack> = records
        .iter()
        .enumerate()
        .map(|(i, r)| Ack {
            received: i as u64 + 1,
            service: r.service.clone(),
            stored: r.level != Level::Debug,
        })
        .collect();
    assert_eq!(acks, expected);
    // Keys, levels, services and hosts go once per session, not per record.
    let session = session_tcp::session_frames_len(&records).unwrap();
    let plain = session_tcp::plain_frames_len(&records).unwrap();
    assert!(
        session * 2 < plain,
        "session {session} bytes, plain {plain}"
    );
}

#[tokio::test]
async fn both_sides_may_send_first_and_many_frames_at_once() {
    // Each side writes all its messages before reading any: the frames
    // meet in the socket buffers, several to a read.
    let (listener, addr) = loopback().await;
    let records = session_tcp::log_records(50);
    let sent = records.clone();
    let server = tokio::spawn(async move {
        let (stream, _) = listener.accept().await.unwrap();
        let (read, write) = stream.into_split();
        let options = SessionOptions::new();
        let mut writer = FramedWrite::new(write, SessionCodec::<(), String>::new(&options));
        for i in 0..50 {
            writer.feed(format!("ack {i}")).await.unwrap();
        }
        SinkExt::<String>::flush(&mut writer).await.unwrap();
        let reader = FramedRead::new(read, SessionCodec::<LogRecord, ()>::new(&options));
        reader.map(Result::unwrap).collect::<Vec<_>>().await
    });
    let stream = TcpStream::connect(addr).await.unwrap();
    let (read, write) = stream.into_split();
    let options = SessionOptions::new();
    let mut writer = FramedWrite::new(write, SessionCodec::<(), LogRecord>::new(&options));
    for record in &sent {
        writer.feed(record).await.unwrap();
    }
    SinkExt::<&LogRecord>::flush(&mut writer).await.unwrap();
    let mut reader = FramedRead::new(read, SessionCodec::<String, ()>::new(&options));
    for i in 0..50 {
        assert_eq!(reader.next().await.unwrap().unwrap(), format!("ack {i}"));
    }
    drop(writer);
    assert_eq!(server.await.unwrap(), records);
}

/// A reader that hands out at most `step` bytes per read, and says it is
/// not ready every other time.
struct Trickle {
    data: Vec<u8>,
    at: usize,
    step: usize,
    ready: bool,
}

impl AsyncRead for Trickle {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        self.ready = !self.ready;
        if !self.ready {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        let end = (self.at + self.step)
            .min(self.data.len())
            .min(self.at + buf.remaining());
        buf.put_slice(&self.data[self.at..end]);
        self.at = end;
        Poll::Ready(Ok(()))
    }
}

#[tokio::test]
async fn frames_split_across_reads_arrive_whole() {
    let records = session_tcp::log_records(20);
    let mut wire = Vec::new();
    let mut writer = FramedWrite::new(
        &mut wire,
        SessionCodec::<(), LogRecord>::new(&SessionOptions::new()),
    );
    for record in &records {
        writer.send(record).await.unwrap();
    }
    drop(writer);
    for step in [1, 3, 17] {
        let trickle = Trickle {
            data: wire.clone(),
            at: 0,
            step,
            ready: false,
        };
        let reader = FramedRead::new(
            trickle,
            SessionCodec::<LogRecord>::new(&SessionOptions::new()),
        );
        let got: Vec<LogRecord> = reader.map(Result::unwrap).collect().await;
        assert_eq!(got, records, "{step} bytes a read");
    }
}

#[tokio::test]
async fn a_frame_over_the_limit_ends_the_stream_with_an_error() {
    let (listener, addr) = loopback().await;
    let server = tokio::spawn(async move {
        let (stream, _) = listener.accept().await.unwrap();
        let codec = SessionCodec::<LogRecord>::new(&SessionOptions::new()).max_frame_len(1024);
        let mut reader = FramedRead::new(stream, codec);
        let first = reader.next().await.unwrap().unwrap();
        let err = reader.next().await.unwrap().unwrap_err();
        // The stream ends after the error.
        assert!(reader.next().await.is_none());
        (first, surp_error(err))
    });
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let record = session_tcp::log_records(1).remove(0);
    let mut wire = Vec::new();
    let mut writer = FramedWrite::new(
        &mut wire,
        SessionCodec::<(), LogRecord>::new(&SessionOptions::new()),
    );
    writer.send(&record).await.unwrap();
    drop(writer);
    stream.write_all(&wire).await.unwrap();
    // A prefix claiming 1 GiB, and nothing after it: the server refuses it
    // without waiting for the rest.
    stream.write_all(&(1u32 << 30).to_le_bytes()).await.unwrap();
    let (first, err) = server.await.unwrap();
    assert_eq!(first, record);
    assert_eq!(
        *err.kind(),
        ErrorKind::FrameTooLong {
            len: 1 << 30,
            limit: 1024
        }
    );
}

#[tokio::test]
async fn a_peer_that_closes_mid_frame_is_an_eof_error() {
    let records = session_tcp::log_records(2);
    let mut wire = Vec::new();
    let mut writer = FramedWrite::new(
        &mut wire,
        SessionCodec::<(), LogRecord>::new(&SessionOptions::new()),
    );
    for record in &records {
        writer.send(record).await.unwrap();
    }
    drop(writer);
    wire.truncate(wire.len() - 1);
    let mut reader = FramedRead::new(
        &wire[..],
        SessionCodec::<LogRecord>::new(&SessionOptions::new()),
    );
    assert_eq!(reader.next().await.unwrap().unwrap(), records[0]);
    let err = surp_error(reader.next().await.unwrap().unwrap_err());
    assert_eq!(err.classify(), Category::Eof, "{err}");
    assert!(reader.next().await.is_none());
}
