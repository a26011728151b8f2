//! The names of tag bytes, as the tag table of `docs/spec.md` (section 2)
//! gives them; `inspect` prints them. The table itself is
//! `surp::wire::Class`.

use surp::wire::Class;

/// The spec's name for the tag byte `tag`.
pub fn name(tag: u8) -> &'static str {
    Class::of(tag).name()
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
            (0xc0, "fixshape"),
            (0xc7, "fixshape"),
            (0xcb, "str"),
            (0xcc, "bin"),
            (0xd7, "map"),
            (0xd8, "uint"),
            (0xe7, "nint"),
            (0xeb, "some"),
            (0xef, "wide uint"),
            (0xf1, "session prefix"),
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
