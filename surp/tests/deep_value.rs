//! A `Value` nested far deeper than any decoder limit can still be built in
//! memory; dropping it must not recurse once per level.

use surp::Value;

fn nested_arrays(depth: usize) -> Value {
    let mut value = Value::Null;
    for _ in 0..depth {
        value = Value::Array(vec![value, Value::from(1)]);
    }
    value
}

fn nested_maps(depth: usize) -> Value {
    let mut value = Value::Null;
    for i in 0..depth {
        value = Value::Map(vec![(Value::from(i as u64), value)]);
    }
    value
}

/// Runs `f` on a thread with a small stack, so that recursion per level
/// would overflow it long before a million levels.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .expect("the thread finished without overflowing its stack");
}

#[test]
fn a_million_deep_array_drops_without_recursion() {
    on_small_stack(|| drop(nested_arrays(1_000_000)));
}

#[test]
fn a_million_deep_map_drops_without_recursion() {
    on_small_stack(|| drop(nested_maps(1_000_000)));
}

#[test]
fn maps_with_container_keys_drop_too() {
    on_small_stack(|| {
        let mut value = Value::Null;
        for _ in 0..100_000 {
            value = Value::Map(vec![(value, Value::Array(vec![]))]);
        }
        drop(value);
    });
}

#[test]
fn values_taken_apart_by_deserialize_keep_their_contents() {
    // Value's Drop must not get in the way of moving contents out.
    let value = nested_arrays(3);
    let back: Vec<Value> = surp::from_value(value.clone()).unwrap();
    assert_eq!(back.len(), 2);
    assert_eq!(Value::Array(back), value);
}
