//! The names of tag bytes, as the tag table of `docs/spec.md` (section 2)
//! gives them; `inspect` prints them.

use surp::wire;

/// The spec's name for the tag byte `tag`.
pub fn name(tag: u8) -> &'static str {
    match tag {
        0x00..=wire::FIXUINT_MAX => "fixuint",
        wire::FIXSTR..=0x9f => "fixstr",
        wire::FIXARRAY..=0xaf => "fixarray",
        wire::FIXMAP..=0xbf => "fixmap",
        wire::FIXBIN..=0xc7 => "fixbin",
        wire::STR8..=0xcb => "str",
        wire::BIN8..=0xcf => "bin",
        wire::ARRAY8..=0xd3 => "array",
        wire::MAP8..=0xd7 => "map",
        wire::UINT1..=0xdf => "uint",
        wire::NINT1..=0xe7 => "nint",
        wire::NULL => "null",
        wire::FALSE => "false",
        wire::TRUE => "true",
        wire::SOME => "some",
        wire::F16 => "f16",
        wire::F32 => "f32",
        wire::F64 => "f64",
        wire::WIDE_UINT => "wide uint",
        wire::WIDE_NINT => "wide nint",
        wire::RESERVED => "reserved",
        wire::DEDUP_MARKER => "dedup marker",
        wire::STR_REF1..=wire::STR_REF3 => "string reference",
        wire::SHAPE_REF1 | wire::SHAPE_REF2 => "shape reference",
        wire::FIXNINT_MIN..=0xff => "fixnint",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_tag_table() {
        let cases = [
            (0x00, "fixuint"),
            (0x7f, "fixuint"),
            (0x80, "fixstr"),
            (0xc7, "fixbin"),
            (0xcb, "str"),
            (0xcc, "bin"),
            (0xd7, "map"),
            (0xd8, "uint"),
            (0xe7, "nint"),
            (0xeb, "some"),
            (0xef, "wide uint"),
            (0xf1, "reserved"),
            (0xf5, "string reference"),
            (0xf7, "shape reference"),
            (0xf8, "fixnint"),
            (0xff, "fixnint"),
        ];
        for (tag, expected) in cases {
            assert_eq!(name(tag), expected, "tag {tag:#04x}");
        }
    }
}
