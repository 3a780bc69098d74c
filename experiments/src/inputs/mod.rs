//! Input files that describe *where* and *how densely* to sample, read into plain, neutral data:
//! pictures ([`png`]), arrays ([`npy`]), polygons ([`geojson`]) and triangle meshes ([`obj`],
//! [`stl`], [`ply_mesh`], [`gltf_mesh`], all giving a [`TriangleMesh`] with optional normals
//! and texture coordinates; [`surface_mesh`] picks one of them by the file's extension).
//!
//! The readers only decode and check what a file says; they know nothing of samplers. A density
//! map or a mask becomes a sampler's input in the library, which applies the project's image
//! convention (column `i` along axis 0, row 0 at the largest axis-1 value) and its own checks.
//! The layouts each reader accepts, and every error, are listed in `docs/formats.md`.
//!
//! Every reader comes in two forms: `read_*(path)` reads a file, `decode_*(bytes, name)` reads
//! bytes already in memory, `name` being what error messages call them. Errors are one line
//! that names the file and the problem ([`InputError`]).
//!
//! ```
//! use experiments::inputs::geojson::decode_geojson;
//! let text = r#"{"type": "Polygon", "coordinates": [[[0, 0], [2, 0], [2, 1], [0, 0]]]}"#;
//! let polygons = decode_geojson(text.as_bytes(), "field.geojson")?;
//! assert_eq!(polygons[0].exterior, vec![[0.0, 0.0], [2.0, 0.0], [2.0, 1.0]]);
//! let bounds = experiments::inputs::geojson::bounding_box(&polygons);
//! assert_eq!((bounds.lower, bounds.upper), ([0.0, 0.0], [2.0, 1.0]));
//! # Ok::<(), experiments::inputs::InputError>(())
//! ```
#![deny(missing_docs)]

pub mod geojson;
pub mod gltf_mesh;
pub mod mesh;
pub mod npy;
pub mod obj;
pub mod ply_mesh;
pub mod png;
pub mod stl;
pub mod surface_mesh;

pub use geojson::Polygon;
pub use mesh::TriangleMesh;
pub use npy::Array;
pub use png::Raster;
pub use surface_mesh::{decode_mesh, read_mesh};

use std::io::Read;
use std::path::Path;

/// Why an input file could not be used. The message is one line and names the file.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The file could not be opened or read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file was read but its contents cannot be used.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong with it.
        message: String,
    },
}

impl InputError {
    /// An [`InputError::Invalid`] for the file called `name`.
    pub fn invalid(name: &str, message: impl Into<String>) -> InputError {
        InputError::Invalid { path: name.to_string(), message: message.into() }
    }
}

/// The closed axis-aligned box `[lower, upper]` (per axis `lower ≤ upper`) that holds every
/// coordinate of a polygon set or a mesh. Without `--box`, the box of a region is its bounding
/// box; the half-open convention of `Domain` is the library's business.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoundingBox<const D: usize> {
    /// The smallest coordinate along each axis.
    pub lower: [f64; D],
    /// The largest coordinate along each axis.
    pub upper: [f64; D],
}

impl<const D: usize> BoundingBox<D> {
    /// The box of `points`; `None` when there are none.
    pub fn of_points<'a>(points: impl IntoIterator<Item = &'a [f64; D]>) -> Option<Self> {
        let mut points = points.into_iter();
        let first = *points.next()?;
        let mut bounds = BoundingBox { lower: first, upper: first };
        for p in points {
            for a in 0..D {
                bounds.lower[a] = bounds.lower[a].min(p[a]);
                bounds.upper[a] = bounds.upper[a].max(p[a]);
            }
        }
        Some(bounds)
    }

    /// The side lengths, `upper − lower`.
    pub fn extent(&self) -> [f64; D] {
        std::array::from_fn(|a| self.upper[a] - self.lower[a])
    }
}

/// The whole file at `path`, or an [`InputError::Io`] naming it.
pub(crate) fn read_bytes(path: &Path) -> Result<Vec<u8>, InputError> {
    read_file_bounded(path)
        .map_err(|source| InputError::Io { path: path.display().to_string(), source })
}

/// The most bytes one input may have (4 GiB): an endless one (`/dev/zero`, a pipe that
/// never closes) is refused there, or where memory runs out first, with an error rather
/// than an abort.
pub const MAX_INPUT_BYTES: u64 = 1 << 32;

/// Every byte of `input`, refused past [`MAX_INPUT_BYTES`] or when the memory for them cannot
/// be had.
pub fn read_bounded(mut input: impl std::io::Read) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if (bytes.len() + n) as u64 > MAX_INPUT_BYTES {
            return Err(std::io::Error::other(format!(
                "more than {MAX_INPUT_BYTES} bytes, the most an input may have"
            )));
        }
        bytes.try_reserve(n).map_err(|_| {
            std::io::Error::other(format!("out of memory after {} bytes of input", bytes.len()))
        })?;
        bytes.extend_from_slice(&chunk[..n]);
    }
}

/// The text of the file at `path` ([`read_file_bounded`]), which must be UTF-8.
pub fn read_text_bounded(path: &Path) -> std::io::Result<String> {
    String::from_utf8(read_file_bounded(path)?)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not valid UTF-8 text"))
}

/// Every byte of the file at `path` ([`read_bounded`]; a regular file's stated size is checked
/// and its memory set aside first).
pub fn read_file_bounded(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return read_bounded(file);
    }
    if meta.len() > MAX_INPUT_BYTES {
        return Err(std::io::Error::other(format!(
            "{} bytes, more than the {MAX_INPUT_BYTES} an input may have",
            meta.len()
        )));
    }
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(meta.len() as usize).map_err(|_| {
        std::io::Error::other(format!("{} bytes, more than the memory can hold", meta.len()))
    })?;
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// `index` (row-major over `shape`) as a multi-index, `[i0, i1, ...]`, for error messages.
pub(crate) fn multi_index(shape: &[usize], mut index: usize) -> String {
    let mut parts = vec![0; shape.len()];
    for (axis, &size) in shape.iter().enumerate().rev() {
        if size > 0 {
            parts[axis] = index % size;
            index /= size;
        }
    }
    let parts: Vec<String> = parts.iter().map(usize::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// A TOML parser's error on `text` as one line: `line N (`the line`): message`, the line
/// shown (up to 60 characters) so that the key is named (the parser's own text spreads over
/// several lines, with the source line and a caret).
pub fn toml_message(text: &str, error: &toml::de::Error) -> String {
    let mut message = error.message().trim().replace('\n', " ");
    // An integer beyond TOML's 64 bits reaches the parser's types as an `i128`, which it
    // names; say instead what is wrong.
    if message.contains(" as i128") {
        let value = message.split('`').nth(1).unwrap_or("the integer").to_string();
        message =
            format!("the integer {value} is outside the range of TOML integers (±{})", i64::MAX);
    }
    let Some(span) = error.span() else { return message };
    let start = span.start.min(text.len());
    let number = text[..start].matches('\n').count() + 1;
    let source = text.lines().nth(number - 1).unwrap_or("").trim();
    let shown: String = source.chars().take(60).collect();
    let more = if source.chars().count() > 60 { "…" } else { "" };
    format!("line {number} (`{shown}{more}`): {message}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multi_indices_are_row_major() {
        assert_eq!(multi_index(&[2, 3], 0), "[0, 0]");
        assert_eq!(multi_index(&[2, 3], 4), "[1, 1]");
        assert_eq!(multi_index(&[2, 3, 4], 23), "[1, 2, 3]");
        assert_eq!(multi_index(&[], 0), "[]");
    }

    #[test]
    fn toml_integers_past_64_bits_are_explained() {
        let text = "a = 1\nrealisations = 99999999999999999999\n";
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Config {
            a: u32,
            realisations: u64,
        }
        let error = toml::from_str::<Config>(text).unwrap_err();
        assert_eq!(
            toml_message(text, &error),
            "line 2 (`realisations = 99999999999999999999`): the integer 99999999999999999999 \
             is outside the range of TOML integers (±9223372036854775807)"
        );
    }

    #[test]
    fn bounding_boxes() {
        assert_eq!(BoundingBox::<2>::of_points(&[]), None);
        let b = BoundingBox::of_points(&[[1.0, -2.0], [0.5, 3.0], [2.0, 0.0]]).unwrap();
        assert_eq!((b.lower, b.upper, b.extent()), ([0.5, -2.0], [2.0, 3.0], [1.5, 5.0]));
    }
}
