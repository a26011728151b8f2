//! `string_heavy`: structured log events in which about 60% of the string
//! values repeat from a pool of 50; measures what deduplicating repeated
//! strings (and repeated key sets) wins.

use super::draw::Draw;
use super::timestamp::{EPOCH_2024_03_01, iso8601_millis};
use super::vocabulary::{NOUNS, VERBS};
use crate::{Scale, Value};

pub(crate) fn count(scale: Scale) -> u64 {
    scale.pick(500, 10_000)
}

const LEVELS: [&str; 4] = ["DEBUG", "INFO", "WARN", "ERROR"];

const SERVICES: [&str; 12] = [
    "api-gateway",
    "auth-service",
    "billing",
    "catalog",
    "checkout",
    "notifications",
    "orders",
    "payments",
    "recommendations",
    "search",
    "shipping",
    "user-profile",
];

const REGIONS: [&str; 8] = [
    "us-east-1",
    "us-west-2",
    "eu-west-1",
    "eu-central-1",
    "ap-south-1",
    "ap-northeast-1",
    "sa-east-1",
    "af-south-1",
];

const TAGS: [&str; 26] = [
    "http",
    "grpc",
    "db",
    "cache",
    "retry",
    "timeout",
    "slow-query",
    "auth",
    "rate-limited",
    "canary",
    "deploy",
    "k8s",
    "batch",
    "cron",
    "webhook",
    "kafka",
    "s3",
    "tls",
    "dns",
    "healthcheck",
    "feature-flag",
    "migration",
    "audit",
    "gdpr",
    "mobile",
    "web",
];

/// The pool every repeated string value comes from: the four lists above,
/// 50 distinct strings in all.
#[cfg(test)]
pub(crate) fn pool() -> Vec<&'static str> {
    [&LEVELS[..], &SERVICES, &REGIONS, &TAGS].concat()
}

const METHODS: [&str; 4] = ["GET", "POST", "PUT", "DELETE"];

pub(crate) fn generate(seed: u64, scale: Scale) -> Value {
    let mut draw = Draw::new(seed);
    let mut millis = EPOCH_2024_03_01 * 1000;
    let events = (1..=count(scale))
        .map(|id| {
            millis += draw.between(1, 2_000);
            event(&mut draw, id, millis)
        })
        .collect();
    Value::Array(events)
}

fn event(draw: &mut Draw, id: u64, millis: u64) -> Value {
    let level = LEVELS[draw.weighted(&[10, 60, 20, 10])];
    let service = draw.pick(&SERVICES);
    let tags = (0..draw.between(1, 3))
        .map(|_| Value::String((*draw.pick(&TAGS)).into()))
        .collect();
    let status = *draw.pick(&[200, 200, 200, 201, 204, 301, 400, 401, 404, 429, 500, 503]);
    let duration_ms = draw.between(1, 3_000);
    Value::Map(vec![
        ("id".into(), Value::U64(id)),
        ("timestamp".into(), Value::String(iso8601_millis(millis))),
        ("level".into(), Value::String(level.into())),
        ("service".into(), Value::String((*service).into())),
        (
            "region".into(),
            Value::String((*draw.pick(&REGIONS)).into()),
        ),
        (
            "message".into(),
            Value::String(message(draw, status, duration_ms)),
        ),
        ("tags".into(), Value::Array(tags)),
        ("status".into(), Value::U64(status)),
        ("duration_ms".into(), Value::U64(duration_ms)),
        ("request_id".into(), Value::String(draw.hex(16))),
    ])
}

/// A free-text line, almost never repeated, in the shapes services log.
fn message(draw: &mut Draw, status: u64, duration_ms: u64) -> String {
    let resource = draw.pick(NOUNS);
    match draw.index(4) {
        0 => format!(
            "{} /api/v{}/{resource}s/{} returned {status} in {duration_ms} ms",
            draw.pick(&METHODS),
            draw.between(1, 3),
            draw.between(1, 999_999),
        ),
        1 => format!(
            "user {} could not {} {resource} {}",
            draw.between(1, 9_999_999),
            draw.pick(VERBS),
            draw.between(1, 99_999),
        ),
        2 => format!("cache miss for key {resource}:{}", draw.hex(8)),
        _ => format!(
            "{resource} sync attempt {} after {} failures",
            draw.between(2, 9),
            draw.between(1, 5),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect_strings<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
        match value {
            Value::String(s) => out.push(s),
            Value::Array(items) => items.iter().for_each(|v| collect_strings(v, out)),
            Value::Map(entries) => entries.iter().for_each(|(_, v)| collect_strings(v, out)),
            _ => {}
        }
    }

    #[test]
    fn the_pool_holds_fifty_distinct_strings() {
        let mut pool = pool();
        pool.sort_unstable();
        pool.dedup();
        assert_eq!(pool.len(), 50);
    }

    #[test]
    fn about_sixty_percent_of_string_values_come_from_the_pool() {
        let value = generate(1, Scale::Ci);
        let mut strings = Vec::new();
        collect_strings(&value, &mut strings);
        let pool = pool();
        let pooled = strings.iter().filter(|s| pool.contains(s)).count();
        let share = pooled as f64 / strings.len() as f64;
        assert!((0.55..=0.65).contains(&share), "pooled share {share}");
    }
}
