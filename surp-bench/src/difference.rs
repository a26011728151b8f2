//! Finding where two neutral values first differ, so a format that does not
//! round-trip a dataset is reported with a path rather than a bare "not
//! equal".

use surp_datasets::Value;

/// The path (`$.key[3]`) and a description of the first place, in document
/// order, where `actual` differs from `expected`; `None` if they are equal.
pub fn first_difference(expected: &Value, actual: &Value) -> Option<String> {
    // Explicit stack: the walk must not depend on the depth of the data.
    let mut stack = vec![(expected, actual, String::from("$"))];
    while let Some((e, a, path)) = stack.pop() {
        match (e, a) {
            (Value::Array(es), Value::Array(as_)) => {
                if es.len() != as_.len() {
                    return Some(format!(
                        "at {path}: expected an array of {} items, got {}",
                        es.len(),
                        as_.len()
                    ));
                }
                for (i, (e, a)) in es.iter().zip(as_).enumerate().rev() {
                    stack.push((e, a, format!("{path}[{i}]")));
                }
            }
            (Value::Map(es), Value::Map(as_)) => {
                if es.len() != as_.len() {
                    return Some(format!(
                        "at {path}: expected a map of {} entries, got {}",
                        es.len(),
                        as_.len()
                    ));
                }
                for ((ek, ev), (ak, av)) in es.iter().zip(as_).rev() {
                    if ek != ak {
                        return Some(format!("at {path}: expected key {ek:?}, got {ak:?}"));
                    }
                    stack.push((ev, av, format!("{path}.{ek}")));
                }
            }
            _ if e == a => {}
            _ => {
                return Some(format!(
                    "at {path}: expected {}, got {}",
                    brief(e),
                    brief(a)
                ));
            }
        }
    }
    None
}

/// A short description of a value: scalars in full (strings and bytes
/// shortened), containers by their size.
fn brief(value: &Value) -> String {
    match value {
        Value::String(s) if s.chars().count() > 40 => {
            format!("String({:?}...)", s.chars().take(40).collect::<String>())
        }
        Value::Bytes(b) => format!("Bytes(len {})", b.len()),
        Value::Array(items) => format!("an array of {} items", items.len()),
        Value::Map(entries) => format!("a map of {} entries", entries.len()),
        scalar => format!("{scalar:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_values_have_no_difference() {
        let v = Value::Map(vec![("a".into(), Value::Array(vec![Value::U64(1)]))]);
        assert_eq!(first_difference(&v, &v.clone()), None);
    }

    #[test]
    fn the_first_difference_is_reported_with_its_path() {
        let expected = Value::Map(vec![
            ("a".into(), Value::Array(vec![Value::U64(1), Value::U64(2)])),
            ("b".into(), Value::Bytes(vec![1])),
        ]);
        let actual = Value::Map(vec![
            (
                "a".into(),
                Value::Array(vec![Value::U64(1), Value::I64(-2)]),
            ),
            ("b".into(), Value::String("AQ==".into())),
        ]);
        assert_eq!(
            first_difference(&expected, &actual).unwrap(),
            "at $.a[1]: expected U64(2), got I64(-2)"
        );
    }

    #[test]
    fn a_renamed_key_or_a_shorter_array_is_a_difference() {
        let expected = Value::Map(vec![("a".into(), Value::Null)]);
        let actual = Value::Map(vec![("b".into(), Value::Null)]);
        assert!(
            first_difference(&expected, &actual)
                .unwrap()
                .contains("expected key \"a\"")
        );
        let shorter = first_difference(&Value::Array(vec![Value::Null]), &Value::Array(vec![]));
        assert_eq!(
            shorter.unwrap(),
            "at $: expected an array of 1 items, got 0"
        );
    }
}
