//! `surp stats`: where the bytes of a document go.
//!
//! Every byte of a valid document belongs to exactly one token of the
//! walker, and every token to exactly one [`Category`], so the categories
//! partition the document and their sizes add up to its size. Shares are
//! printed to a tenth of a percent, rounded by the largest-remainder method
//! so that the printed shares add up to exactly 100.0%.

use std::io::{self, Write};
use std::path::PathBuf;

use crate::error::Error;
use crate::files;
use surp::tokens::{Item, Token, Tokens};

/// Arguments of `surp stats`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  surp stats data.surp
  surp encode data.json | surp stats --dedup-estimate")]
#[command(after_long_help = "\
Categories (each byte counts once):
  keys     every byte of a map key (whatever its type, including string
           references), and shape references, which stand for a map's keys
  strings  string values: tag, length and UTF-8 bytes, or a string reference
  numbers  integers and floats: tag and payload
  bytes    byte strings: tag, length and payload
  framing  array and map headers, null, booleans, some markers and the
           deduplication marker

Examples:
  surp stats data.surp
  surp encode data.json | surp stats --dedup-estimate")]
pub struct Args {
    /// The Surp input; standard input when absent or `-`.
    pub file: Option<PathBuf>,
    /// Also show the size of the plain and the deduplicated encoding of the
    /// decoded value (by running both encoders).
    #[arg(long)]
    pub dedup_estimate: bool,
}

/// What a byte of a document is spent on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// Map keys (anything in key position) and shape references.
    Keys,
    /// String values, literal or referenced.
    Strings,
    /// Integers and floats.
    Numbers,
    /// Byte strings.
    Bytes,
    /// Container headers, null, booleans, `some` and the dedup marker.
    Framing,
}

impl Category {
    /// Every category, in the order they are printed.
    pub const ALL: [Category; 5] = [
        Category::Keys,
        Category::Strings,
        Category::Numbers,
        Category::Bytes,
        Category::Framing,
    ];

    /// The name printed for the category.
    pub fn name(self) -> &'static str {
        match self {
            Category::Keys => "keys",
            Category::Strings => "strings",
            Category::Numbers => "numbers",
            Category::Bytes => "bytes",
            Category::Framing => "framing",
        }
    }

    /// The category of a token.
    pub fn of(token: &Token<'_>) -> Category {
        if token.in_key {
            return Category::Keys;
        }
        match token.item {
            Item::ShapeRef { .. } => Category::Keys,
            Item::Str { .. } | Item::StrRef { .. } => Category::Strings,
            Item::Integer(_) | Item::F16(_) | Item::F32(_) | Item::F64(_) => Category::Numbers,
            Item::Bytes(_) => Category::Bytes,
            Item::DedupMarker
            | Item::Null
            | Item::Bool(_)
            | Item::Some
            | Item::Array(_)
            | Item::Map(_) => Category::Framing,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Bytes and tokens per category.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Breakdown {
    /// Bytes per category, indexed like [`Category::ALL`].
    pub bytes: [u64; 5],
    /// Tokens per category, indexed like [`Category::ALL`].
    pub tokens: [u64; 5],
}

impl Breakdown {
    /// Walks a document; fails on the first error, as a decoder would.
    pub fn of(input: &[u8]) -> Result<Breakdown, surp::Error> {
        let mut breakdown = Breakdown::default();
        for token in Tokens::new(input) {
            let token = token?;
            let i = Category::of(&token).index();
            breakdown.bytes[i] += token.bytes.len() as u64;
            breakdown.tokens[i] += 1;
        }
        Ok(breakdown)
    }

    /// Every byte counted.
    pub fn total(&self) -> u64 {
        self.bytes.iter().sum()
    }

    /// Each category's share in tenths of a percent, summing to exactly 1000.
    pub fn shares(&self) -> [u64; 5] {
        largest_remainder(&self.bytes, 1000)
    }
}

/// Splits `scale` in proportion to `parts`, rounding by largest remainder so
/// the results add up to `scale` exactly (all zero when the parts are).
fn largest_remainder<const N: usize>(parts: &[u64; N], scale: u64) -> [u64; N] {
    let total: u64 = parts.iter().sum();
    let mut shares = [0; N];
    if total == 0 {
        return shares;
    }
    let mut remainders = [(0u128, 0usize); N];
    for (i, &part) in parts.iter().enumerate() {
        let exact = u128::from(part) * u128::from(scale);
        shares[i] = (exact / u128::from(total)) as u64;
        remainders[i] = (exact % u128::from(total), i);
    }
    // Ties go to the category listed first.
    remainders.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let handed_out: u64 = shares.iter().sum();
    for &(_, i) in remainders.iter().take((scale - handed_out) as usize) {
        shares[i] += 1;
    }
    shares
}

/// Runs `surp stats`.
pub fn run(args: &Args) -> Result<(), Error> {
    let input = files::read_input(args.file.as_deref())?;
    let breakdown = Breakdown::of(&input).map_err(|e| Error::invalid_surp(e, &input))?;
    let mut text = report(&breakdown);
    if args.dedup_estimate {
        text.push_str(&dedup_estimate(&input)?);
    }
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(Error::stdout)
}

/// The table of categories.
pub fn report(breakdown: &Breakdown) -> String {
    let total = breakdown.total();
    let width = total.to_string().len().max("bytes".len());
    let shares = breakdown.shares();
    let mut text = format!("{:<8} {:>width$}   share  tokens\n", "kind", "bytes");
    for category in Category::ALL {
        let i = category.index();
        text.push_str(&format!(
            "{:<8} {:>width$}  {:>5.1}%  {:>6}\n",
            category.name(),
            breakdown.bytes[i],
            shares[i] as f64 / 10.0,
            breakdown.tokens[i],
        ));
    }
    text.push_str(&format!(
        "{:<8} {:>width$}  {:>5.1}%  {:>6}\n",
        "total",
        total,
        shares.iter().sum::<u64>() as f64 / 10.0,
        breakdown.tokens.iter().sum::<u64>(),
    ));
    text
}

/// The sizes of the plain and the deduplicated encoding of the value the
/// document holds, by running both encoders on it.
fn dedup_estimate(input: &[u8]) -> Result<String, Error> {
    let value: surp::Value = surp::from_slice(input).map_err(Error::Surp)?;
    let plain = surp::to_vec(&value).map_err(Error::Encode)?.len();
    let dedup = surp_dedup::to_vec(&value).map_err(Error::Encode)?.len();
    let share = if plain == 0 {
        100.0
    } else {
        dedup as f64 * 100.0 / plain as f64
    };
    Ok(format!(
        "\nre-encoded plain:  {plain} bytes\n\
         with --dedup:      {dedup} bytes ({share:.1}% of plain)\n"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_partition_the_document() {
        let value = serde_json::json!({
            "name": "surp", "size": 1.5, "tags": ["a", "b"], "ok": true, "n": null
        });
        let bytes = surp::to_vec(&value).unwrap();
        let b = Breakdown::of(&bytes).unwrap();
        assert_eq!(b.total(), bytes.len() as u64);
        // keys: "name" "size" "tags" "ok" "n" = 5 + 5 + 5 + 3 + 2
        assert_eq!(b.bytes, [20, 9, 3, 0, 4]);
        assert_eq!(b.tokens, [5, 3, 1, 0, 4]);
    }

    #[test]
    fn shares_add_up_to_exactly_one_hundred_percent() {
        for parts in [
            [1, 1, 1, 0, 0],
            [2, 2, 2, 0, 1],
            [999, 1, 0, 0, 0],
            [1, 0, 0, 0, 0],
        ] {
            let b = Breakdown {
                bytes: parts,
                tokens: [0; 5],
            };
            assert_eq!(b.shares().iter().sum::<u64>(), 1000, "{parts:?}");
        }
        // One third each: the first category gets the odd tenth.
        assert_eq!(largest_remainder(&[1, 1, 1], 1000), [334, 333, 333]);
    }

    #[test]
    fn keys_of_a_deduplicated_document_include_shape_references() {
        let records = serde_json::json!([{"id": 1, "kind": "x"}, {"id": 2, "kind": "y"}]);
        let bytes = surp_dedup::to_vec(&records).unwrap();
        let b = Breakdown::of(&bytes).unwrap();
        assert_eq!(b.total(), bytes.len() as u64);
        // Keys "id" and "kind" once as literals (3 + 5), then one shape reference (1).
        assert_eq!(b.bytes[Category::Keys.index()], 9);
    }
}
