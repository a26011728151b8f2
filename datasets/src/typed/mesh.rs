//! `mesh`: a triangle mesh of a rolling terrain. Nothing but `f32` triples
//! inside small structs: how a format carries floats and per-struct
//! framing.

use serde::{Deserialize, Serialize};

use crate::Scale;
use crate::generate::draw::Draw;
use crate::typed::TypedData;
#[cfg(feature = "protobuf")]
use crate::typed::protobuf::Invalid;

/// The whole dataset: one mesh.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mesh {
    /// The triangles, row by row across the terrain.
    pub triangles: Vec<Triangle>,
}

/// One face: three corners and the face normal.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Triangle {
    /// First corner.
    pub v0: Vec3,
    /// Second corner.
    pub v1: Vec3,
    /// Third corner.
    pub v2: Vec3,
    /// The unit normal, `(v1 - v0) x (v2 - v0)` normalized.
    pub normal: Vec3,
}

/// A point or direction in 3D.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Vec3 {
    /// East.
    pub x: f32,
    /// Up.
    pub y: f32,
    /// North.
    pub z: f32,
}

impl TypedData for Mesh {
    type Borrowed<'a> = Mesh;
    const HAS_STRINGS: bool = false;
    fn records(&self) -> usize {
        self.triangles.len()
    }
    #[cfg(feature = "protobuf")]
    type Proto = proto::MeshMsg;
    #[cfg(feature = "protobuf")]
    fn to_proto(&self) -> Self::Proto {
        proto::to_proto(self)
    }
    #[cfg(feature = "protobuf")]
    fn from_proto(msg: Self::Proto) -> Result<Self, Invalid> {
        proto::from_proto(msg)
    }
}

pub(crate) fn count(scale: Scale) -> u64 {
    scale.pick(2_000, 50_000)
}

pub(crate) fn generate(seed: u64, scale: Scale) -> Mesh {
    let mut draw = Draw::new(seed);
    // A grid of jittered height samples, two triangles per cell. The jitter
    // keeps coordinates off round numbers, as scanned or simulated meshes
    // are, so no format gets to store them in fewer bits by luck.
    let cells = count(scale) / 2;
    let columns = 100u64;
    let rows = cells.div_ceil(columns);
    let point = |draw: &mut Draw, column: u64, row: u64| {
        let jitter = |draw: &mut Draw| (draw.unit_f32() - 0.5) * 0.02;
        Vec3 {
            x: column as f32 * 0.1 + jitter(draw),
            y: draw.unit_f32() * 3.0 + (column % 17) as f32 * 0.05,
            z: row as f32 * 0.1 + jitter(draw),
        }
    };
    let mut triangles = Vec::with_capacity(count(scale) as usize);
    'grid: for row in 0..rows {
        for column in 0..columns {
            let a = point(&mut draw, column, row);
            let b = point(&mut draw, column + 1, row);
            let c = point(&mut draw, column, row + 1);
            let d = point(&mut draw, column + 1, row + 1);
            for [v0, v1, v2] in [[a, c, b], [b, c, d]] {
                if triangles.len() as u64 == count(scale) {
                    break 'grid;
                }
                triangles.push(Triangle {
                    v0,
                    v1,
                    v2,
                    normal: normal(v0, v1, v2),
                });
            }
        }
    }
    Mesh { triangles }
}

/// Plain IEEE-754 arithmetic only (`sqrt` is correctly rounded), so the
/// normals are the same bits on every platform.
fn normal(v0: Vec3, v1: Vec3, v2: Vec3) -> Vec3 {
    let (ax, ay, az) = (v1.x - v0.x, v1.y - v0.y, v1.z - v0.z);
    let (bx, by, bz) = (v2.x - v0.x, v2.y - v0.y, v2.z - v0.z);
    let (x, y, z) = (ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx);
    let length = (x * x + y * y + z * z).sqrt();
    Vec3 {
        x: x / length,
        y: y / length,
        z: z / length,
    }
}

/// `mesh`'s Protobuf schema: its messages and the conversions between them
/// and the Rust types.
#[cfg(feature = "protobuf")]
pub mod proto {
    use prost::Message;

    use super::{Mesh, Triangle, Vec3};
    use crate::typed::protobuf::{Invalid, Vec3Msg, present};

    /// `Mesh`.
    #[derive(Clone, PartialEq, Message)]
    pub struct MeshMsg {
        /// The triangles.
        #[prost(message, repeated, tag = "1")]
        pub triangles: Vec<TriangleMsg>,
    }

    /// `Triangle`.
    #[derive(Clone, Copy, PartialEq, Message)]
    pub struct TriangleMsg {
        /// First corner.
        #[prost(message, optional, tag = "1")]
        pub v0: Option<Vec3Msg>,
        /// Second corner.
        #[prost(message, optional, tag = "2")]
        pub v1: Option<Vec3Msg>,
        /// Third corner.
        #[prost(message, optional, tag = "3")]
        pub v2: Option<Vec3Msg>,
        /// The normal.
        #[prost(message, optional, tag = "4")]
        pub normal: Option<Vec3Msg>,
    }

    pub(super) fn to_proto(mesh: &Mesh) -> MeshMsg {
        let v = |v: Vec3| {
            Some(Vec3Msg {
                x: v.x,
                y: v.y,
                z: v.z,
            })
        };
        MeshMsg {
            triangles: mesh
                .triangles
                .iter()
                .map(|t| TriangleMsg {
                    v0: v(t.v0),
                    v1: v(t.v1),
                    v2: v(t.v2),
                    normal: v(t.normal),
                })
                .collect(),
        }
    }

    pub(super) fn from_proto(msg: MeshMsg) -> Result<Mesh, Invalid> {
        let v = |v: Option<Vec3Msg>, name| {
            present(v, name).map(|v| Vec3 {
                x: v.x,
                y: v.y,
                z: v.z,
            })
        };
        let triangles = msg
            .triangles
            .into_iter()
            .map(|t| {
                Ok(Triangle {
                    v0: v(t.v0, "v0")?,
                    v1: v(t.v1, "v1")?,
                    v2: v(t.v2, "v2")?,
                    normal: v(t.normal, "normal")?,
                })
            })
            .collect::<Result<_, Invalid>>()?;
        Ok(Mesh { triangles })
    }
}
