//! The typed datasets: derived Rust structs and enums, for the benchmark's
//! typed suite, where schema-bound formats (postcard, bitcode, compact
//! MessagePack, typed Protobuf) join the self-describing ones.
//!
//! Each dataset is a plain Rust type with `Serialize` and `Deserialize`
//! derived. Types that hold text are generic over the string type `S`:
//! `String` to decode into owned values, `&str` to decode by borrowing from
//! the input. They are generated from fixed seeds like the value datasets,
//! and pinned by the sha256 of their serde_json encoding (JSON is
//! deterministic for derived types: fields in declaration order, enums
//! externally tagged, floats in their shortest round-trip form) in
//! `datasets/typed-manifest.toml`.
//!
//! A dataset is one file: its types, its generator, its [`TypedData`]
//! implementation and, with the `protobuf` feature, its Protobuf schema
//! (messages and conversions; the `protobuf` module holds what the schemas
//! share). This module lists the datasets ([`TypedDataset`],
//! [`TypedValue`]) and hands a value to code generic over its Rust type
//! ([`TypedValue::visit`]).
//!
//! ```
//! use surp_datasets::Scale;
//! use surp_datasets::typed::{TypedDataset, TypedValue};
//!
//! let TypedValue::Mesh(mesh) = TypedDataset::Mesh.load(Scale::Ci).unwrap() else {
//!     unreachable!()
//! };
//! assert_eq!(mesh.triangles.len() as u64, TypedDataset::Mesh.planned_records(Scale::Ci));
//! ```

pub mod game_save;
pub mod game_updates;
pub mod log;
pub mod mesh;
#[cfg(feature = "protobuf")]
pub mod protobuf;
pub mod request_log;
pub mod scan_mesh;
pub mod world;

use std::fmt;
use std::fmt::Debug;
use std::str::FromStr;
use std::sync::OnceLock;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use sha2::{Digest, Sha256};

use crate::canonical::hex;
use crate::{DatasetError, Scale};

fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

pub use game_save::GameSaves;
pub use game_updates::GameUpdates;
pub use log::AccessLog;
pub use mesh::Mesh;
pub use request_log::RequestLog;
pub use scan_mesh::ScanMesh;
pub use world::World;

/// The version of the typed datasets, kept apart from
/// [`DATASET_VERSION`](crate::DATASET_VERSION) so that adding or changing a
/// typed dataset leaves the value suite's comparisons alone.
pub const TYPED_DATASET_VERSION: &str = "1.0.0";

/// One typed dataset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TypedDataset {
    /// Web-server access-log records ([`AccessLog`]).
    Log,
    /// A triangle mesh ([`Mesh`]).
    Mesh,
    /// Saved games ([`GameSaves`]).
    GameSave,
    /// Game-server state updates ([`GameUpdates`]).
    GameUpdates,
    /// The entities of a game world ([`World`]).
    World,
    /// A scanned mesh ([`ScanMesh`]).
    ScanMesh,
    /// HTTP requests ([`RequestLog`]).
    RequestLog,
}

/// A generated typed dataset, owned.
#[derive(Clone, Debug, PartialEq)]
pub enum TypedValue {
    /// [`TypedDataset::Log`].
    Log(AccessLog<String>),
    /// [`TypedDataset::Mesh`].
    Mesh(Mesh),
    /// [`TypedDataset::GameSave`].
    GameSave(GameSaves<String>),
    /// [`TypedDataset::GameUpdates`].
    GameUpdates(GameUpdates),
    /// [`TypedDataset::World`].
    World(World),
    /// [`TypedDataset::ScanMesh`].
    ScanMesh(ScanMesh),
    /// [`TypedDataset::RequestLog`].
    RequestLog(RequestLog<String>),
}

/// The Rust type of a typed dataset, and what a codec needs to know about
/// it besides serde: the form that borrows its strings and, with the
/// `protobuf` feature, its Protobuf messages.
pub trait TypedData: Serialize + DeserializeOwned + PartialEq + Debug + 'static {
    /// The same data with its strings borrowed from the input; `Self` for
    /// types without strings.
    type Borrowed<'a>: Deserialize<'a> + Serialize;
    /// Whether the type holds text, so that [`Self::Borrowed`] borrows
    /// something and a borrowed decode is worth measuring.
    const HAS_STRINGS: bool;
    /// The number of top-level records: log lines, triangles, saves, ticks,
    /// entities, vertices or requests.
    fn records(&self) -> usize;
    /// The dataset's Protobuf message.
    #[cfg(feature = "protobuf")]
    type Proto: prost::Message + Default + PartialEq;
    /// The dataset as its Protobuf message.
    #[cfg(feature = "protobuf")]
    fn to_proto(&self) -> Self::Proto;
    /// A Protobuf message back to the dataset.
    #[cfg(feature = "protobuf")]
    fn from_proto(msg: Self::Proto) -> Result<Self, protobuf::Invalid>;
}

/// Something to do with a typed dataset's value, whatever its Rust type
/// (see [`TypedValue::visit`]).
pub trait TypedVisitor<'v> {
    /// What the visit gives back.
    type Output;
    /// Does it with the value, as its own type.
    fn visit<T: TypedData>(self, value: &'v T) -> Self::Output;
}

impl TypedValue {
    /// Hands the value, as its own Rust type, to the visitor: the one match
    /// over the datasets that code generic over [`TypedData`] needs.
    pub fn visit<'v, V: TypedVisitor<'v>>(&'v self, visitor: V) -> V::Output {
        match self {
            TypedValue::Log(v) => visitor.visit(v),
            TypedValue::Mesh(v) => visitor.visit(v),
            TypedValue::GameSave(v) => visitor.visit(v),
            TypedValue::GameUpdates(v) => visitor.visit(v),
            TypedValue::World(v) => visitor.visit(v),
            TypedValue::ScanMesh(v) => visitor.visit(v),
            TypedValue::RequestLog(v) => visitor.visit(v),
        }
    }

    /// The value's serde_json encoding, whose sha256 pins the dataset.
    pub fn json(&self) -> Vec<u8> {
        struct Json;
        impl TypedVisitor<'_> for Json {
            type Output = Vec<u8>;
            fn visit<T: TypedData>(self, value: &T) -> Vec<u8> {
                serde_json::to_vec(value).expect("derived types without maps always serialize")
            }
        }
        self.visit(Json)
    }

    /// The number of top-level records: log lines, triangles, saves, ticks,
    /// entities, vertices or requests.
    pub fn records(&self) -> u64 {
        struct Records;
        impl TypedVisitor<'_> for Records {
            type Output = usize;
            fn visit<T: TypedData>(self, value: &T) -> usize {
                value.records()
            }
        }
        self.visit(Records) as u64
    }
}

impl TypedDataset {
    /// Every typed dataset, in the order reports list them.
    pub const ALL: [TypedDataset; 7] = [
        TypedDataset::Log,
        TypedDataset::Mesh,
        TypedDataset::GameSave,
        TypedDataset::GameUpdates,
        TypedDataset::World,
        TypedDataset::ScanMesh,
        TypedDataset::RequestLog,
    ];

    /// The name used in reports, manifests and on command lines.
    pub fn name(self) -> &'static str {
        match self {
            TypedDataset::Log => "log",
            TypedDataset::Mesh => "mesh",
            TypedDataset::GameSave => "game_save",
            TypedDataset::GameUpdates => "game_updates",
            TypedDataset::World => "world",
            TypedDataset::ScanMesh => "scan_mesh",
            TypedDataset::RequestLog => "request_log",
        }
    }

    /// The dataset with this name, if there is one.
    pub fn from_name(name: &str) -> Option<TypedDataset> {
        TypedDataset::ALL.into_iter().find(|d| d.name() == name)
    }

    /// One line: the shape, and what it stresses in a codec.
    pub fn description(self) -> &'static str {
        match self {
            TypedDataset::Log => {
                "access-log records: short strings from small pools, small integers, a unit enum, an Option"
            }
            TypedDataset::Mesh => "a triangle mesh: f32 triples inside small structs, nothing else",
            TypedDataset::GameSave => {
                "nested saved games: structs, Options, enums of every variant shape, arrays of small structs"
            }
            TypedDataset::GameUpdates => {
                "game-server ticks: many small integers, unit and struct enums, Vecs of entities, no strings"
            }
            TypedDataset::World => {
                "game-world entities: enums on every record (unit, newtype and struct variants), full-precision f32s, no strings"
            }
            TypedDataset::ScanMesh => {
                "a scanned mesh: f32 arrays whose values never narrow to binary16, u32 index triples, no strings"
            }
            TypedDataset::RequestLog => {
                "HTTP requests: many short strings in small nested structs, Options, Vecs of words"
            }
        }
    }

    /// Whether the type holds text, so that a decoder can borrow from its
    /// input (`S = &str`).
    pub fn has_strings(self) -> bool {
        match self {
            TypedDataset::Log => AccessLog::<String>::HAS_STRINGS,
            TypedDataset::Mesh => Mesh::HAS_STRINGS,
            TypedDataset::GameSave => GameSaves::<String>::HAS_STRINGS,
            TypedDataset::GameUpdates => GameUpdates::HAS_STRINGS,
            TypedDataset::World => World::HAS_STRINGS,
            TypedDataset::ScanMesh => ScanMesh::HAS_STRINGS,
            TypedDataset::RequestLog => RequestLog::<String>::HAS_STRINGS,
        }
    }

    /// The fixed seed of the generator (the same at both scales).
    pub fn seed(self) -> u64 {
        // "SURT" (Surp, typed) in the high bytes, the position in the low ones.
        const BASE: u64 = 0x5355_5254_0000_0000;
        match self {
            TypedDataset::Log => BASE + 1,
            TypedDataset::Mesh => BASE + 2,
            TypedDataset::GameSave => BASE + 3,
            TypedDataset::GameUpdates => BASE + 4,
            TypedDataset::World => BASE + 5,
            TypedDataset::ScanMesh => BASE + 6,
            TypedDataset::RequestLog => BASE + 7,
        }
    }

    /// The number of top-level records at this scale.
    pub fn planned_records(self, scale: Scale) -> u64 {
        match self {
            TypedDataset::Log => log::count(scale),
            TypedDataset::Mesh => mesh::count(scale),
            TypedDataset::GameSave => game_save::count(scale),
            TypedDataset::GameUpdates => game_updates::count(scale),
            TypedDataset::World => world::count(scale),
            TypedDataset::ScanMesh => scan_mesh::count(scale),
            TypedDataset::RequestLog => request_log::count(scale),
        }
    }

    /// The dataset built from its seed at this scale, unchecked. Use
    /// [`TypedDataset::load`] to also check it against the manifest.
    pub fn generate(self, scale: Scale) -> TypedValue {
        let seed = self.seed();
        match self {
            TypedDataset::Log => TypedValue::Log(log::generate(seed, scale)),
            TypedDataset::Mesh => TypedValue::Mesh(mesh::generate(seed, scale)),
            TypedDataset::GameSave => TypedValue::GameSave(game_save::generate(seed, scale)),
            TypedDataset::GameUpdates => {
                TypedValue::GameUpdates(game_updates::generate(seed, scale))
            }
            TypedDataset::World => TypedValue::World(world::generate(seed, scale)),
            TypedDataset::ScanMesh => TypedValue::ScanMesh(scan_mesh::generate(seed, scale)),
            TypedDataset::RequestLog => TypedValue::RequestLog(request_log::generate(seed, scale)),
        }
    }

    /// Generates the dataset and checks the sha256 of its JSON encoding
    /// against `datasets/typed-manifest.toml`.
    pub fn load(self, scale: Scale) -> Result<TypedValue, DatasetError> {
        let value = self.generate(scale);
        let entry = typed_manifest()?
            .iter()
            .find(|e| e.dataset == self.name() && e.scale == scale.name())
            .ok_or_else(|| DatasetError::InvalidManifest {
                reason: format!("typed-manifest.toml has no entry for `{self}` at scale `{scale}`"),
            })?;
        let actual = sha256_hex(&value.json());
        if actual != entry.sha256 {
            return Err(DatasetError::TypedMismatch {
                dataset: self.name(),
                scale,
                expected: entry.sha256.clone(),
                actual,
            });
        }
        Ok(value)
    }
}

impl fmt::Display for TypedDataset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for TypedDataset {
    type Err = DatasetError;

    fn from_str(name: &str) -> Result<TypedDataset, DatasetError> {
        TypedDataset::from_name(name).ok_or_else(|| DatasetError::UnknownDataset {
            name: name.to_owned(),
        })
    }
}

/// What `datasets/typed-manifest.toml` pins for one typed dataset at one
/// scale.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypedEntry {
    /// The dataset's name.
    pub dataset: String,
    /// The scale's name.
    pub scale: String,
    /// The generator's seed.
    pub seed: u64,
    /// Top-level records.
    pub records: u64,
    /// Bytes of the serde_json encoding.
    pub json_len: u64,
    /// sha256 of the serde_json encoding, lowercase hex.
    pub sha256: String,
}

impl TypedEntry {
    /// Describes a freshly generated value.
    pub fn describe(dataset: TypedDataset, scale: Scale, value: &TypedValue) -> TypedEntry {
        let json = value.json();
        TypedEntry {
            dataset: dataset.name().to_owned(),
            scale: scale.name().to_owned(),
            seed: dataset.seed(),
            records: value.records(),
            json_len: json.len() as u64,
            sha256: sha256_hex(&json),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTypedManifest {
    version: String,
    entry: Vec<TypedEntry>,
}

const TYPED_MANIFEST_TOML: &str = include_str!("../../typed-manifest.toml");

/// The committed typed manifest's entries, parsed once.
pub fn typed_manifest() -> Result<&'static [TypedEntry], DatasetError> {
    static PARSED: OnceLock<Result<Vec<TypedEntry>, String>> = OnceLock::new();
    let parsed = PARSED.get_or_init(|| {
        let raw: RawTypedManifest =
            toml::from_str(TYPED_MANIFEST_TOML).map_err(|e| e.to_string())?;
        if raw.version != TYPED_DATASET_VERSION {
            return Err(format!(
                "typed-manifest.toml describes version {}, but the crate is at {}; \
                 run the write-manifest example",
                raw.version, TYPED_DATASET_VERSION
            ));
        }
        Ok(raw.entry)
    });
    parsed
        .as_deref()
        .map_err(|reason| DatasetError::InvalidManifest {
            reason: reason.clone(),
        })
}

/// Every typed dataset at every scale, freshly generated and described: what
/// the `write-manifest` example writes.
pub fn regenerate_typed_manifest() -> String {
    let mut out = String::from(
        "# The pinned description of every typed benchmark dataset at every scale.\n\
         # Written by `cargo run --release -p surp-datasets --example write-manifest`;\n\
         # do not edit by hand. sha256 and json_len are of the serde_json encoding.\n",
    );
    out.push_str(&format!("version = \"{TYPED_DATASET_VERSION}\"\n"));
    for dataset in TypedDataset::ALL {
        for scale in Scale::ALL {
            let e = TypedEntry::describe(dataset, scale, &dataset.generate(scale));
            out.push_str(&format!(
                "\n[[entry]]\ndataset = \"{}\"\nscale = \"{}\"\nseed = {:#018x}\nrecords = {}\n\
                 json_len = {}\nsha256 = \"{}\"\n",
                e.dataset, e.scale, e.seed, e.records, e.json_len, e.sha256
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_typed_dataset_matches_its_pin_at_ci_scale() {
        for dataset in TypedDataset::ALL {
            let value = dataset.load(Scale::Ci).unwrap();
            assert_eq!(
                value.records(),
                dataset.planned_records(Scale::Ci),
                "{dataset}"
            );
        }
    }

    #[test]
    fn the_committed_typed_manifest_is_what_the_generators_write() {
        assert_eq!(regenerate_typed_manifest(), TYPED_MANIFEST_TOML);
    }

    #[test]
    fn names_round_trip_and_seeds_differ() {
        for (i, dataset) in TypedDataset::ALL.into_iter().enumerate() {
            assert_eq!(dataset.name().parse::<TypedDataset>().unwrap(), dataset);
            assert!(
                TypedDataset::ALL[..i]
                    .iter()
                    .all(|d| d.seed() != dataset.seed())
            );
        }
        assert!("canada".parse::<TypedDataset>().is_err());
    }

    #[test]
    fn text_borrows_from_json_without_escapes() {
        // The borrowed-decode rows need every string to be borrowable from
        // every format, JSON included: no character JSON must escape.
        struct BorrowFromJson;
        impl TypedVisitor<'_> for BorrowFromJson {
            type Output = ();
            fn visit<T: TypedData>(self, value: &T) {
                let json = serde_json::to_vec(value).unwrap();
                serde_json::from_slice::<T::Borrowed<'_>>(&json).unwrap();
            }
        }
        for dataset in TypedDataset::ALL.into_iter().filter(|d| d.has_strings()) {
            dataset.generate(Scale::Ci).visit(BorrowFromJson);
        }
    }

    #[cfg(feature = "protobuf")]
    #[test]
    fn every_typed_dataset_converts_to_its_messages_and_back() {
        struct ThroughProto;
        impl TypedVisitor<'_> for ThroughProto {
            type Output = ();
            fn visit<T: TypedData>(self, value: &T) {
                use prost::Message as _;
                let bytes = value.to_proto().encode_to_vec();
                let message = T::Proto::decode(bytes.as_slice()).unwrap();
                assert!(T::from_proto(message).unwrap() == *value);
            }
        }
        for dataset in TypedDataset::ALL {
            dataset.generate(Scale::Ci).visit(ThroughProto);
        }
    }
}
