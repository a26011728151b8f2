//! `request_log`: the requests an HTTP front end logs. Many short strings
//! (addresses, countries, browser names and versions, methods, hosts,
//! paths, content types, cache results, tags) in small nested structs,
//! with optional strings and short lists of them: the per-string cost of a
//! format, and what decoding by borrowing saves.

use serde::{Deserialize, Serialize};

use crate::Scale;
use crate::generate::draw::Draw;
use crate::generate::timestamp::EPOCH_2024_03_01;
use crate::generate::vocabulary::{ADJECTIVES, NOUNS};
use crate::typed::TypedData;
#[cfg(feature = "protobuf")]
use crate::typed::protobuf::Invalid;

/// The whole dataset: one front end's request log.
///
/// `S` is the string type: `String` for owned decoding, `&str` for decoding
/// that borrows from the input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RequestLog<S> {
    /// The requests, oldest first.
    pub requests: Vec<Request<S>>,
}

/// One request and its response.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Request<S> {
    /// When it arrived, in Unix milliseconds.
    pub time_ms: u64,
    /// Who sent it.
    pub client: Client<S>,
    /// The request line.
    pub line: Line<S>,
    /// What the front end answered.
    pub response: Response<S>,
    /// The `Referer` header, when the client sent one.
    pub referer: Option<S>,
    /// Labels the front end attached: bot, mobile, http3 and the like.
    pub tags: Vec<S>,
}

/// The client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Client<S> {
    /// Its IPv4 address as text.
    pub ip: S,
    /// Its country, as two letters.
    pub country: S,
    /// What its user agent says it is.
    pub agent: Agent<S>,
}

/// A user agent, parsed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Agent<S> {
    /// The browser or client library.
    pub browser: S,
    /// Its version, such as `126.0`.
    pub version: S,
    /// The operating system.
    pub os: S,
}

/// The request line and host.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Line<S> {
    /// The HTTP method.
    pub method: S,
    /// The `Host` header.
    pub host: S,
    /// The path, without the query.
    pub path: S,
    /// The query, without its `?`, when there is one.
    pub query: Option<S>,
}

/// The response.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Response<S> {
    /// The HTTP status code.
    pub status: u16,
    /// Body bytes sent.
    pub bytes: u32,
    /// The `Content-Type`, without parameters.
    pub content_type: S,
    /// What the cache did: `HIT`, `MISS` or `BYPASS`.
    pub cache: S,
}

impl TypedData for RequestLog<String> {
    type Borrowed<'a> = RequestLog<&'a str>;
    const HAS_STRINGS: bool = true;
    fn records(&self) -> usize {
        self.requests.len()
    }
    #[cfg(feature = "protobuf")]
    type Proto = proto::RequestLogMsg;
    #[cfg(feature = "protobuf")]
    fn to_proto(&self) -> Self::Proto {
        proto::to_proto(self)
    }
    #[cfg(feature = "protobuf")]
    fn from_proto(msg: Self::Proto) -> Result<Self, Invalid> {
        proto::from_proto(msg)
    }
}

pub(crate) fn count(scale: Scale) -> u64 {
    scale.pick(2_000, 40_000)
}

/// A browser or client library as user agents name it.
struct Browser {
    name: &'static str,
    /// The major versions seen, inclusive.
    majors: (u64, u64),
    /// The highest minor version seen (0: always `.0`).
    minors: u64,
    /// How common it is.
    weight: u64,
    /// The systems it runs on.
    systems: &'static [&'static str],
}

const BROWSERS: &[Browser] = &[
    Browser {
        name: "Chrome",
        majors: (118, 127),
        minors: 0,
        weight: 40,
        systems: &["Windows", "macOS", "Linux", "Android", "ChromeOS"],
    },
    Browser {
        name: "Safari",
        majors: (15, 17),
        minors: 6,
        weight: 18,
        systems: &["macOS", "iOS"],
    },
    Browser {
        name: "Firefox",
        majors: (115, 128),
        minors: 0,
        weight: 10,
        systems: &["Windows", "macOS", "Linux", "Android"],
    },
    Browser {
        name: "Edge",
        majors: (118, 126),
        minors: 0,
        weight: 10,
        systems: &["Windows", "macOS"],
    },
    Browser {
        name: "SamsungInternet",
        majors: (22, 25),
        minors: 0,
        weight: 4,
        systems: &["Android"],
    },
    Browser {
        name: "Opera",
        majors: (105, 111),
        minors: 0,
        weight: 3,
        systems: &["Windows", "Android"],
    },
    Browser {
        name: "okhttp",
        majors: (3, 4),
        minors: 12,
        weight: 5,
        systems: &["Android"],
    },
    Browser {
        name: "curl",
        majors: (7, 8),
        minors: 9,
        weight: 3,
        systems: &["Linux", "macOS"],
    },
    Browser {
        name: "Googlebot",
        majors: (2, 2),
        minors: 1,
        weight: 4,
        systems: &["Linux"],
    },
    Browser {
        name: "python-requests",
        majors: (2, 2),
        minors: 32,
        weight: 3,
        systems: &["Linux"],
    },
];

/// Client countries, most traffic from a few.
const COUNTRIES: &[(&str, u64)] = &[
    ("US", 30),
    ("DE", 8),
    ("GB", 7),
    ("FR", 6),
    ("JP", 6),
    ("IN", 6),
    ("BR", 5),
    ("CA", 4),
    ("NL", 3),
    ("PL", 3),
    ("ES", 3),
    ("IT", 3),
    ("SE", 2),
    ("KR", 2),
    ("AU", 2),
    ("MX", 2),
    ("CN", 2),
    ("SG", 1),
    ("CH", 1),
    ("IE", 1),
    ("FI", 1),
    ("UA", 1),
    ("TR", 1),
    ("ZA", 1),
    ("AR", 1),
];

const TAGS: &[&str] = &[
    "bot", "mobile", "api", "slow", "retry", "h2", "h3", "gzip", "br", "auth", "guest", "beta",
    "eu", "us", "ipv6", "tls13", "waf", "ab-test",
];

const REFERERS: &[&str] = &[
    "https://www.example.com/",
    "https://example.com/",
    "https://www.google.com/",
    "https://duckduckgo.com/",
    "https://www.bing.com/",
    "https://news.ycombinator.com/",
];

/// The pool of clients requests come from: an address, a country and a
/// user agent each.
fn clients(draw: &mut Draw) -> Vec<Client<String>> {
    let countries: Vec<u64> = COUNTRIES.iter().map(|c| c.1).collect();
    let browsers: Vec<u64> = BROWSERS.iter().map(|b| b.weight).collect();
    (0..400)
        .map(|_| {
            let ip = format!(
                "{}.{}.{}.{}",
                draw.between(1, 223),
                draw.between(0, 255),
                draw.between(0, 255),
                draw.between(1, 254)
            );
            let country = COUNTRIES[draw.weighted(&countries)].0.to_owned();
            let browser = &BROWSERS[draw.weighted(&browsers)];
            let agent = Agent {
                browser: browser.name.to_owned(),
                version: format!(
                    "{}.{}",
                    draw.between(browser.majors.0, browser.majors.1),
                    draw.between(0, browser.minors)
                ),
                os: (*draw.pick(browser.systems)).to_owned(),
            };
            Client { ip, country, agent }
        })
        .collect()
}

pub(crate) fn generate(seed: u64, scale: Scale) -> RequestLog<String> {
    let mut draw = Draw::new(seed);
    let clients = clients(&mut draw);
    let mut now_ms = EPOCH_2024_03_01 * 1000;
    let requests = (0..count(scale))
        .map(|_| {
            now_ms += draw.between(0, 250);
            // A few dozen clients (crawlers, busy apps) send half the traffic.
            let client = if draw.chance(0.5) {
                &clients[draw.index(40)]
            } else {
                draw.pick(&clients)
            };
            request(&mut draw, client.clone(), now_ms)
        })
        .collect();
    RequestLog { requests }
}

/// One of `values` by weight, as an owned string.
fn weighted(draw: &mut Draw, values: &[(&str, u64)]) -> String {
    let weights: Vec<u64> = values.iter().map(|v| v.1).collect();
    values[draw.weighted(&weights)].0.to_owned()
}

fn request(draw: &mut Draw, client: Client<String>, time_ms: u64) -> Request<String> {
    let noun = *draw.pick(NOUNS);
    // What is asked for decides the host, path, type, caching and size.
    let (line, content_type, cache, bytes, referer) = match draw.weighted(&[45, 15, 12, 15, 6, 7]) {
        // The JSON API.
        0 => {
            let method = weighted(
                draw,
                &[
                    ("GET", 70),
                    ("POST", 18),
                    ("PUT", 4),
                    ("PATCH", 2),
                    ("DELETE", 3),
                    ("OPTIONS", 3),
                ],
            );
            let (path, query) = if draw.chance(0.7) {
                (format!("/api/v2/{noun}s/{}", draw.between(1, 99_999)), None)
            } else {
                let query = match draw.weighted(&[5, 3, 2]) {
                    0 => format!("page={}", draw.between(1, 40)),
                    1 => format!("limit=50&page={}", draw.between(1, 40)),
                    _ => "sort=-created".to_owned(),
                };
                (format!("/api/v2/{noun}s"), Some(query))
            };
            let line = Line {
                method,
                host: "api.example.com".to_owned(),
                path,
                query,
            };
            let cache = weighted(draw, &[("BYPASS", 85), ("MISS", 10), ("HIT", 5)]);
            let referer = draw
                .chance(0.2)
                .then(|| "https://www.example.com/".to_owned());
            (
                line,
                "application/json",
                cache,
                draw.between(80, 40_000),
                referer,
            )
        }
        // Scripts and style sheets.
        1 => {
            let (path, content_type) = if draw.chance(0.6) {
                (format!("/js/{noun}.{}.js", draw.hex(8)), "text/javascript")
            } else {
                (format!("/css/{noun}.{}.css", draw.hex(6)), "text/css")
            };
            let line = Line {
                method: "GET".to_owned(),
                host: weighted(draw, &[("cdn.example.net", 3), ("static.example.com", 1)]),
                path,
                query: draw.chance(0.1).then(|| format!("v={}", draw.hex(6))),
            };
            let cache = weighted(draw, &[("HIT", 85), ("MISS", 13), ("BYPASS", 2)]);
            let referer = draw.chance(0.6).then(|| (*draw.pick(REFERERS)).to_owned());
            (
                line,
                content_type,
                cache,
                draw.between(2_000, 900_000),
                referer,
            )
        }
        // Images.
        2 => {
            let (extension, content_type) =
                [("webp", "image/webp"), ("jpg", "image/jpeg")][draw.weighted(&[3, 1])];
            let line = Line {
                method: "GET".to_owned(),
                host: "img.example.net".to_owned(),
                path: format!("/i/{}.{extension}", draw.hex(10)),
                query: draw
                    .chance(0.3)
                    .then(|| format!("w={}", [160, 320, 640, 1280][draw.index(4)])),
            };
            let cache = weighted(draw, &[("HIT", 80), ("MISS", 18), ("BYPASS", 2)]);
            let referer = draw.chance(0.5).then(|| (*draw.pick(REFERERS)).to_owned());
            (
                line,
                content_type,
                cache,
                draw.between(5_000, 2_000_000),
                referer,
            )
        }
        // Pages.
        3 => {
            let path = match draw.weighted(&[4, 2, 2, 1, 1, 3]) {
                0 => "/".to_owned(),
                1 => "/login".to_owned(),
                2 => "/cart".to_owned(),
                3 => "/pricing".to_owned(),
                4 => "/about".to_owned(),
                _ => format!("/blog/{}-{noun}", draw.pick(ADJECTIVES)),
            };
            let method = if path == "/login" && draw.chance(0.5) {
                "POST"
            } else {
                "GET"
            };
            let line = Line {
                method: method.to_owned(),
                host: weighted(
                    draw,
                    &[
                        ("www.example.com", 6),
                        ("example.com", 2),
                        ("m.example.com", 2),
                    ],
                ),
                path,
                query: draw
                    .chance(0.15)
                    .then(|| format!("ref={}", draw.pick(&["mail", "ad", "feed", "app"]))),
            };
            let cache = weighted(draw, &[("MISS", 50), ("HIT", 30), ("BYPASS", 20)]);
            let referer = if draw.chance(0.4) {
                Some(if draw.chance(0.3) {
                    format!("https://t.co/{}", draw.hex(10))
                } else {
                    (*draw.pick(REFERERS)).to_owned()
                })
            } else {
                None
            };
            (
                line,
                "text/html",
                cache,
                draw.between(3_000, 120_000),
                referer,
            )
        }
        // Search.
        4 => {
            let query = if draw.chance(0.6) {
                format!("q={noun}")
            } else {
                format!(
                    "q={}+{noun}&page={}",
                    draw.pick(ADJECTIVES),
                    draw.between(2, 9)
                )
            };
            let line = Line {
                method: "GET".to_owned(),
                host: "www.example.com".to_owned(),
                path: "/search".to_owned(),
                query: Some(query),
            };
            let referer = draw
                .chance(0.7)
                .then(|| "https://www.example.com/".to_owned());
            (
                line,
                "text/html",
                "BYPASS".to_owned(),
                draw.between(8_000, 60_000),
                referer,
            )
        }
        // Probes: monitors and crawlers.
        _ => {
            let (path, content_type) = [
                ("/healthz", "text/plain"),
                ("/robots.txt", "text/plain"),
                ("/favicon.ico", "image/x-icon"),
                ("/sitemap.xml", "application/xml"),
            ][draw.weighted(&[5, 2, 2, 1])];
            let line = Line {
                method: weighted(draw, &[("GET", 4), ("HEAD", 1)]),
                host: weighted(draw, &[("www.example.com", 2), ("api.example.com", 1)]),
                path: path.to_owned(),
                query: None,
            };
            let cache = weighted(draw, &[("HIT", 1), ("BYPASS", 2)]);
            (line, content_type, cache, draw.between(2, 4_000), None)
        }
    };
    let status = if line.method == "POST" && draw.chance(0.6) {
        201
    } else {
        [200, 204, 301, 304, 400, 401, 403, 404, 429, 500, 503]
            [draw.weighted(&[800, 10, 10, 60, 15, 20, 5, 50, 10, 8, 2])]
    };
    let bytes = match status {
        204 | 304 => 0,
        _ if line.method == "HEAD" || line.method == "OPTIONS" => 0,
        200 | 201 => bytes,
        _ => draw.between(0, 400),
    } as u32;
    let tags = {
        let mut tags: Vec<String> = Vec::new();
        let n = draw.weighted(&[55, 30, 12, 3]);
        while tags.len() < n {
            let tag = *draw.pick(TAGS);
            if !tags.iter().any(|t| t == tag) {
                tags.push(tag.to_owned());
            }
        }
        tags
    };
    Request {
        time_ms,
        client,
        line,
        response: Response {
            status,
            bytes,
            content_type: content_type.to_owned(),
            cache,
        },
        referer,
        tags,
    }
}

/// `request_log`'s Protobuf schema: its messages and the conversions
/// between them and the Rust types.
#[cfg(feature = "protobuf")]
pub mod proto {
    use prost::Message;

    use super::{Agent, Client, Line, Request, RequestLog, Response};
    use crate::typed::protobuf::{Invalid, narrow, present};

    /// `RequestLog`.
    #[derive(Clone, PartialEq, Message)]
    pub struct RequestLogMsg {
        /// The requests.
        #[prost(message, repeated, tag = "1")]
        pub requests: Vec<RequestMsg>,
    }

    /// `Request`.
    #[derive(Clone, PartialEq, Message)]
    pub struct RequestMsg {
        /// Unix milliseconds.
        #[prost(uint64, tag = "1")]
        pub time_ms: u64,
        /// The client.
        #[prost(message, optional, tag = "2")]
        pub client: Option<ClientMsg>,
        /// The request line.
        #[prost(message, optional, tag = "3")]
        pub line: Option<LineMsg>,
        /// The response.
        #[prost(message, optional, tag = "4")]
        pub response: Option<ResponseMsg>,
        /// The referer, if any.
        #[prost(string, optional, tag = "5")]
        pub referer: Option<String>,
        /// Tags.
        #[prost(string, repeated, tag = "6")]
        pub tags: Vec<String>,
    }

    /// `Client`.
    #[derive(Clone, PartialEq, Message)]
    pub struct ClientMsg {
        /// IPv4 address text.
        #[prost(string, tag = "1")]
        pub ip: String,
        /// Two letters.
        #[prost(string, tag = "2")]
        pub country: String,
        /// The user agent.
        #[prost(message, optional, tag = "3")]
        pub agent: Option<AgentMsg>,
    }

    /// `Agent`.
    #[derive(Clone, PartialEq, Message)]
    pub struct AgentMsg {
        /// Browser.
        #[prost(string, tag = "1")]
        pub browser: String,
        /// Version.
        #[prost(string, tag = "2")]
        pub version: String,
        /// Operating system.
        #[prost(string, tag = "3")]
        pub os: String,
    }

    /// `Line`.
    #[derive(Clone, PartialEq, Message)]
    pub struct LineMsg {
        /// Method.
        #[prost(string, tag = "1")]
        pub method: String,
        /// Host.
        #[prost(string, tag = "2")]
        pub host: String,
        /// Path.
        #[prost(string, tag = "3")]
        pub path: String,
        /// Query, if any.
        #[prost(string, optional, tag = "4")]
        pub query: Option<String>,
    }

    /// `Response`.
    #[derive(Clone, PartialEq, Message)]
    pub struct ResponseMsg {
        /// Status code.
        #[prost(uint32, tag = "1")]
        pub status: u32,
        /// Body bytes.
        #[prost(uint32, tag = "2")]
        pub bytes: u32,
        /// Content type.
        #[prost(string, tag = "3")]
        pub content_type: String,
        /// Cache result.
        #[prost(string, tag = "4")]
        pub cache: String,
    }

    fn request_to_proto(r: &Request<String>) -> RequestMsg {
        let Agent {
            browser,
            version,
            os,
        } = &r.client.agent;
        RequestMsg {
            time_ms: r.time_ms,
            client: Some(ClientMsg {
                ip: r.client.ip.clone(),
                country: r.client.country.clone(),
                agent: Some(AgentMsg {
                    browser: browser.clone(),
                    version: version.clone(),
                    os: os.clone(),
                }),
            }),
            line: Some(LineMsg {
                method: r.line.method.clone(),
                host: r.line.host.clone(),
                path: r.line.path.clone(),
                query: r.line.query.clone(),
            }),
            response: Some(ResponseMsg {
                status: r.response.status.into(),
                bytes: r.response.bytes,
                content_type: r.response.content_type.clone(),
                cache: r.response.cache.clone(),
            }),
            referer: r.referer.clone(),
            tags: r.tags.clone(),
        }
    }

    fn request_from_proto(r: RequestMsg) -> Result<Request<String>, Invalid> {
        let client = present(r.client, "client")?;
        let agent = present(client.agent, "agent")?;
        let line = present(r.line, "line")?;
        let response = present(r.response, "response")?;
        Ok(Request {
            time_ms: r.time_ms,
            client: Client {
                ip: client.ip,
                country: client.country,
                agent: Agent {
                    browser: agent.browser,
                    version: agent.version,
                    os: agent.os,
                },
            },
            line: Line {
                method: line.method,
                host: line.host,
                path: line.path,
                query: line.query,
            },
            response: Response {
                status: narrow(response.status, "status")?,
                bytes: response.bytes,
                content_type: response.content_type,
                cache: response.cache,
            },
            referer: r.referer,
            tags: r.tags,
        })
    }

    pub(super) fn to_proto(log: &RequestLog<String>) -> RequestLogMsg {
        RequestLogMsg {
            requests: log.requests.iter().map(request_to_proto).collect(),
        }
    }

    pub(super) fn from_proto(msg: RequestLogMsg) -> Result<RequestLog<String>, Invalid> {
        let requests = msg
            .requests
            .into_iter()
            .map(request_from_proto)
            .collect::<Result<_, Invalid>>()?;
        Ok(RequestLog { requests })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::typed::TypedDataset;

    #[test]
    fn strings_are_short_and_times_increase() {
        let log = generate(TypedDataset::RequestLog.seed(), Scale::Ci);
        assert!(
            log.requests
                .windows(2)
                .all(|w| w[0].time_ms <= w[1].time_ms)
        );
        let mut lengths = Vec::new();
        for r in &log.requests {
            let Request {
                client,
                line,
                response,
                referer,
                tags,
                ..
            } = r;
            assert_eq!(client.country.len(), 2);
            assert!(["HIT", "MISS", "BYPASS"].contains(&response.cache.as_str()));
            assert!(tags.len() <= 3);
            lengths.extend(
                [
                    &client.ip,
                    &client.country,
                    &client.agent.browser,
                    &client.agent.version,
                    &client.agent.os,
                    &line.method,
                    &line.host,
                    &line.path,
                    &response.content_type,
                    &response.cache,
                ]
                .into_iter()
                .chain(&line.query)
                .chain(referer)
                .chain(tags)
                .map(String::len),
            );
        }
        // Most strings are 2 to 24 bytes; none is long.
        let short = lengths.iter().filter(|&&n| (2..=24).contains(&n)).count();
        assert!(
            short * 100 >= lengths.len() * 97,
            "{short} of {}",
            lengths.len()
        );
        assert!(lengths.iter().all(|&n| n <= 32));
    }
}
