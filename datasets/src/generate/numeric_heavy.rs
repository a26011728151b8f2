//! `numeric_heavy`: sensor readings whose arrays are dominated by numbers;
//! measures integer and float encoding.
//!
//! Integers span every magnitude from one byte to the full 64 bits, negatives
//! included, skewed towards small values as real counters are. About half the
//! floats are exactly representable in `f32` (small whole numbers, binary
//! fractions like 0.5 or -2.75, widened `f32` samples) and half need all of
//! `f64` (decimal fractions, full-precision samples, magnitudes outside the
//! `f32` range), so a format that narrows floats when it can is neither
//! flattered nor punished.

use super::draw::Draw;
use super::timestamp::EPOCH_2024_03_01;
use crate::{Scale, Value};

pub(crate) fn count(scale: Scale) -> u64 {
    scale.pick(500, 10_000)
}

/// Numbers per array in each record.
const COUNTERS: usize = 16;
const SAMPLES: usize = 16;

pub(crate) fn generate(seed: u64, scale: Scale) -> Value {
    let mut draw = Draw::new(seed);
    let mut millis = EPOCH_2024_03_01 * 1000;
    let readings = (1..=count(scale))
        .map(|id| {
            millis += draw.between(100, 60_000);
            reading(&mut draw, id, millis)
        })
        .collect();
    Value::Array(readings)
}

fn reading(draw: &mut Draw, id: u64, millis: u64) -> Value {
    let counters = (0..COUNTERS).map(|_| integer(draw)).collect();
    let samples = (0..SAMPLES).map(|_| Value::F64(float(draw))).collect();
    let position = vec![
        Value::F64(draw.float_between(-90.0, 90.0)),
        Value::F64(draw.float_between(-180.0, 180.0)),
        // Altitude in whole metres, stored as a float as GPS fixes are.
        Value::F64(draw.signed_between(-400, 8_848) as f64),
    ];
    Value::Map(vec![
        ("id".into(), Value::U64(id)),
        ("timestamp_ms".into(), Value::U64(millis)),
        ("counters".into(), Value::Array(counters)),
        ("samples".into(), Value::Array(samples)),
        ("position".into(), Value::Array(position)),
    ])
}

/// An integer from one of eight magnitude classes.
fn integer(draw: &mut Draw) -> Value {
    match draw.weighted(&[30, 15, 10, 5, 20, 8, 7, 5]) {
        0 => Value::U64(draw.between(0, 0xff)),
        1 => Value::U64(draw.between(0x100, 0xffff)),
        2 => Value::U64(draw.between(0x1_0000, u64::from(u32::MAX))),
        3 => Value::U64(draw.between(u64::from(u32::MAX) + 1, u64::MAX)),
        4 => Value::int(draw.signed_between(-128, -1)),
        5 => Value::int(draw.signed_between(-32_768, -129)),
        6 => Value::int(draw.signed_between(i64::from(i32::MIN), -32_769)),
        _ => Value::int(draw.signed_between(i64::MIN, i64::from(i32::MIN) - 1)),
    }
}

/// A float from one of six classes, the first three exact in `f32`.
fn float(draw: &mut Draw) -> f64 {
    match draw.index(6) {
        0 => draw.signed_between(-1_000, 1_000) as f64,
        // k / 2^j: 0.5, 1.25, -2.75 and the like.
        1 => draw.signed_between(-4_096, 4_096) as f64 / (1u64 << draw.between(1, 4)) as f64,
        2 => f64::from(draw.unit_f32()),
        // A decimal reading with three places, like 12.345.
        3 => draw.signed_between(-1_000_000, 1_000_000) as f64 / 1_000.0,
        4 => draw.float_between(-1_000.0, 1_000.0),
        // Any magnitude from about 1e-270 to 1e270, built from bits so no
        // platform-dependent `powi` is involved.
        _ => {
            let sign = draw.bits() & (1 << 63);
            let exponent = draw.between(1023 - 900, 1023 + 900) << 52;
            let mantissa = draw.bits() & ((1 << 52) - 1);
            f64::from_bits(sign | exponent | mantissa)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(value: &Value, ints: &mut Vec<Value>, floats: &mut Vec<f64>) {
        match value {
            Value::I64(_) | Value::U64(_) => ints.push(value.clone()),
            Value::F64(f) => floats.push(*f),
            Value::Array(items) => items.iter().for_each(|v| numbers(v, ints, floats)),
            Value::Map(entries) => entries.iter().for_each(|(_, v)| numbers(v, ints, floats)),
            _ => {}
        }
    }

    #[test]
    fn integers_cover_every_magnitude_and_sign() {
        let (mut ints, mut floats) = (Vec::new(), Vec::new());
        numbers(&generate(3, Scale::Ci), &mut ints, &mut floats);
        let has = |pred: &dyn Fn(&Value) -> bool| ints.iter().any(pred);
        assert!(has(&|v| matches!(v, Value::U64(n) if *n <= 0xff)));
        assert!(has(
            &|v| matches!(v, Value::U64(n) if *n > u64::from(u32::MAX))
        ));
        assert!(has(&|v| matches!(v, Value::U64(n) if *n > i64::MAX as u64)));
        assert!(has(&|v| matches!(v, Value::I64(n) if *n >= -128)));
        assert!(has(
            &|v| matches!(v, Value::I64(n) if *n < i64::from(i32::MIN))
        ));
        assert!(ints.iter().all(|v| !matches!(v, Value::I64(n) if *n >= 0)));
    }

    #[test]
    fn floats_are_split_between_f32_exact_and_full_f64() {
        let (mut ints, mut floats) = (Vec::new(), Vec::new());
        numbers(&generate(3, Scale::Ci), &mut ints, &mut floats);
        let exact = floats
            .iter()
            .filter(|f| f64::from(**f as f32) == **f)
            .count();
        let share = exact as f64 / floats.len() as f64;
        assert!((0.35..=0.65).contains(&share), "f32-exact share {share}");
        assert!(floats.iter().any(|f| f.abs() > f64::from(f32::MAX)));
        assert!(floats.iter().all(|f| f.is_finite()));
    }
}
