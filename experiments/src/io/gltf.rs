//! glTF 2.0 scenes of instanced meshes (`EXT_mesh_gpu_instancing`), written with `gltf-json`:
//! a `.gltf` JSON file and its binary buffer in a `.bin` file beside it.
//!
//! The scene holds one static mesh (a terrain, say) and one node per instanced class: the
//! node carries the class's placeholder mesh and, under `EXT_mesh_gpu_instancing`, the
//! accessors `TRANSLATION` (VEC3), `ROTATION` (VEC4, unit quaternions `x, y, z, w`) and
//! `SCALE` (VEC3), all `FLOAT`, one element per instance. A class without instances gets a
//! node with its name and nothing else (glTF accessors cannot be empty). Coordinates are
//! written as given: the caller maps its world into glTF's right-handed, `+y`-up frame.
//!
//! Buffer layout: each array is one buffer view, 4-byte aligned, in the order meshes
//! (positions, normals, indices), then per class translations, rotations, scales. Vertex
//! views have the `ARRAY_BUFFER` target, index views `ELEMENT_ARRAY_BUFFER`, instance views
//! none (they are not vertex attributes).

use gltf_json as json;
use json::validation::{Checked, USize64};
use json::{Index, Root};
use std::collections::BTreeMap;

/// The extension that instances a node's mesh.
pub const INSTANCING: &str = "EXT_mesh_gpu_instancing";

/// A triangle mesh: positions, per-vertex unit normals, counter-clockwise triangles (seen
/// from the side the normals point to).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TriangleMesh {
    /// Vertex positions.
    pub positions: Vec<[f32; 3]>,
    /// Vertex normals (unit length).
    pub normals: Vec<[f32; 3]>,
    /// Three vertex indices per triangle.
    pub indices: Vec<u32>,
}

/// A named mesh with a colour, drawn once (the terrain).
#[derive(Debug, Clone, PartialEq)]
pub struct StaticMesh {
    /// The node's and mesh's name.
    pub name: String,
    /// Linear RGB base colour.
    pub color: [f32; 3],
    /// The geometry.
    pub mesh: TriangleMesh,
}

/// A mesh drawn once per instance.
#[derive(Debug, Clone, PartialEq)]
pub struct InstancedMesh {
    /// The node's and mesh's name (the class).
    pub name: String,
    /// Linear RGB base colour.
    pub color: [f32; 3],
    /// The placeholder geometry.
    pub mesh: TriangleMesh,
    /// Per instance: translation.
    pub translations: Vec<[f32; 3]>,
    /// Per instance: rotation `[x, y, z, w]`.
    pub rotations: Vec<[f32; 4]>,
    /// Per instance: scale.
    pub scales: Vec<[f32; 3]>,
}

/// Why a scene cannot be written.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GltfError {
    /// Per-instance arrays of different lengths, or mesh arrays that do not match.
    #[error("{0}")]
    Inconsistent(String),
    /// A value that is not finite as a 32-bit float: a viewer could not place the instance,
    /// and the accessor's bounds would be `null`.
    #[error("{what}: value {index} is {value} as a 32-bit float; glTF needs finite numbers")]
    NonFinite {
        /// The array: `class 'rock' translations`, `mesh 'terrain' positions`.
        what: String,
        /// Which value of the flattened array (0-based).
        index: usize,
        /// The value.
        value: f32,
    },
    /// The binary buffer would pass what glTF can address (4 GiB).
    #[error("the binary buffer would hold {0} bytes, more than glTF can address")]
    TooLarge(u64),
}

/// The JSON text and the binary buffer of a scene; the JSON refers to the buffer as
/// `bin_uri` (a file name beside it).
pub fn encode(
    statics: &[StaticMesh],
    instanced: &[InstancedMesh],
    bin_uri: &str,
) -> Result<(String, Vec<u8>), GltfError> {
    let mut writer = Writer { root: Root::default(), bin: Vec::new() };
    writer.root.asset.generator =
        Some(format!("poisson-nd experiments {}", env!("CARGO_PKG_VERSION")));
    let mut nodes = Vec::new();
    for item in statics {
        let mesh = writer.mesh(&item.name, &item.mesh, item.color)?;
        nodes.push(writer.root.push(json::Node {
            mesh: Some(mesh),
            name: Some(item.name.clone()),
            ..Default::default()
        }));
    }
    let mut used = false;
    for class in instanced {
        let n = class.translations.len();
        if class.rotations.len() != n || class.scales.len() != n {
            return Err(GltfError::Inconsistent(format!(
                "class '{}': {} translations, {} rotations, {} scales",
                class.name,
                n,
                class.rotations.len(),
                class.scales.len()
            )));
        }
        if n == 0 {
            nodes.push(
                writer
                    .root
                    .push(json::Node { name: Some(class.name.clone()), ..Default::default() }),
            );
            continue;
        }
        used = true;
        let mesh = writer.mesh(&class.name, &class.mesh, class.color)?;
        let what = |array: &str| format!("class '{}' {array}", class.name);
        let (vec3, vec4) = (json::accessor::Type::Vec3, json::accessor::Type::Vec4);
        let translation = writer.accessor(
            what("translations"),
            &flat3(&class.translations),
            n,
            vec3,
            None,
            None,
        )?;
        let rotation =
            writer.accessor(what("rotations"), &flat4(&class.rotations), n, vec4, None, None)?;
        let scale = writer.accessor(what("scales"), &flat3(&class.scales), n, vec3, None, None)?;
        let mut attributes = serde_json::Map::new();
        attributes.insert("TRANSLATION".into(), translation.value().into());
        attributes.insert("ROTATION".into(), rotation.value().into());
        attributes.insert("SCALE".into(), scale.value().into());
        let mut others = serde_json::Map::new();
        others.insert(INSTANCING.into(), serde_json::json!({ "attributes": attributes }));
        nodes.push(writer.root.push(json::Node {
            mesh: Some(mesh),
            name: Some(class.name.clone()),
            extensions: Some(json::extensions::scene::Node { others }),
            ..Default::default()
        }));
    }
    if used {
        writer.root.extensions_used.push(INSTANCING.to_string());
    }
    let scene = writer.root.push(json::Scene {
        extensions: None,
        extras: Default::default(),
        name: Some("scatter".into()),
        nodes,
    });
    writer.root.scene = Some(scene);
    let length = writer.bin.len() as u64;
    if length > u32::MAX as u64 {
        return Err(GltfError::TooLarge(length));
    }
    writer.root.buffers.push(json::Buffer {
        byte_length: USize64(length),
        name: None,
        uri: Some(bin_uri.to_string()),
        extensions: None,
        extras: Default::default(),
    });
    let text = json::serialize::to_string_pretty(&writer.root)
        .map_err(|e| GltfError::Inconsistent(e.to_string()))?;
    Ok((text + "\n", writer.bin))
}

/// The scene under construction: its JSON and its one buffer.
struct Writer {
    root: Root,
    bin: Vec<u8>,
}

impl Writer {
    /// Appends `bytes` as a buffer view (4-byte aligned) and returns it.
    fn view(
        &mut self,
        bytes: &[u8],
        target: Option<json::buffer::Target>,
    ) -> Index<json::buffer::View> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.root.push(json::buffer::View {
            buffer: Index::new(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Checked::Valid),
            extensions: None,
            extras: Default::default(),
        })
    }

    /// A FLOAT accessor of `count` elements of `kind` over `values`, in a view of its own;
    /// refused when a value is not finite (`what` names the array in the error).
    fn accessor(
        &mut self,
        what: String,
        values: &[f32],
        count: usize,
        kind: json::accessor::Type,
        target: Option<json::buffer::Target>,
        bounds: Option<([f32; 3], [f32; 3])>,
    ) -> Result<Index<json::Accessor>, GltfError> {
        if let Some(index) = values.iter().position(|v| !v.is_finite()) {
            return Err(GltfError::NonFinite { what, index, value: values[index] });
        }
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.view(&bytes, target);
        Ok(self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: Some(USize64(0)),
            count: USize64::from(count),
            component_type: Checked::Valid(json::accessor::GenericComponentType(
                json::accessor::ComponentType::F32,
            )),
            extensions: None,
            extras: Default::default(),
            type_: Checked::Valid(kind),
            min: bounds.map(|(lo, _)| serde_json::json!(lo)),
            max: bounds.map(|(_, hi)| serde_json::json!(hi)),
            name: None,
            normalized: false,
            sparse: None,
        }))
    }

    /// A mesh of one primitive with its material.
    fn mesh(
        &mut self,
        name: &str,
        mesh: &TriangleMesh,
        color: [f32; 3],
    ) -> Result<Index<json::Mesh>, GltfError> {
        let n = mesh.positions.len();
        if mesh.normals.len() != n
            || n == 0
            || mesh.indices.is_empty()
            || !mesh.indices.len().is_multiple_of(3)
        {
            return Err(GltfError::Inconsistent(format!(
                "mesh '{name}': bad vertex or index arrays"
            )));
        }
        if mesh.indices.iter().any(|&i| i as usize >= n) {
            return Err(GltfError::Inconsistent(format!(
                "mesh '{name}': an index is out of range"
            )));
        }
        let mut lo = [f32::INFINITY; 3];
        let mut hi = [f32::NEG_INFINITY; 3];
        for p in &mesh.positions {
            for k in 0..3 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        let array = Some(json::buffer::Target::ArrayBuffer);
        let vec3 = json::accessor::Type::Vec3;
        let positions = self.accessor(
            format!("mesh '{name}' positions"),
            &flat3(&mesh.positions),
            n,
            vec3,
            array,
            Some((lo, hi)),
        )?;
        let normals = self.accessor(
            format!("mesh '{name}' normals"),
            &flat3(&mesh.normals),
            n,
            vec3,
            array,
            None,
        )?;
        let bytes: Vec<u8> = mesh.indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let view = self.view(&bytes, Some(json::buffer::Target::ElementArrayBuffer));
        let indices = self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: Some(USize64(0)),
            count: USize64::from(mesh.indices.len()),
            component_type: Checked::Valid(json::accessor::GenericComponentType(
                json::accessor::ComponentType::U32,
            )),
            extensions: None,
            extras: Default::default(),
            type_: Checked::Valid(json::accessor::Type::Scalar),
            min: None,
            max: None,
            name: None,
            normalized: false,
            sparse: None,
        });
        let material = self.root.push(json::Material {
            name: Some(name.to_string()),
            pbr_metallic_roughness: json::material::PbrMetallicRoughness {
                base_color_factor: json::material::PbrBaseColorFactor([
                    color[0], color[1], color[2], 1.0,
                ]),
                metallic_factor: json::material::StrengthFactor(0.0),
                roughness_factor: json::material::StrengthFactor(0.9),
                ..Default::default()
            },
            ..Default::default()
        });
        let mut attributes = BTreeMap::new();
        attributes.insert(Checked::Valid(json::mesh::Semantic::Positions), positions);
        attributes.insert(Checked::Valid(json::mesh::Semantic::Normals), normals);
        Ok(self.root.push(json::Mesh {
            extensions: None,
            extras: Default::default(),
            name: Some(name.to_string()),
            primitives: vec![json::mesh::Primitive {
                attributes,
                extensions: None,
                extras: Default::default(),
                indices: Some(indices),
                material: Some(material),
                mode: Checked::Valid(json::mesh::Mode::Triangles),
                targets: None,
            }],
            weights: None,
        }))
    }
}

fn flat3(values: &[[f32; 3]]) -> Vec<f32> {
    values.iter().flatten().copied().collect()
}

fn flat4(values: &[[f32; 4]]) -> Vec<f32> {
    values.iter().flatten().copied().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn triangle() -> TriangleMesh {
        TriangleMesh {
            positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]],
            normals: vec![[0.0, 1.0, 0.0]; 3],
            indices: vec![0, 1, 2],
        }
    }

    fn instanced(translation: [f32; 3], scale: f32) -> InstancedMesh {
        InstancedMesh {
            name: "rock".into(),
            color: [0.5; 3],
            mesh: triangle(),
            translations: vec![[1.0, 2.0, 3.0], translation],
            rotations: vec![[0.0, 0.0, 0.0, 1.0]; 2],
            scales: vec![[1.0; 3], [scale; 3]],
        }
    }

    /// Every float array is checked: an instance at infinity, a scale that overflowed
    /// 32 bits, a NaN vertex are refused with the array and the value named; finite
    /// scenes have numeric bounds.
    #[test]
    fn non_finite_values_are_refused() {
        let bad = [
            (
                instanced([f32::INFINITY, 0.0, 0.0], 1.0),
                "class 'rock' translations: value 3 is inf",
            ),
            (instanced([0.0; 3], f32::NAN), "class 'rock' scales: value 3 is NaN"),
        ];
        for (class, message) in bad {
            let err = encode(&[], &[class], "x.bin").unwrap_err().to_string();
            assert!(err.starts_with(message), "{err}");
        }
        let mut mesh = triangle();
        mesh.positions[1][2] = f32::NEG_INFINITY;
        let terrain = StaticMesh { name: "terrain".into(), color: [0.5; 3], mesh };
        let err = encode(&[terrain], &[], "x.bin").unwrap_err().to_string();
        assert!(err.starts_with("mesh 'terrain' positions: value 5 is -inf"), "{err}");
        let (text, _) = encode(&[], &[instanced([4.0, 5.0, 6.0], 2.0)], "x.bin").unwrap();
        assert!(!text.contains("null"), "{text}");
    }
}
