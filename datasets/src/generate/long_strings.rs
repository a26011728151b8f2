//! `long_strings`: a software-update catalog, in which most of the bytes are
//! long strings: descriptions of a few hundred to a few thousand bytes,
//! release notes, download URLs, digests and titles translated into
//! languages written with and without ASCII. It measures what a format pays
//! per byte of text (copying, UTF-8 validation) rather than per value.
//!
//! About a third of the descriptions and every translated title outside the
//! Latin-1 languages hold multi-byte characters, at varying distances from
//! the start, so a validator cannot settle a long string from its first
//! bytes.

use super::draw::Draw;
use super::timestamp::{EPOCH_2024_03_01, iso8601};
use super::vocabulary::{ADJECTIVES, NOUNS, VERBS};
use crate::{Scale, Value};

pub(crate) fn count(scale: Scale) -> u64 {
    scale.pick(150, 3_000)
}

const PRODUCTS: [&str; 12] = [
    "Aurora Desktop",
    "Beacon Mail",
    "Cobalt Notes",
    "Drift Photos",
    "Ember Studio",
    "Fjord Backup",
    "Glade Music",
    "Harbor VPN",
    "Iris Reader",
    "Juniper Maps",
    "Kestrel Browser",
    "Lumen Office",
];

const CHANNELS: [(&str, u64); 3] = [("stable", 14), ("beta", 4), ("nightly", 2)];

const PLATFORMS: [&str; 5] = [
    "macos-arm64",
    "macos-x86_64",
    "windows-x86_64",
    "linux-x86_64",
    "linux-aarch64",
];

/// Translated titles: language code, and words in that language (written
/// for this dataset; several need more than one byte per character).
const LANGUAGES: [(&str, &[&str]); 6] = [
    (
        "fr",
        &[
            "mise à jour",
            "sécurité",
            "amélioration",
            "correctif",
            "fiabilité",
            "nouveautés",
            "prise en charge",
        ],
    ),
    (
        "de",
        &[
            "Aktualisierung",
            "Sicherheit",
            "Verbesserung",
            "Fehlerbehebung",
            "Zuverlässigkeit",
            "Neuerungen",
            "Unterstützung",
        ],
    ),
    (
        "ja",
        &[
            "アップデート",
            "セキュリティ",
            "改善",
            "修正",
            "信頼性",
            "新機能",
            "対応",
        ],
    ),
    (
        "ru",
        &[
            "обновление",
            "безопасность",
            "улучшение",
            "исправление",
            "надёжность",
            "поддержка",
        ],
    ),
    (
        "es",
        &[
            "actualización",
            "seguridad",
            "mejora",
            "corrección",
            "fiabilidad",
            "novedades",
        ],
    ),
    (
        "el",
        &[
            "ενημέρωση",
            "ασφάλεια",
            "βελτίωση",
            "διόρθωση",
            "αξιοπιστία",
            "υποστήριξη",
        ],
    ),
];

/// Punctuation and symbols that release text uses, most of them outside
/// ASCII.
const SYMBOLS: [&str; 6] = [" — ", " → ", "™", " · ", "…", " “beta” "];

pub(crate) fn generate(seed: u64, scale: Scale) -> Value {
    let mut draw = Draw::new(seed);
    let mut seconds = EPOCH_2024_03_01;
    let updates = (0..count(scale))
        .map(|n| {
            seconds += draw.between(600, 86_400);
            update(&mut draw, n, seconds)
        })
        .collect();
    Value::Array(updates)
}

fn update(draw: &mut Draw, n: u64, seconds: u64) -> Value {
    let product = *draw.pick(&PRODUCTS);
    let slug = product.to_lowercase().replace(' ', "-");
    let version = format!(
        "{}.{}.{}",
        draw.between(1, 24),
        draw.between(0, 12),
        draw.between(0, 30)
    );
    let channel = CHANNELS[draw.weighted(&CHANNELS.map(|(_, w)| w))].0;
    let platform = *draw.pick(&PLATFORMS);
    let build = format!("{}{}", draw.between(20, 26), draw.hex(5).to_uppercase());
    let url = format!(
        "https://downloads.example-updates.net/{slug}/{channel}/{version}/{platform}/\
         {slug}-{version}-{platform}.pkg?sig={}",
        draw.hex(32)
    );
    let notes = (0..draw.between(2, 9))
        .map(|_| Value::String(sentences(draw, 1, 3, 0.15)))
        .collect();
    let mut titles = Vec::new();
    for &(code, words) in &LANGUAGES {
        if draw.chance(0.7) {
            let title = format!(
                "{product} {version}: {} {}",
                draw.pick(words),
                draw.pick(words)
            );
            titles.push((code.to_owned(), Value::String(title)));
        }
    }
    Value::Map(vec![
        ("id".into(), Value::String(format!("upd-{:06}", 41_000 + n))),
        ("product".into(), Value::String(product.to_owned())),
        ("version".into(), Value::String(version)),
        ("build".into(), Value::String(build)),
        ("channel".into(), Value::String(channel.to_owned())),
        ("platform".into(), Value::String(platform.to_owned())),
        ("released".into(), Value::String(iso8601(seconds))),
        (
            "description".into(),
            Value::String(sentences(draw, 4, 40, 0.35)),
        ),
        ("notes".into(), Value::Array(notes)),
        ("titles".into(), Value::Map(titles)),
        ("url".into(), Value::String(url)),
        ("sha256".into(), Value::String(draw.hex(64))),
        (
            "size".into(),
            Value::U64(draw.between(2_000_000, 900_000_000)),
        ),
    ])
}

/// Between `lo` and `hi` sentences of release-note prose; with probability
/// `non_ascii` the text carries characters outside ASCII, placed anywhere
/// in it.
fn sentences(draw: &mut Draw, lo: u64, hi: u64, non_ascii: f64) -> String {
    let accented = draw.chance(non_ascii);
    let n = draw.between(lo, hi);
    let mut out = String::new();
    for i in 0..n {
        if i > 0 {
            out.push(' ');
        }
        let verb = draw.pick(VERBS);
        let mut sentence = format!(
            "{}{} the {} {} when the {} {}",
            verb[..1].to_uppercase(),
            &verb[1..],
            draw.pick(ADJECTIVES),
            draw.pick(NOUNS),
            draw.pick(NOUNS),
            draw.pick(VERBS),
        );
        if accented && draw.chance(0.3) {
            let &symbol = draw.pick(&SYMBOLS);
            sentence.push_str(symbol);
            let &(_, words) = draw.pick(&LANGUAGES);
            let &word = draw.pick(words);
            sentence.push_str(word);
        }
        if draw.chance(0.25) {
            sentence.push_str(&format!(", fixed in build {}", draw.between(1_000, 99_999)));
        }
        sentence.push('.');
        out.push_str(&sentence);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::String(s) => out.push(s.clone()),
            Value::Array(items) => items.iter().for_each(|v| texts(v, out)),
            Value::Map(entries) => entries.iter().for_each(|(_, v)| texts(v, out)),
            _ => {}
        }
    }

    #[test]
    fn most_bytes_are_long_strings_some_of_them_not_ascii() {
        let value = generate(7, Scale::Ci);
        let Value::Array(updates) = &value else {
            panic!("long_strings is an array");
        };
        assert_eq!(updates.len() as u64, count(Scale::Ci));
        let mut all = Vec::new();
        texts(&value, &mut all);
        let total: usize = all.iter().map(String::len).sum();
        let long: usize = all.iter().filter(|s| s.len() >= 64).map(String::len).sum();
        assert!(
            long * 10 >= total * 8,
            "{long} of {total} bytes in long strings"
        );
        let long_non_ascii = all
            .iter()
            .filter(|s| s.len() >= 64 && !s.is_ascii())
            .count();
        let long_ascii = all.iter().filter(|s| s.len() >= 64 && s.is_ascii()).count();
        assert!(
            long_non_ascii * 10 >= long_ascii,
            "{long_non_ascii} vs {long_ascii}"
        );
        assert!(all.iter().any(|s| s.len() > 2_000));
    }
}
