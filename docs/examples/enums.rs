use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Shape {
    Empty,                            // unit variant
    Circle(f32),                      // newtype variant
    Line(i32, i32),                   // tuple variant
    Rect { width: u16, height: u16 }, // struct variant
}

// Internally tagged and untagged enums are serde features that need a
// self-describing format; Surp is one.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(tag = "type")]
enum Event {
    Login { user: String },
    Logout { user: String, after_s: u32 },
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Id {
    Number(u64),
    Name(String),
}

fn main() -> Result<(), surp::Error> {
    // A unit variant is its name; the others are a map of one entry, name
    // to content, as in serde_json.
    assert_eq!(surp::to_vec(&Shape::Empty)?, b"\x85Empty");
    assert_eq!(
        surp::to_vec(&Shape::Circle(0.5))?,
        b"\xb1\x86Circle\xec\x00\x38"
    );
    assert_eq!(
        surp::to_vec(&Shape::Line(-1, 300))?,
        b"\xb1\x84Line\xa2\xff\xd9\x2c\x01"
    );
    let rect = Shape::Rect {
        width: 4,
        height: 3,
    };
    assert_eq!(
        surp::to_vec(&rect)?,
        b"\xb1\x84Rect\xb2\x85width\x04\x86height\x03"
    );
    assert_eq!(surp::from_slice::<Shape>(&surp::to_vec(&rect)?)?, rect);

    let event = Event::Logout {
        user: "ada".into(),
        after_s: 90,
    };
    assert_eq!(surp::from_slice::<Event>(&surp::to_vec(&event)?)?, event);

    let ids = vec![Id::Number(7), Id::Name("seven".into())];
    assert_eq!(surp::from_slice::<Vec<Id>>(&surp::to_vec(&ids)?)?, ids);
    Ok(())
}
