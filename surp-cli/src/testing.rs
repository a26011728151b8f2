//! Test inputs shared by the unit tests: seeded random bytes and mutations
//! of documents that hold every kind of token, plain and deduplicated.

/// A small seeded generator, so a failure can be replayed.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Up to `max_len` random bytes.
    pub fn bytes(&mut self, max_len: usize) -> Vec<u8> {
        let len = self.below(max_len + 1);
        (0..len).map(|_| self.next() as u8).collect()
    }

    /// `doc` with one to three bytes changed, inserted or removed.
    pub fn mutate(&mut self, doc: &[u8]) -> Vec<u8> {
        let mut bytes = doc.to_vec();
        for _ in 0..1 + self.below(3) {
            if bytes.is_empty() {
                break;
            }
            let at = self.below(bytes.len());
            match self.below(3) {
                0 => bytes[at] = self.next() as u8,
                1 => bytes.insert(at, self.next() as u8),
                _ => {
                    bytes.remove(at);
                }
            }
        }
        bytes
    }
}

/// Documents with every kind of token: strings that take slots, string and
/// shape references, integer keys, byte strings, wide integers, floats of
/// each width, NaN, and a `some` marker.
pub fn seed_documents() -> Vec<Vec<u8>> {
    use surp::Value;
    let records = crate::json::parse(
        br#"[{"name": "surp", "kind": "format", "n": [1, -300, 1.5, 0.1, null, true]},
             {"name": "dedup", "kind": "format", "n": {"format": "surp"}},
             {"name": "surp", "kind": "format", "n": []}]"#,
    )
    .expect("valid JSON");
    let odd = Value::Map(vec![
        (1.into(), Value::Bytes(vec![1, 2, 3])),
        ("wide".into(), u128::MAX.into()),
        ("neg".into(), i128::MIN.into()),
        (
            "nan".into(),
            Value::from(vec![Value::from("wide"), f64::NAN.into()]),
        ),
    ]);
    let encode = |v: &Value| surp::to_vec(v).expect("encodes");
    let dedup = |v: &Value| surp_dedup::to_vec(v).expect("encodes");
    vec![
        encode(&records),
        dedup(&records),
        encode(&odd),
        dedup(&Value::from(vec![odd.clone(), odd])),
        // An array holding Some(None), then 5.
        vec![0xa2, 0xeb, 0xe8, 0x05],
    ]
}

/// Hostile inputs, reproducibly from `seed`: `random` random byte strings of
/// up to 32 bytes, then for each seed document every prefix and `mutations`
/// mutated copies.
pub fn hostile_inputs(seed: u64, random: usize, mutations: usize) -> Vec<Vec<u8>> {
    let mut rng = XorShift(seed);
    let mut inputs: Vec<Vec<u8>> = (0..random).map(|_| rng.bytes(32)).collect();
    for doc in seed_documents() {
        inputs.extend((0..=doc.len()).map(|cut| doc[..cut].to_vec()));
        inputs.extend((0..mutations).map(|_| rng.mutate(&doc)));
    }
    inputs
}
