use serde::{Deserialize, Serialize};

// Version 2 of a record added a field.
#[derive(Serialize)]
struct UserV2 {
    id: u32,
    name: String,
    email: String,
}

// Version 1 readers skip what they do not know.
#[derive(Deserialize, Debug, PartialEq)]
struct UserV1 {
    id: u32,
    name: String,
}

// Version 3 readers fill in a default for a field older writers lack.
#[derive(Deserialize, Debug, PartialEq)]
struct UserV3 {
    id: u32,
    name: String,
    #[serde(default)]
    admin: bool,
}

fn main() -> Result<(), surp::Error> {
    let bytes = surp::to_vec(&UserV2 {
        id: 1,
        name: "Ada".into(),
        email: "ada@example.org".into(),
    })?;

    let old: UserV1 = surp::from_slice(&bytes)?;
    assert_eq!(
        old,
        UserV1 {
            id: 1,
            name: "Ada".into()
        }
    );

    // An array is read as a struct too, fields in order.
    let tuple = surp::to_vec(&(2u32, "Grace"))?;
    assert_eq!(
        surp::from_slice::<UserV1>(&tuple)?,
        UserV1 {
            id: 2,
            name: "Grace".into()
        }
    );

    let new: UserV3 = surp::from_slice(&bytes)?;
    assert_eq!(
        new,
        UserV3 {
            id: 1,
            name: "Ada".into(),
            admin: false
        }
    );
    Ok(())
}
