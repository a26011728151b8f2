//! Checks of `surp::tokens`, the walk that `inspect` and `stats` are built
//! on, against the decoder, on the CLI's hostile inputs.

#[cfg(test)]
mod tests {
    /// What the decoder itself says about `bytes`: its result before
    /// `from_slice` adds the path to the failing value, which the walker,
    /// reading tokens, has no notion of.
    fn decoder(bytes: &[u8]) -> Result<surp::Value, surp::Error> {
        use serde::Deserialize;
        let mut de = surp::Deserializer::from_slice(bytes);
        let value = surp::Value::deserialize(&mut de)?;
        de.end()?;
        Ok(value)
    }

    use crate::testing::{hostile_inputs, seed_documents};
    use surp::Error;
    use surp::tokens::*;

    fn walk(bytes: &[u8]) -> Result<Vec<Token<'_>>, Error> {
        Tokens::new(bytes).collect()
    }

    #[test]
    fn tokens_cover_every_byte_in_order() {
        let bytes =
            surp::to_vec(&serde_json::json!({"id": 7, "tags": ["a", "b"], "x": 1.5})).unwrap();
        let tokens = walk(&bytes).unwrap();
        let mut next = 0;
        for t in &tokens {
            assert_eq!(t.offset, next);
            next += t.bytes.len();
        }
        assert_eq!(next, bytes.len());
        let places: Vec<_> = tokens.iter().map(|t| (t.place, t.depth)).collect();
        assert_eq!(
            places,
            [
                (Place::Root, 0),
                (Place::Key, 1),
                (Place::Value, 1),
                (Place::Key, 1),
                (Place::Value, 1),
                (Place::Element, 2),
                (Place::Element, 2),
                (Place::Key, 1),
                (Place::Value, 1),
            ]
        );
    }

    #[test]
    fn everything_inside_a_key_is_marked_as_key() {
        // {[1]: 2}
        let tokens = walk(&[0xb1, 0xa1, 0x01, 0x02]).unwrap();
        let in_key: Vec<_> = tokens.iter().map(|t| t.in_key).collect();
        assert_eq!(in_key, [false, true, true, false]);
    }

    #[test]
    fn references_resolve_to_what_they_stand_for() {
        let records = crate::json::parse(
            br#"[{"name": "surp", "kind": "format"}, {"name": "dedup", "kind": "format"}]"#,
        )
        .unwrap();
        let bytes = surp_dedup::to_vec(&records).unwrap();
        let tokens = walk(&bytes).unwrap();
        let shape = tokens
            .iter()
            .find_map(|t| match t.item {
                Item::ShapeRef { index, count } => Some((index, count)),
                _ => None,
            })
            .expect("the second record is a shape reference");
        assert_eq!(shape, (0, 2));
        assert!(tokens.iter().any(|t| t.item
            == Item::StrRef {
                index: 3,
                text: "format"
            }));
    }

    #[test]
    fn a_truncated_document_fails_where_the_decoder_does() {
        let bytes = surp::to_vec(&serde_json::json!({"name": "surp"})).unwrap();
        for cut in 0..bytes.len() {
            let ours = walk(&bytes[..cut]).unwrap_err();
            let theirs = decoder(&bytes[..cut]).unwrap_err();
            assert_eq!(ours.to_string(), theirs.to_string(), "cut at {cut}");
        }
    }

    #[test]
    fn a_streaming_walk_goes_on_until_the_input_runs_out() {
        // A map of 6 entries cut after its first key.
        let bytes = [0xb6, 0x82, b'i', b'd', 0x07, 0x84, b'n'];
        let mut walker = Tokens::streaming(&bytes);
        let mut items = Vec::new();
        let err = loop {
            match walker.next() {
                Some(Ok(token)) => items.push(token.item),
                Some(Err(e)) => break e,
                None => panic!("a truncated document must fail"),
            }
        };
        assert_eq!(
            items,
            [
                Item::Map(6),
                Item::Str {
                    text: "id",
                    slot: None
                },
                Item::Integer(7.into())
            ]
        );
        assert_eq!(err.to_string(), "unexpected end of input at byte 7");
        assert_eq!(walker.offset(), 5);
        // The strict walk fails at the map, as `surp::from_slice` does.
        let strict = walk(&bytes).unwrap_err();
        assert_eq!(
            strict.to_string(),
            "map declares 6 entries but the input is too short to hold them at byte 0"
        );
    }

    #[test]
    fn a_streaming_walk_survives_the_largest_counts() {
        for bytes in [
            &[0xd7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01][..],
            &[0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
            &[0xcb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
        ] {
            let last = Tokens::streaming(bytes).last().map(|t| t.map(|t| t.place));
            assert_eq!(
                last.unwrap().unwrap_err().to_string(),
                "unexpected end of input at byte 10"
            );
        }
    }

    /// Builds the value the tokens from `at` on stand for.
    fn rebuild(tokens: &[Token<'_>], at: &mut usize, tables: Option<&Tables<'_>>) -> surp::Value {
        use surp::Value;
        let token = tokens[*at];
        *at += 1;
        match token.item {
            Item::DedupMarker | Item::Some => rebuild(tokens, at, tables),
            Item::Null => Value::Null,
            Item::Bool(b) => Value::Bool(b),
            Item::Integer(i) => Value::Integer(i),
            Item::F16(v) | Item::F32(v) => Value::Float(v.into()),
            Item::F64(v) => Value::Float(v),
            Item::Str { text, .. } | Item::StrRef { text, .. } => Value::String(text.into()),
            Item::Bytes(b) => Value::Bytes(b.to_vec()),
            Item::Array(n) => Value::Array((0..n).map(|_| rebuild(tokens, at, tables)).collect()),
            Item::Map(n) => Value::Map(
                (0..n)
                    .map(|_| (rebuild(tokens, at, tables), rebuild(tokens, at, tables)))
                    .collect(),
            ),
            Item::ShapeRef { index, .. } => {
                let keys = tables.and_then(|t| t.shape(index)).unwrap();
                Value::Map(
                    keys.iter()
                        .map(|&k| (Value::from(k), rebuild(tokens, at, tables)))
                        .collect(),
                )
            }
        }
    }

    fn assert_agrees(bytes: &[u8]) {
        let mut walker = Tokens::new(bytes);
        let mut tokens = Vec::new();
        let ours = loop {
            match walker.next() {
                Some(Ok(token)) => tokens.push(token),
                Some(Err(e)) => break Err(e),
                None => break Ok(()),
            }
        };
        let theirs = decoder(bytes);
        match (&ours, &theirs) {
            (Ok(()), Ok(value)) => {
                let covered: usize = tokens.iter().map(|t| t.bytes.len()).sum();
                assert_eq!(covered, bytes.len(), "{bytes:02x?}");
                // Debug, so that NaN compares equal to itself.
                let rebuilt = rebuild(&tokens, &mut 0, walker.tables());
                assert_eq!(format!("{rebuilt:?}"), format!("{value:?}"), "{bytes:02x?}");
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{bytes:02x?}"),
            _ => panic!(
                "walker {:?} but decoder {:?} on {bytes:02x?}",
                ours.map(|_| ()),
                theirs.map(|_| ())
            ),
        }
    }

    #[test]
    fn invalid_utf8_is_placed_at_the_bad_byte_of_the_payload() {
        // A key literal "nam\x84" in a deduplicated document: byte 7 is bad.
        let bytes = [0xf2, 0xb1, 0x84, b'n', b'a', b'm', 0x84, 0x01];
        let mut walker = Tokens::new(&bytes);
        let err = loop {
            match walker.next() {
                Some(Ok(_)) => {}
                Some(Err(e)) => break e,
                None => panic!("invalid UTF-8 must fail"),
            }
        };
        assert_eq!(err.to_string(), "invalid UTF-8 in a string at byte 6");
        let theirs = decoder(&bytes).unwrap_err();
        assert_eq!(err.to_string(), theirs.to_string());
    }

    #[test]
    fn agrees_with_the_decoder_on_random_valid_and_mutated_documents() {
        for doc in seed_documents() {
            assert_agrees(&doc);
        }
        for input in hostile_inputs(0x5eed_cafe_f00d_1234, 20_000, 3_000) {
            assert_agrees(&input);
        }
    }

    #[test]
    fn agrees_with_the_decoder_on_the_invalid_test_vectors() {
        for (hex, error) in [
            ("", "unexpected end of input at byte 0"),
            ("f1", "reserved tag byte 0xf1 at byte 0"),
            (
                "f2f70001",
                "reference to shape 256, but none is defined yet at byte 1",
            ),
            (
                "f2a2f30083616263",
                "reference to string slot 0, but none is defined yet at byte 2",
            ),
            (
                "a1f2",
                "deduplication marker is only allowed at the start of a document at byte 1",
            ),
            ("83eda080", "invalid UTF-8 in a string at byte 1"),
            (
                "ef080000000000000000",
                "wide integer with invalid length 8 (expected 9 to 16 bytes) at byte 0",
            ),
        ] {
            let bytes: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
            assert_eq!(walk(&bytes).unwrap_err().to_string(), error);
            assert_agrees(&bytes);
        }
        let deep = [vec![0xa1; 129], vec![0]].concat();
        assert_agrees(&deep);
        let some = [vec![0xeb; 129], vec![0xe8]].concat();
        assert_agrees(&some);
    }

    #[test]
    fn the_walker_stops_after_an_error() {
        let mut walker = Tokens::new(&[0xa2, 0x01]);
        assert!(walker.next().unwrap().is_err());
        assert_eq!(walker.offset(), 0);
        assert!(walker.next().is_none());
    }
}
