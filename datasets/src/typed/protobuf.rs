//! What every typed dataset's Protobuf schema shares (with the `protobuf`
//! feature): the empty message, and the checks that turn a decoded message
//! back into the dataset's Rust types.
//!
//! Each dataset declares its messages in its own file with prost's derive
//! macros (no `.proto` file, no protoc). They are what a team using
//! Protobuf would write for the same data: unit-only enums become protobuf
//! enums, enums with data become a `oneof` (with [`Empty`] for data-less
//! variants), signed integers that are often negative use zigzag
//! (`sint32`), and everything else uses the plain varint types. A benchmark
//! converts a dataset into its messages once, outside the clock, as a
//! program whose own types are the generated ones would hold them.

use prost::Message;

/// Why a decoded message does not convert back into the dataset's type.
pub type Invalid = String;

/// A message with no fields, for enum variants without data.
#[derive(Clone, Copy, PartialEq, Message)]
pub struct Empty {}

/// Three floats: mesh's `Vec3` and game_save's `Position`, which a schema
/// would declare once.
#[derive(Clone, Copy, PartialEq, Message)]
pub struct Vec3Msg {
    /// x.
    #[prost(float, tag = "1")]
    pub x: f32,
    /// y.
    #[prost(float, tag = "2")]
    pub y: f32,
    /// z.
    #[prost(float, tag = "3")]
    pub z: f32,
}

/// The value of a message field that the dataset's type requires.
pub(crate) fn present<T>(field: Option<T>, name: &str) -> Result<T, Invalid> {
    field.ok_or_else(|| format!("the message has no `{name}`"))
}

/// A varint field narrowed back to the dataset's smaller integer type.
pub(crate) fn narrow<T: TryFrom<u32> + TryFrom<i32>>(
    value: impl Into<i64>,
    name: &str,
) -> Result<T, Invalid> {
    let value: i64 = value.into();
    i32::try_from(value)
        .ok()
        .and_then(|v| T::try_from(v).ok())
        .or_else(|| u32::try_from(value).ok().and_then(|v| T::try_from(v).ok()))
        .ok_or_else(|| format!("`{name}` = {value} is out of range"))
}

/// A protobuf enum field read back as its enum.
pub(crate) fn enumeration<E: TryFrom<i32>>(value: i32, name: &str) -> Result<E, Invalid> {
    E::try_from(value).map_err(|_| format!("`{name}` = {value} is not a known value"))
}
