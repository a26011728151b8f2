//! `small_objects`: a user table, many flat six-field records; measures the
//! cost each format pays per record and per short string.

use super::draw::Draw;
use super::vocabulary::{FAMILY_NAMES, GIVEN_NAMES, MAIL_DOMAINS};
use crate::{Scale, Value};

pub(crate) fn count(scale: Scale) -> u64 {
    scale.pick(5_000, 100_000)
}

pub(crate) fn generate(seed: u64, scale: Scale) -> Value {
    let mut draw = Draw::new(seed);
    let users = (1..=count(scale)).map(|id| user(&mut draw, id)).collect();
    Value::Array(users)
}

fn user(draw: &mut Draw, id: u64) -> Value {
    let &(given, given_ascii) = draw.pick(GIVEN_NAMES);
    let &(family, family_ascii) = draw.pick(FAMILY_NAMES);
    let domain = draw.pick(MAIL_DOMAINS);
    // The address styles people actually pick, so the local parts vary in
    // length and shape like real ones.
    let local = match draw.weighted(&[5, 3, 2]) {
        0 => format!("{given_ascii}.{family_ascii}"),
        1 => format!("{}{family_ascii}", &given_ascii[..1]),
        _ => format!("{given_ascii}{}", draw.between(1, 99)),
    };
    Value::Map(vec![
        ("id".into(), Value::U64(id)),
        ("name".into(), Value::String(format!("{given} {family}"))),
        ("email".into(), Value::String(format!("{local}@{domain}"))),
        ("active".into(), Value::Bool(draw.chance(0.85))),
        // A score shown with two decimals, as most stored scores are.
        (
            "score".into(),
            Value::F64(draw.between(0, 10_000) as f64 / 100.0),
        ),
        ("level".into(), Value::U64(draw.between(1, 60))),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_user_has_the_six_fields_in_order() {
        let Value::Array(users) = generate(1, Scale::Ci) else {
            panic!("small_objects is an array");
        };
        assert_eq!(users.len() as u64, count(Scale::Ci));
        for user in &users {
            let Value::Map(fields) = user else {
                panic!("a user is a map")
            };
            let keys: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
            assert_eq!(keys, ["id", "name", "email", "active", "score", "level"]);
            let Value::String(email) = &fields[2].1 else {
                panic!("email is a string")
            };
            assert!(email.is_ascii() && email.contains('@'), "{email}");
        }
    }
}
