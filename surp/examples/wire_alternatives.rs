//! Measures the encoded size of every benchmark dataset under the chosen
//! Surp layout and under the alternatives considered in `docs/spec.md`
//! ("Design notes"), next to MessagePack (rmp-serde).
//!
//! `cargo run --release -p surp --example wire_alternatives`
//!
//! Sizes are computed by walking the neutral value model with each layout's
//! rules; the chosen layout's computed size is checked against `surp::to_vec`.

use surp_datasets::{Dataset, Scale, Value};

/// One candidate tag-table layout.
#[derive(Clone, Copy)]
struct Layout {
    name: &'static str,
    fixuint_max: u64,
    /// Smallest negative integer held in the tag.
    fixnint_min: i64,
    fixstr_max: usize,
    /// Longest byte string whose length is in the tag; `None` when byte
    /// strings have no inline form (version 2 gave their tags to one-byte
    /// shape references).
    fixbin_max: Option<usize>,
    f16: bool,
    /// Integers beyond the tag: every width 1..=8, or only 1, 2, 4, 8.
    all_int_widths: bool,
    /// Integers beyond the tag as LEB128 (zigzag-free: the tag gives the sign).
    leb128: bool,
    /// Arrays of only floats or only integers as packed typed arrays
    /// (tag, element type, count, fixed-width elements), when smaller.
    packed: bool,
}

const CHOSEN: Layout = Layout {
    name: "chosen",
    fixuint_max: 127,
    fixnint_min: -8,
    fixstr_max: 31,
    fixbin_max: None,
    f16: true,
    all_int_widths: true,
    leb128: false,
    packed: false,
};

fn byte_width(n: u64) -> usize {
    (64 - (n | 1).leading_zeros() as usize).div_ceil(8)
}

fn int_payload(n: u64, l: &Layout) -> usize {
    if l.leb128 {
        (64 - (n | 1).leading_zeros() as usize).div_ceil(7)
    } else if l.all_int_widths {
        byte_width(n)
    } else {
        byte_width(n).next_power_of_two()
    }
}

fn len_header(len: usize, fix_max: usize) -> usize {
    if len <= fix_max {
        1
    } else {
        prefixed_header(len)
    }
}

/// A header whose length follows the tag in 1, 2, 4 or 8 bytes.
fn prefixed_header(len: usize) -> usize {
    1 + byte_width(len as u64).next_power_of_two()
}

fn float_size(f: f64, l: &Layout) -> usize {
    let s = f as f32;
    if f64::from(s).to_bits() != f.to_bits() {
        return 9;
    }
    let h16 = l.f16 && {
        let bits = s.to_bits();
        let e = ((bits >> 23) & ((1 << 8) - 1)) as i32 - 127;
        let m = bits & 0x7f_ffff;
        s == 0.0 || s.is_infinite() || ((-14..=15).contains(&e) && m & 0x1fff == 0)
    };
    if h16 { 3 } else { 5 }
}

fn size(v: &Value, l: &Layout) -> usize {
    match v {
        Value::Null | Value::Bool(_) => 1,
        Value::U64(u) => {
            if *u <= l.fixuint_max {
                1
            } else {
                1 + int_payload(*u, l)
            }
        }
        Value::I64(i) => {
            if *i >= l.fixnint_min {
                1
            } else {
                1 + int_payload(!*i as u64, l)
            }
        }
        Value::F64(f) => float_size(*f, l),
        Value::String(s) => len_header(s.len(), l.fixstr_max) + s.len(),
        Value::Bytes(b) => {
            let header = match l.fixbin_max {
                Some(max) => len_header(b.len(), max),
                None => prefixed_header(b.len()),
            };
            header + b.len()
        }
        Value::Array(items) => {
            let plain =
                len_header(items.len(), 15) + items.iter().map(|i| size(i, l)).sum::<usize>();
            match (l.packed, packed_size(items)) {
                (true, Some(p)) if p < plain => p,
                _ => plain,
            }
        }
        Value::Map(entries) => {
            len_header(entries.len(), 15)
                + entries
                    .iter()
                    .map(|(k, v)| len_header(k.len(), l.fixstr_max) + k.len() + size(v, l))
                    .sum::<usize>()
        }
    }
}

/// Packed form: tag, element-type byte, count (1/2/4/8 bytes), elements.
fn packed_size(items: &[Value]) -> Option<usize> {
    if items.len() < 2 {
        return None;
    }
    let header = 2 + byte_width(items.len() as u64).next_power_of_two();
    if items.iter().all(|i| matches!(i, Value::F64(_))) {
        let all_f32 = items
            .iter()
            .all(|i| matches!(i, Value::F64(f) if f64::from(*f as f32).to_bits() == f.to_bits()));
        return Some(header + items.len() * if all_f32 { 4 } else { 8 });
    }
    let mut width = 0;
    for i in items {
        // Signed elements in two's complement of the widest width needed.
        let w = match i {
            Value::U64(u) => byte_width(*u << 1),
            Value::I64(n) => byte_width((!*n as u64) << 1),
            _ => return None,
        };
        width = width.max(w);
    }
    Some(header + items.len() * width.next_power_of_two())
}

fn main() {
    let layouts = [
        CHOSEN,
        Layout {
            name: "uint0-111,nint-16,bin0-15",
            fixuint_max: 111,
            fixnint_min: -16,
            fixbin_max: Some(15),
            ..CHOSEN
        },
        Layout {
            name: "str0-63,uint0-95",
            fixstr_max: 63,
            fixuint_max: 95,
            ..CHOSEN
        },
        Layout {
            name: "str0-47,uint0-111",
            fixstr_max: 47,
            fixuint_max: 111,
            ..CHOSEN
        },
        Layout {
            name: "no f16",
            f16: false,
            ..CHOSEN
        },
        Layout {
            name: "int widths 1/2/4/8",
            all_int_widths: false,
            ..CHOSEN
        },
        Layout {
            name: "LEB128 ints",
            leb128: true,
            ..CHOSEN
        },
        Layout {
            name: "packed arrays",
            packed: true,
            ..CHOSEN
        },
    ];
    print!("| dataset | msgpack |");
    for l in &layouts {
        print!(" {} |", l.name);
    }
    println!();
    println!("|{}", "---|".repeat(layouts.len() + 2));
    for dataset in Dataset::ALL {
        let value = dataset
            .load(Scale::Full)
            .expect("dataset matches its manifest");
        let msgpack = rmp_serde::to_vec_named(&value)
            .expect("msgpack encodes")
            .len();
        let actual = surp::to_vec(&value).expect("surp encodes").len();
        assert_eq!(
            size(&value, &CHOSEN),
            actual,
            "{}: size model disagrees with surp",
            dataset.name()
        );
        print!("| {} | {msgpack} |", dataset.name());
        for l in &layouts {
            let s = size(&value, l);
            print!(" {s} ({:.3}) |", s as f64 / msgpack as f64);
        }
        println!();
    }
}
