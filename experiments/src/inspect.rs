//! `experiments inspect FILE`: reads an input file (a picture, an array, polygons, a mesh) as
//! the samplers will read it, and says what it holds, or why it cannot be used.

use crate::format::significant;
use crate::inputs::{self, BoundingBox, InputError};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Arguments of `experiments inspect`.
#[derive(clap::Args, Debug, Clone)]
pub struct InspectArgs {
    /// The input file: .png (density map or mask), .npy (array), .geojson (polygons),
    /// .obj, .stl, .ply, .gltf or .glb (triangle mesh).
    pub file: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The kinds of input file, by extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// A PNG picture.
    Png,
    /// A NumPy array.
    Npy,
    /// GeoJSON polygons.
    GeoJson,
    /// A Wavefront OBJ mesh.
    Obj,
    /// An STL mesh.
    Stl,
    /// A PLY mesh.
    Ply,
    /// A glTF mesh (JSON with its buffers).
    Gltf,
    /// A binary glTF mesh.
    Glb,
}

impl InputKind {
    /// Every kind with its extensions, in the order error messages list them.
    pub const ALL: [(InputKind, &'static str); 8] = [
        (InputKind::Png, "png"),
        (InputKind::Npy, "npy"),
        (InputKind::GeoJson, "geojson"),
        (InputKind::Obj, "obj"),
        (InputKind::Stl, "stl"),
        (InputKind::Ply, "ply"),
        (InputKind::Gltf, "gltf"),
        (InputKind::Glb, "glb"),
    ];

    /// The kind of `path` by its extension (any case).
    pub fn from_path(path: &Path) -> Result<InputKind, String> {
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        InputKind::ALL
            .iter()
            .find(|(_, e)| e.eq_ignore_ascii_case(extension))
            .map(|(kind, _)| *kind)
            .ok_or_else(|| {
                let known: Vec<String> =
                    InputKind::ALL.iter().map(|(_, e)| format!(".{e}")).collect();
                format!(
                    "cannot tell the kind of {} from its extension (known: {})",
                    path.display(),
                    known.join(", ")
                )
            })
    }
}

/// What an input file holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Summary {
    /// A picture.
    Picture {
        /// Pixels per row.
        width: usize,
        /// Rows.
        height: usize,
        /// Its values in `[0, 1]`.
        values: ValueRange,
    },
    /// An array.
    Array {
        /// Its shape.
        shape: Vec<usize>,
        /// Its element type as written in the file.
        dtype: String,
        /// Its finite values.
        values: Option<ValueRange>,
        /// How many values are NaN or infinite.
        non_finite: usize,
    },
    /// Polygons.
    Polygons {
        /// Polygons.
        polygons: usize,
        /// Holes, over all polygons.
        holes: usize,
        /// Corners of every ring.
        corners: usize,
        /// Area: exteriors minus holes (shoelace formula; assumes holes inside their
        /// exteriors and no overlaps).
        area: f64,
        /// Lower corner of the bounding box.
        lower: [f64; 2],
        /// Upper corner of the bounding box.
        upper: [f64; 2],
    },
    /// A triangle mesh.
    Mesh {
        /// Distinct vertices after welding.
        vertices: usize,
        /// Triangles.
        triangles: usize,
        /// Triangles of zero area (a repeated corner, or corners on one line), which the
        /// surface samplers ignore.
        degenerate: usize,
        /// The surface's area.
        area: f64,
        /// Whether the file gives a normal for every corner.
        normals: bool,
        /// Whether the file gives texture coordinates (UVs) for every corner.
        uvs: bool,
        /// Edges not shared by exactly two triangles, the mesh welded by position (0: closed).
        unpaired_edges: usize,
        /// Lower corner of the bounding box.
        lower: [f64; 3],
        /// Upper corner of the bounding box.
        upper: [f64; 3],
    },
}

/// Smallest, largest and mean of some values.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ValueRange {
    /// Smallest.
    pub min: f64,
    /// Largest.
    pub max: f64,
    /// Mean.
    pub mean: f64,
}

impl ValueRange {
    fn of(values: impl Iterator<Item = f64>) -> Option<ValueRange> {
        let (mut min, mut max, mut sum, mut n) = (f64::INFINITY, f64::NEG_INFINITY, 0.0, 0usize);
        for v in values {
            min = min.min(v);
            max = max.max(v);
            sum += v;
            n += 1;
        }
        (n > 0).then(|| ValueRange { min, max, mean: sum / n as f64 })
    }
}

/// Reads `path` by its extension and summarises it.
pub fn summarise(path: &Path) -> Result<Summary, String> {
    let kind = InputKind::from_path(path)?;
    let text = |e: InputError| e.to_string();
    Ok(match kind {
        InputKind::Png => {
            let raster = inputs::png::read_png(path).map_err(text)?;
            let values = ValueRange::of(raster.values.iter().copied())
                .ok_or_else(|| format!("{}: the picture has no pixels", path.display()))?;
            Summary::Picture { width: raster.width, height: raster.height, values }
        }
        InputKind::Npy => {
            let array = inputs::npy::read_npy(path).map_err(text)?;
            let non_finite = array.values.iter().filter(|v| !v.is_finite()).count();
            Summary::Array {
                values: ValueRange::of(array.values.iter().copied().filter(|v| v.is_finite())),
                shape: array.shape,
                dtype: array.dtype,
                non_finite,
            }
        }
        InputKind::GeoJson => {
            let polygons = inputs::geojson::read_geojson(path).map_err(text)?;
            let bounds = inputs::geojson::bounding_box(&polygons);
            let rings =
                || polygons.iter().flat_map(|p| std::iter::once(&p.exterior).chain(&p.holes));
            // Checked as the samplers check it (holes within their exterior, not overlapping),
            // and its area that of the region they sample: overlapping pieces once.
            let region = crate::shapes::polygons_region(&polygons)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            let area = region.area();
            Summary::Polygons {
                polygons: polygons.len(),
                holes: polygons.iter().map(|p| p.holes.len()).sum(),
                corners: rings().map(Vec::len).sum(),
                area,
                lower: bounds.lower,
                upper: bounds.upper,
            }
        }
        InputKind::Obj | InputKind::Stl | InputKind::Ply | InputKind::Gltf | InputKind::Glb => {
            let file = inputs::surface_mesh::read_mesh(path).map_err(text)?;
            // Welded by position: a hard edge or a texture seam must not open the surface.
            let mesh = file.positions_only().map_err(|e| format!("{}: {e}", path.display()))?;
            let BoundingBox { lower, upper } = mesh
                .bounding_box()
                .ok_or_else(|| format!("{}: the mesh has no vertices", path.display()))?;
            let areas: Vec<f64> = mesh
                .triangles
                .iter()
                .map(|t| {
                    let [a, b, c] = t.map(|v| mesh.vertices[v as usize]);
                    poisson_nd::surface::triangle_area(a, b, c)
                })
                .collect();
            Summary::Mesh {
                vertices: mesh.vertices.len(),
                triangles: mesh.triangles.len(),
                degenerate: areas.iter().filter(|&&a| a == 0.0).count(),
                area: areas.iter().sum(),
                normals: file.normals.is_some(),
                uvs: file.uvs.is_some(),
                unpaired_edges: mesh.unpaired_edges(),
                lower,
                upper,
            }
        }
    })
}

/// `n thing` or `n things`.
fn count(n: usize, thing: &str) -> String {
    if n == 1 { format!("1 {thing}") } else { format!("{n} {thing}s") }
}

/// Runs `experiments inspect`: one summary on standard output, or a one-line error.
pub fn run(args: &InspectArgs) -> Result<(), String> {
    let summary = summarise(&args.file)?;
    if args.json {
        let text = serde_json::to_string_pretty(&summary).map_err(|e| e.to_string())?;
        crate::io::print_out(&format!("{text}\n"))?;
    } else {
        crate::io::print_out(&format!("{}\n", describe(&args.file, &summary)))?;
    }
    Ok(())
}

/// The summary in words.
fn describe(path: &Path, summary: &Summary) -> String {
    let num = |x: f64| significant(x, 6);
    // Each axis's bounds with the digits that tell them apart: six, and one more for every
    // power of ten by which the coordinates pass the box's width (a box a unit wide at 10⁶).
    let corners = |lower: &[f64], upper: &[f64]| {
        let parts: Vec<String> = lower
            .iter()
            .zip(upper)
            .map(|(&l, &u)| {
                let ratio = l.abs().max(u.abs()) / (u - l);
                let extra = if ratio > 1.0 { ratio.log10().ceil().min(11.0) as usize } else { 0 };
                format!("[{}, {}]", significant(l, 6 + extra), significant(u, 6 + extra))
            })
            .collect();
        parts.join(" × ")
    };
    let name = path.display();
    match summary {
        Summary::Picture { width, height, values } => format!(
            "{name}: picture of {width} × {height} pixels (width × height), values in [0, 1]: \
             min {}, max {}, mean {}",
            num(values.min),
            num(values.max),
            num(values.mean)
        ),
        Summary::Array { shape, dtype, values, non_finite } => {
            let mut text = format!("{name}: array of shape {shape:?} ({dtype})");
            if let Some(v) = values {
                text += &format!(", min {}, max {}, mean {}", num(v.min), num(v.max), num(v.mean));
            }
            if *non_finite > 0 {
                text += &format!(", {non_finite} values NaN or infinite");
            }
            text
        }
        Summary::Polygons { polygons, holes, corners: n, area, lower, upper } => format!(
            "{name}: {}, {}, {n} corners, area {}, bounding box {}",
            count(*polygons, "polygon"),
            count(*holes, "hole"),
            num(*area),
            corners(lower, upper)
        ),
        Summary::Mesh {
            vertices,
            triangles,
            degenerate,
            area,
            normals,
            uvs,
            unpaired_edges,
            lower,
            upper,
        } => {
            let with: Vec<&str> = [(*normals, "normals"), (*uvs, "texture coordinates")]
                .iter()
                .filter(|(given, _)| *given)
                .map(|(_, what)| *what)
                .collect();
            format!(
                "{name}: triangle mesh of {vertices} vertices and {triangles} triangles \
                 ({degenerate} of zero area), area {}, {}, {}, bounding box {}",
                num(*area),
                if *unpaired_edges == 0 {
                    "closed (every edge shared by two triangles)".to_string()
                } else {
                    format!("open ({unpaired_edges} edges not shared by two triangles)")
                },
                if with.is_empty() {
                    "positions only".to_string()
                } else {
                    format!("with {}", with.join(" and "))
                },
                corners(lower, upper)
            )
        }
    }
}
