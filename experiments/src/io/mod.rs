//! Point sets in and out of files: one layer for `sample`, `analyze` and the report.
//!
//! A [`PointFormat`] is chosen from a file's extension ([`PointFormat::from_path`]) or by
//! name; each format is one file of this module (today [`csv`]) with an `encode` and a
//! `decode` function, and one arm in [`encode`] and [`decode`]. What a file holds is a
//! [`PointData`]: the points and any per-point [`Attribute`] columns (a radius, a class label),
//! which a format writes after the coordinates.
//!
//! Floats are written in Rust's shortest round-trip form ([`crate::format::exact`]), so a
//! file read back gives the same bits. Files are written whole or not at all
//! ([`write_atomically`]).
//!
//! ```
//! use experiments::io::{PointData, PointFormat, decode, encode};
//! let data = PointData::new(vec![[0.1 + 0.2, -0.0], [5e-324, 1e300]]);
//! let mut bytes = Vec::new();
//! encode(PointFormat::Csv, &mut bytes, &data)?;
//! let back = decode::<2>(PointFormat::Csv, bytes.as_slice(), &[])?;
//! assert_eq!(back.data, data);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod csv;

use poisson_nd::Point;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A file format for point sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum PointFormat {
    /// Comma-separated text: a header `x0,x1,...` (then attribute names), one point per
    /// line. The reader also takes other tools' output (whitespace, no header).
    Csv,
}

impl PointFormat {
    /// Every format, in the order error messages list them.
    pub const ALL: &'static [PointFormat] = &[PointFormat::Csv];

    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            PointFormat::Csv => "csv",
        }
    }

    /// The format of `path` by its extension (any case); `-` (standard input or output) is
    /// CSV.
    pub fn from_path(path: &Path) -> Result<PointFormat, String> {
        if path.as_os_str() == "-" {
            return Ok(PointFormat::Csv);
        }
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        PointFormat::ALL
            .iter()
            .copied()
            .find(|format| format.extension().eq_ignore_ascii_case(extension))
            .ok_or_else(|| {
                let known: Vec<String> =
                    PointFormat::ALL.iter().map(|f| format!(".{}", f.extension())).collect();
                format!(
                    "cannot tell the format of {} from its extension (known: {})",
                    path.display(),
                    known.join(", ")
                )
            })
    }
}

/// A per-point column besides the coordinates, e.g. `radius`.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    /// The column's name.
    pub name: String,
    /// One value per point.
    pub values: Vec<f64>,
}

/// What a point file holds: the points and their attribute columns.
#[derive(Debug, Clone, PartialEq)]
pub struct PointData<const D: usize> {
    /// The points, in file order.
    pub points: Vec<Point<D>>,
    /// Per-point columns, each as long as `points`.
    pub attributes: Vec<Attribute>,
}

impl<const D: usize> PointData<D> {
    /// Points without attributes.
    pub fn new(points: Vec<Point<D>>) -> Self {
        PointData { points, attributes: Vec::new() }
    }

    /// The names of the coordinate columns, `x0`, `x1`, ...
    pub fn coordinate_names() -> Vec<String> {
        (0..D).map(|axis| format!("x{axis}")).collect()
    }
}

/// Points read from a file, with where each came from.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadPoints<const D: usize> {
    /// The points and the attributes asked for.
    pub data: PointData<D>,
    /// Where each point was in the file: its 1-based line (text formats) or row.
    pub positions: Vec<usize>,
    /// The header line, if the file had one.
    pub header: Option<String>,
}

/// Why a point file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be opened or read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The underlying error.
        source: io::Error,
    },
    /// A line or row is malformed, or the file holds no points.
    #[error("{path}: line {line}: {message}")]
    Malformed {
        /// The file.
        path: String,
        /// 1-based line (or row) number.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
}

impl ReadError {
    fn with_path(self, path: &str) -> ReadError {
        match self {
            ReadError::Io { source, .. } => ReadError::Io { path: path.to_string(), source },
            ReadError::Malformed { line, message, .. } => {
                ReadError::Malformed { path: path.to_string(), line, message }
            }
        }
    }
}

/// Writes `data` in `format`.
pub fn encode<const D: usize, W: Write>(
    format: PointFormat,
    out: W,
    data: &PointData<D>,
) -> io::Result<()> {
    match format {
        PointFormat::Csv => csv::encode(out, data),
    }
}

/// Reads points with `D` coordinates in `format`, keeping the attribute columns named in
/// `attributes` (other extra columns are an error).
pub fn decode<const D: usize>(
    format: PointFormat,
    input: impl io::BufRead,
    attributes: &[&str],
) -> Result<ReadPoints<D>, ReadError> {
    match format {
        PointFormat::Csv => csv::decode(input, attributes),
    }
}

/// Writes `data` to `path` in `format` ("-": standard output), whole or not at all.
pub fn write_points<const D: usize>(
    path: &Path,
    format: PointFormat,
    data: &PointData<D>,
) -> Result<(), String> {
    let result = if path.as_os_str() == "-" {
        encode(format, io::stdout().lock(), data)
    } else {
        let mut bytes = Vec::new();
        encode(format, &mut bytes, data).and_then(|()| write_atomically(path, &bytes))
    };
    result.map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Reads the points of `path` in `format` ("-": standard input); see [`decode`].
pub fn read_points<const D: usize>(
    path: &Path,
    format: PointFormat,
    attributes: &[&str],
) -> Result<ReadPoints<D>, ReadError> {
    let name = path.display().to_string();
    let read = if path.as_os_str() == "-" {
        decode(format, io::stdin().lock(), attributes)
    } else {
        let file = std::fs::File::open(path)
            .map_err(|source| ReadError::Io { path: name.clone(), source })?;
        decode(format, io::BufReader::new(file), attributes)
    };
    read.map_err(|e| e.with_path(&name))
}

/// Writes `bytes` to `path` so that the file appears only when complete: they go to
/// `<path>.partial` in the same directory, which is then renamed over `path` (a failure
/// removes it and leaves any earlier `path` as it was).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".partial");
    let temporary = PathBuf::from(temporary);
    let result = std::fs::File::create(&temporary)
        .and_then(|mut file| file.write_all(bytes).and_then(|()| file.sync_all()))
        .and_then(|()| std::fs::rename(&temporary, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_come_from_extensions() {
        assert_eq!(PointFormat::from_path(Path::new("a/b.CSV")), Ok(PointFormat::Csv));
        assert_eq!(PointFormat::from_path(Path::new("-")), Ok(PointFormat::Csv));
        assert_eq!(
            PointFormat::from_path(Path::new("pts.npy")).unwrap_err(),
            "cannot tell the format of pts.npy from its extension (known: .csv)"
        );
        assert!(PointFormat::from_path(Path::new("points")).is_err());
    }

    #[test]
    fn atomic_writes_leave_nothing_on_failure() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.csv");
        write_atomically(&path, b"a\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"a\n");
        let missing = dir.path().join("no/such/dir/x.csv");
        assert!(write_atomically(&missing, b"a\n").is_err());
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap()).collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }
}
