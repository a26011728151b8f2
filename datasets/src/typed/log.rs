//! `log`: web-server access-log records. Short strings (client addresses,
//! paths, user agents drawn from small pools), small integers, a unit enum
//! and an optional field: the per-field overhead of every format.

use serde::{Deserialize, Serialize};

use crate::Scale;
use crate::generate::draw::Draw;
use crate::generate::timestamp::EPOCH_2024_03_01;
use crate::generate::vocabulary::NOUNS;
use crate::typed::TypedData;
#[cfg(feature = "protobuf")]
use crate::typed::protobuf::Invalid;

/// The whole dataset: one access log.
///
/// `S` is the string type: `String` for owned decoding, `&str` for decoding
/// that borrows from the input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AccessLog<S> {
    /// The records, oldest first.
    pub records: Vec<LogRecord<S>>,
}

/// One request as a web server logs it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogRecord<S> {
    /// When the request arrived, in Unix milliseconds.
    pub timestamp_ms: u64,
    /// The client's IPv4 address as text.
    pub client: S,
    /// The HTTP method.
    pub method: Method,
    /// The request path, with its query if any.
    pub path: S,
    /// The HTTP status code of the response.
    pub status: u16,
    /// Response body bytes.
    pub bytes_sent: u32,
    /// Time to the last byte, in microseconds.
    pub latency_us: u32,
    /// The client's user agent.
    pub user_agent: S,
    /// The referring page, when the client sent one.
    pub referrer: Option<S>,
}

/// An HTTP method: a unit-only enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Method {
    /// `GET`.
    Get,
    /// `POST`.
    Post,
    /// `PUT`.
    Put,
    /// `DELETE`.
    Delete,
    /// `HEAD`.
    Head,
}

impl TypedData for AccessLog<String> {
    type Borrowed<'a> = AccessLog<&'a str>;
    const HAS_STRINGS: bool = true;
    fn records(&self) -> usize {
        self.records.len()
    }
    #[cfg(feature = "protobuf")]
    type Proto = proto::AccessLogMsg;
    #[cfg(feature = "protobuf")]
    fn to_proto(&self) -> Self::Proto {
        proto::to_proto(self)
    }
    #[cfg(feature = "protobuf")]
    fn from_proto(msg: Self::Proto) -> Result<Self, Invalid> {
        proto::from_proto(msg)
    }
}

const USER_AGENTS: &[&str] = &[
    "curl/8.5.0",
    "Mozilla/5.0 (X11; Linux x86_64; rv:123.0) Gecko/20100101 Firefox/123.0",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_3) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Safari/605.1.15",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36",
    "python-requests/2.31.0",
    "Go-http-client/2.0",
    "okhttp/4.12.0",
    "Googlebot/2.1 (+http://www.google.com/bot.html)",
    "kube-probe/1.29",
    "Prometheus/2.50.1",
];

const REFERRERS: &[&str] = &[
    "https://www.example.com/",
    "https://www.example.com/pricing",
    "https://search.example.org/?q=surp",
    "https://news.example.net/item?id=39512345",
    "https://docs.example.com/guide/getting-started",
];

pub(crate) fn count(scale: Scale) -> u64 {
    scale.pick(1_000, 20_000)
}

pub(crate) fn generate(seed: u64, scale: Scale) -> AccessLog<String> {
    let mut draw = Draw::new(seed);
    // A few hundred clients make most of the traffic, as on a real site.
    let clients: Vec<String> = (0..300)
        .map(|_| {
            format!(
                "{}.{}.{}.{}",
                draw.between(1, 223),
                draw.between(0, 255),
                draw.between(0, 255),
                draw.between(1, 254)
            )
        })
        .collect();
    let mut now_ms = EPOCH_2024_03_01 * 1000;
    let records = (0..count(scale))
        .map(|_| {
            now_ms += draw.between(0, 1_500);
            record(&mut draw, &clients, now_ms)
        })
        .collect();
    AccessLog { records }
}

fn record(draw: &mut Draw, clients: &[String], timestamp_ms: u64) -> LogRecord<String> {
    let method = [
        Method::Get,
        Method::Post,
        Method::Put,
        Method::Delete,
        Method::Head,
    ][draw.weighted(&[70, 15, 5, 3, 7])];
    let path = match draw.weighted(&[4, 3, 2, 1, 1]) {
        0 => format!("/api/v1/{}s/{}", draw.pick(NOUNS), draw.between(1, 99_999)),
        1 => format!("/static/{}.{}.js", draw.pick(NOUNS), draw.hex(8)),
        2 => format!(
            "/search?q={}&page={}",
            draw.pick(NOUNS),
            draw.between(1, 20)
        ),
        3 => "/".to_owned(),
        _ => "/healthz".to_owned(),
    };
    let status = [200, 201, 204, 301, 304, 400, 401, 403, 404, 500, 503]
        [draw.weighted(&[700, 30, 20, 10, 80, 15, 20, 5, 80, 8, 2])];
    // Sizes and latencies spread over orders of magnitude, so every integer
    // width appears: pick the magnitude first, then the value.
    let bytes_sent = match draw.weighted(&[2, 3, 4, 1]) {
        0 => 0,
        1 => draw.between(1, 999),
        2 => draw.between(1_000, 99_999),
        _ => draw.between(100_000, 4_000_000),
    } as u32;
    let latency_us = match draw.weighted(&[3, 5, 2]) {
        0 => draw.between(40, 999),
        1 => draw.between(1_000, 99_999),
        _ => draw.between(100_000, 3_000_000),
    } as u32;
    LogRecord {
        timestamp_ms,
        client: draw.pick(clients).clone(),
        method,
        path,
        status,
        bytes_sent,
        latency_us,
        user_agent: (*draw.pick(USER_AGENTS)).to_owned(),
        referrer: if draw.chance(0.4) {
            Some((*draw.pick(REFERRERS)).to_owned())
        } else {
            None
        },
    }
}

/// `log`'s Protobuf schema: its messages and the conversions between them
/// and the Rust types.
#[cfg(feature = "protobuf")]
pub mod proto {
    use prost::{Enumeration, Message};

    use super::{AccessLog, LogRecord, Method};
    use crate::typed::protobuf::{Invalid, enumeration, narrow};

    /// `AccessLog`.
    #[derive(Clone, PartialEq, Message)]
    pub struct AccessLogMsg {
        /// The records.
        #[prost(message, repeated, tag = "1")]
        pub records: Vec<LogRecordMsg>,
    }

    /// `LogRecord`.
    #[derive(Clone, PartialEq, Message)]
    pub struct LogRecordMsg {
        /// Unix milliseconds.
        #[prost(uint64, tag = "1")]
        pub timestamp_ms: u64,
        /// IPv4 address text.
        #[prost(string, tag = "2")]
        pub client: String,
        /// The method.
        #[prost(enumeration = "MethodMsg", tag = "3")]
        pub method: i32,
        /// The path.
        #[prost(string, tag = "4")]
        pub path: String,
        /// The status code.
        #[prost(uint32, tag = "5")]
        pub status: u32,
        /// Body bytes.
        #[prost(uint32, tag = "6")]
        pub bytes_sent: u32,
        /// Microseconds.
        #[prost(uint32, tag = "7")]
        pub latency_us: u32,
        /// The user agent.
        #[prost(string, tag = "8")]
        pub user_agent: String,
        /// The referrer, if any.
        #[prost(string, optional, tag = "9")]
        pub referrer: Option<String>,
    }

    /// `Method`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Enumeration)]
    #[repr(i32)]
    pub enum MethodMsg {
        /// GET.
        Get = 0,
        /// POST.
        Post = 1,
        /// PUT.
        Put = 2,
        /// DELETE.
        Delete = 3,
        /// HEAD.
        Head = 4,
    }

    pub(super) fn to_proto(log: &AccessLog<String>) -> AccessLogMsg {
        AccessLogMsg {
            records: log
                .records
                .iter()
                .map(|r| LogRecordMsg {
                    timestamp_ms: r.timestamp_ms,
                    client: r.client.clone(),
                    method: match r.method {
                        Method::Get => MethodMsg::Get,
                        Method::Post => MethodMsg::Post,
                        Method::Put => MethodMsg::Put,
                        Method::Delete => MethodMsg::Delete,
                        Method::Head => MethodMsg::Head,
                    } as i32,
                    path: r.path.clone(),
                    status: r.status.into(),
                    bytes_sent: r.bytes_sent,
                    latency_us: r.latency_us,
                    user_agent: r.user_agent.clone(),
                    referrer: r.referrer.clone(),
                })
                .collect(),
        }
    }

    pub(super) fn from_proto(msg: AccessLogMsg) -> Result<AccessLog<String>, Invalid> {
        let records = msg
            .records
            .into_iter()
            .map(|r| {
                Ok(LogRecord {
                    timestamp_ms: r.timestamp_ms,
                    client: r.client,
                    method: match enumeration(r.method, "method")? {
                        MethodMsg::Get => Method::Get,
                        MethodMsg::Post => Method::Post,
                        MethodMsg::Put => Method::Put,
                        MethodMsg::Delete => Method::Delete,
                        MethodMsg::Head => Method::Head,
                    },
                    path: r.path,
                    status: narrow(r.status, "status")?,
                    bytes_sent: r.bytes_sent,
                    latency_us: r.latency_us,
                    user_agent: r.user_agent,
                    referrer: r.referrer,
                })
            })
            .collect::<Result<_, Invalid>>()?;
        Ok(AccessLog { records })
    }
}
