//! `nested_deep`: a branching tree of small nodes plus a 50-level linear
//! chain; stresses recursion, depth limits and the framing cost of many small
//! maps and arrays.
//!
//! The document is `{"tree": node, "chain": link}`. A tree node is
//! `{"id", "name", "weight", "children": [node, ...]}`, leaves having an empty
//! `children` array; a chain link is `{"level", "tag", "next"}` with `next`
//! null at the end. Container depth: the tree reaches `2 * TREE_LEVELS + 1`
//! (21 at full scale), the chain `CHAIN_LINKS + 1` (51), so the document's
//! depth is 51 at both scales: inside the 128 that serde_json and Surp allow
//! by default, with room to spare.

use super::draw::Draw;
use crate::{Scale, Value};

const FANOUT: u64 = 3;

/// Links in the chain; the same at both scales because depth, not volume, is
/// what the chain tests.
pub(crate) const CHAIN_LINKS: u64 = 50;

fn tree_levels(scale: Scale) -> u32 {
    scale.pick(7, 10)
}

/// Tree nodes plus chain links.
pub(crate) fn count(scale: Scale) -> u64 {
    let tree_nodes: u64 = (0..tree_levels(scale)).map(|l| FANOUT.pow(l)).sum();
    tree_nodes + CHAIN_LINKS
}

const KINDS: [&str; 4] = ["group", "folder", "item", "link"];

pub(crate) fn generate(seed: u64, scale: Scale) -> Value {
    let mut draw = Draw::new(seed);
    let mut next_id = 0;
    let tree = node(&mut draw, &mut next_id, tree_levels(scale), "n");
    let chain = link(&mut draw, 1);
    Value::Map(vec![("tree".into(), tree), ("chain".into(), chain)])
}

fn node(draw: &mut Draw, next_id: &mut u64, levels_left: u32, name: &str) -> Value {
    *next_id += 1;
    let id = *next_id;
    let kind = if levels_left == 1 {
        "leaf"
    } else {
        draw.pick(&KINDS)
    };
    let weight = draw.float_between(0.0, 1.0);
    let children = if levels_left == 1 {
        Vec::new()
    } else {
        (0..FANOUT)
            .map(|i| node(draw, next_id, levels_left - 1, &format!("{name}.{i}")))
            .collect()
    };
    Value::Map(vec![
        ("id".into(), Value::U64(id)),
        ("name".into(), Value::String(name.into())),
        ("kind".into(), Value::String(kind.into())),
        ("weight".into(), Value::F64(weight)),
        ("children".into(), Value::Array(children)),
    ])
}

/// The chain is built from its end backwards so that building it needs no
/// recursion, whatever its length.
fn link(draw: &mut Draw, first_level: u64) -> Value {
    let tags: Vec<String> = (0..CHAIN_LINKS).map(|_| draw.hex(6)).collect();
    let mut next = Value::Null;
    for (level, tag) in (first_level..)
        .zip(tags)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
    {
        next = Value::Map(vec![
            ("level".into(), Value::U64(level)),
            ("tag".into(), Value::String(tag)),
            ("next".into(), next),
        ]);
    }
    next
}

/// Tree nodes plus chain links in a generated document.
pub(crate) fn records(value: &Value) -> u64 {
    fn tree_nodes(node: &Value) -> u64 {
        1 + match node.get("children") {
            Some(Value::Array(children)) => children.iter().map(tree_nodes).sum(),
            _ => 0,
        }
    }
    let tree = value.get("tree").map_or(0, tree_nodes);
    let mut links = 0;
    let mut at = value.get("chain");
    while let Some(link @ Value::Map(_)) = at {
        links += 1;
        at = link.get("next");
    }
    tree + links
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counted_nodes_match_the_planned_shape() {
        for scale in Scale::ALL {
            assert_eq!(records(&generate(5, scale)), count(scale), "{scale}");
        }
        assert_eq!(count(Scale::Full), 29_524 + 50);
    }

    #[test]
    fn depth_is_set_by_the_chain_at_both_scales() {
        for scale in Scale::ALL {
            assert_eq!(generate(5, scale).depth(), CHAIN_LINKS as usize + 1);
        }
    }
}
