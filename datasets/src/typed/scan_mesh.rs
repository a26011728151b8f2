//! `scan_mesh`: an indexed triangle mesh as a 3D scanner writes it. Vertices
//! of `f32` arrays (position, normal, texture coordinates) whose values use
//! every bit of their significand, so that none of them is exact in a
//! narrower float, and faces of three `u32` indices: how a format carries
//! floats it cannot shorten, and fixed-size arrays.

use serde::{Deserialize, Serialize};

use crate::Scale;
use crate::generate::draw::Draw;
use crate::typed::TypedData;
#[cfg(feature = "protobuf")]
use crate::typed::protobuf::Invalid;

/// The whole dataset: one scanned mesh.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScanMesh {
    /// The vertices, in the scanner's row-by-row order.
    pub vertices: Vec<Vertex>,
    /// The triangles, as three indices into `vertices` each.
    pub faces: Vec<[u32; 3]>,
}

/// One scanned point.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Vertex {
    /// Where it is, in metres: east, up, north.
    pub position: [f32; 3],
    /// The surface's unit normal there.
    pub normal: [f32; 3],
    /// Its texture coordinates, each in `0..1`.
    pub uv: [f32; 2],
}

impl TypedData for ScanMesh {
    type Borrowed<'a> = ScanMesh;
    const HAS_STRINGS: bool = false;
    fn records(&self) -> usize {
        self.vertices.len()
    }
    #[cfg(feature = "protobuf")]
    type Proto = proto::ScanMeshMsg;
    #[cfg(feature = "protobuf")]
    fn to_proto(&self) -> Self::Proto {
        proto::to_proto(self)
    }
    #[cfg(feature = "protobuf")]
    fn from_proto(msg: Self::Proto) -> Result<Self, Invalid> {
        proto::from_proto(msg)
    }
}

/// The scanner's samples per row; both scales are whole rows.
const COLUMNS: u64 = 80;

pub(crate) fn count(scale: Scale) -> u64 {
    scale.pick(4_000, 100_000)
}

pub(crate) fn generate(seed: u64, scale: Scale) -> ScanMesh {
    let mut draw = Draw::new(seed);
    // Every float comes from `Draw::f32_between` or is redrawn by the same
    // rule, so none is exact in binary16 (a test checks it).
    let vertices = (0..count(scale))
        .map(|_| Vertex {
            // A room-sized box: 4 m across, 2.5 m high.
            position: [
                draw.f32_between(-2.0, 2.0),
                draw.f32_between(0.0, 2.5),
                draw.f32_between(-2.0, 2.0),
            ],
            normal: unit_vector(&mut draw),
            uv: [draw.f32_between(0.0, 1.0), draw.f32_between(0.0, 1.0)],
        })
        .collect();
    // The scanner's grid, two triangles per cell: about two faces per
    // vertex, as in any closed triangle mesh.
    let rows = count(scale) / COLUMNS;
    let mut faces = Vec::with_capacity((2 * (rows - 1) * (COLUMNS - 1)) as usize);
    for row in 0..rows - 1 {
        for column in 0..COLUMNS - 1 {
            let a = (row * COLUMNS + column) as u32;
            let (b, c) = (a + 1, a + COLUMNS as u32);
            faces.push([a, c, b]);
            faces.push([b, c, c + 1]);
        }
    }
    ScanMesh { vertices, faces }
}

/// A random direction: a point drawn uniformly in the cube around the
/// origin, kept if it lies inside the unit ball (so that the direction is
/// uniform), then normalized with plain IEEE-754 arithmetic (`sqrt` is
/// correctly rounded). Drawn again if a component came out exact in
/// binary16, by the rule of `Draw::f32_between`.
fn unit_vector(draw: &mut Draw) -> [f32; 3] {
    loop {
        let [x, y, z] = [(); 3].map(|()| draw.float_between(-1.0, 1.0));
        let squared = x * x + y * y + z * z;
        if !(1e-6..=1.0).contains(&squared) {
            continue;
        }
        let length = squared.sqrt();
        let normal = [x, y, z].map(|c| (c / length) as f32);
        if normal.iter().all(|c| c.to_bits() & 0x1fff != 0) {
            return normal;
        }
    }
}

/// `scan_mesh`'s Protobuf schema: its messages and the conversions between
/// them and the Rust types. Each fixed-size array is a packed `repeated`
/// field, whose length the conversion back checks.
#[cfg(feature = "protobuf")]
pub mod proto {
    use prost::Message;

    use super::{ScanMesh, Vertex};
    use crate::typed::protobuf::Invalid;

    /// `ScanMesh`.
    #[derive(Clone, PartialEq, Message)]
    pub struct ScanMeshMsg {
        /// The vertices.
        #[prost(message, repeated, tag = "1")]
        pub vertices: Vec<VertexMsg>,
        /// The faces.
        #[prost(message, repeated, tag = "2")]
        pub faces: Vec<FaceMsg>,
    }

    /// `Vertex`.
    #[derive(Clone, PartialEq, Message)]
    pub struct VertexMsg {
        /// Three floats.
        #[prost(float, repeated, tag = "1")]
        pub position: Vec<f32>,
        /// Three floats.
        #[prost(float, repeated, tag = "2")]
        pub normal: Vec<f32>,
        /// Two floats.
        #[prost(float, repeated, tag = "3")]
        pub uv: Vec<f32>,
    }

    /// A face, `[u32; 3]`.
    #[derive(Clone, PartialEq, Message)]
    pub struct FaceMsg {
        /// Three vertex indices.
        #[prost(uint32, repeated, tag = "1")]
        pub corners: Vec<u32>,
    }

    /// A repeated field back to its fixed-size array.
    fn array<T, const N: usize>(values: Vec<T>, name: &str) -> Result<[T; N], Invalid> {
        <[T; N]>::try_from(values)
            .map_err(|values| format!("`{name}` has {} values, not {N}", values.len()))
    }

    pub(super) fn to_proto(mesh: &ScanMesh) -> ScanMeshMsg {
        ScanMeshMsg {
            vertices: mesh
                .vertices
                .iter()
                .map(|v| VertexMsg {
                    position: v.position.to_vec(),
                    normal: v.normal.to_vec(),
                    uv: v.uv.to_vec(),
                })
                .collect(),
            faces: mesh
                .faces
                .iter()
                .map(|f| FaceMsg {
                    corners: f.to_vec(),
                })
                .collect(),
        }
    }

    pub(super) fn from_proto(msg: ScanMeshMsg) -> Result<ScanMesh, Invalid> {
        let vertices = msg
            .vertices
            .into_iter()
            .map(|v| {
                Ok(Vertex {
                    position: array(v.position, "position")?,
                    normal: array(v.normal, "normal")?,
                    uv: array(v.uv, "uv")?,
                })
            })
            .collect::<Result<_, Invalid>>()?;
        let faces = msg
            .faces
            .into_iter()
            .map(|f| array(f.corners, "corners"))
            .collect::<Result<_, Invalid>>()?;
        Ok(ScanMesh { vertices, faces })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::typed::TypedDataset;

    /// Whether binary16 holds `v` exactly, from the definition and
    /// independently of the generator's rule. A finite binary16 value is
    /// zero, a normal `1.m * 2^e` with 10 bits of `m` and `e` in -14..=15,
    /// or a subnormal `k * 2^-24` with `k` in 1..1024. As an `f32` (whose
    /// `m` has 23 bits), a normal in that exponent range is exact when its
    /// low 13 bits of `m` are zero. Below 2^-14, the value is
    /// `(2^23 + m) * 2^(e - 23)`, a whole multiple of 2^-24 exactly when
    /// the low `-e - 1` bits of `2^23 + m` are zero (for `e` = -24 that
    /// leaves only 2^-24 itself). `f32` subnormals are far below 2^-24,
    /// exponents above 15 overflow binary16, and infinities (exact) and
    /// NaNs (which the generator never makes) count as exact, so that the
    /// check can only be too strict.
    fn exact_in_binary16(v: f32) -> bool {
        let bits = v.to_bits();
        let biased = (bits >> 23) & 0xff;
        let m = bits & 0x7f_ffff;
        match biased {
            0xff => true,
            0 => m == 0,
            _ => {
                let e = biased as i32 - 127;
                match e {
                    16.. => false,
                    -14..=15 => m & 0x1fff == 0,
                    -24..=-15 => ((1 << 23) | m) & ((1 << (-e - 1)) - 1) == 0,
                    _ => false,
                }
            }
        }
    }

    #[test]
    fn the_binary16_check_follows_the_definition() {
        let pow2 = |e: i32| f32::from_bits(((127 + e) as u32) << 23);
        for exact in [
            0.0,
            -0.0,
            1.0,
            -2.5,
            0.1875,
            65_504.0,
            1.0 + pow2(-10),
            pow2(-14),
            pow2(-24),
            3.0 * pow2(-24),
            1_023.0 * pow2(-24),
            // 2^-15 + 2^-24: 14 low bits of the significand must be clear.
            (1.0 + pow2(-9)) * pow2(-15),
            f32::INFINITY,
        ] {
            assert!(exact_in_binary16(exact), "{exact:e}");
        }
        for not in [
            0.1,
            1.0 + pow2(-11),
            65_520.0,
            65_536.0,
            pow2(-25),
            3.0 * pow2(-25),
            1.25 * pow2(-23),
            // 2^-15 + 2^-25: its low 13 bits are clear, but not 14.
            (1.0 + pow2(-10)) * pow2(-15),
            f32::MIN_POSITIVE,
            4_095.5,
            -2.000_000_2,
        ] {
            assert!(!exact_in_binary16(not), "{not:e}");
        }
    }

    #[test]
    fn no_float_is_exact_in_binary16_and_faces_index_vertices() {
        let mesh = generate(TypedDataset::ScanMesh.seed(), Scale::Ci);
        assert_eq!(mesh.vertices.len() as u64, count(Scale::Ci));
        for v in &mesh.vertices {
            for c in v.position.iter().chain(&v.normal).chain(&v.uv) {
                assert!(!exact_in_binary16(*c), "{c:e} in {v:?}");
            }
            assert!(v.uv.iter().all(|c| (0.0..1.0).contains(c)), "{v:?}");
            let length: f32 = v.normal.iter().map(|c| c * c).sum();
            assert!((length - 1.0).abs() < 1e-5, "{v:?}");
        }
        let faces = mesh.faces.len();
        assert!(faces > mesh.vertices.len() * 3 / 2 && faces < mesh.vertices.len() * 2);
        assert!(
            mesh.faces
                .iter()
                .flatten()
                .all(|&i| (i as usize) < mesh.vertices.len())
        );
    }
}
