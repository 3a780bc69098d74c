//! Point sets in and out of files: one layer for `sample`, `analyze` and the report.
//!
//! A [`PointFormat`] is chosen from a file's extension ([`PointFormat::from_path`]) or by
//! name; each format is one file of this module ([`csv`], [`npy`], [`npz`], [`ply`],
//! [`json`]) with an `encode` and a `decode` function, and one arm in [`encode`] and
//! [`decode`]. What a file holds is a [`PointData`]: the points and any per-point
//! [`Attribute`] columns (a radius, a class label), which every format but NPY stores by name
//! beside the coordinates. The exact layouts are in `docs/formats.md`.
//!
//! Every format reads back the very bits it wrote: the binary ones store `f64` as is, the text
//! ones write Rust's shortest round-trip form ([`crate::format::exact`]). Files are written
//! whole or not at all ([`write_atomically`]).
//!
//! ```
//! use experiments::io::{Attribute, PointData, PointFormat, decode, encode};
//! let radius = Attribute { name: "radius".into(), values: vec![0.5, 0.25] };
//! let data = PointData { points: vec![[0.1 + 0.2, -0.0], [5e-324, 1e300]], attributes: vec![radius] };
//! for format in [PointFormat::Csv, PointFormat::Npz, PointFormat::Ply, PointFormat::Json] {
//!     let mut bytes = Vec::new();
//!     encode(format, &mut bytes, &data)?;
//!     let back = decode::<2>(format, bytes.as_slice(), &["radius"])?;
//!     assert_eq!(back.data, data);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod csv;
pub mod gltf;
pub mod json;
pub mod npy;
pub mod npz;
pub mod ply;

use poisson_nd::{Point, PointSet};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A file format for point sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum PointFormat {
    /// Comma-separated text: a header `x0,x1,...` (then attribute names), one point per
    /// line. The reader also takes other tools' output (whitespace, no header).
    Csv,
    /// NumPy `.npy`: one float64 array of shape (N, D), the points only.
    Npy,
    /// NumPy `.npz` (a zip of `.npy` files): `points` (N, D) and one (N,) array per
    /// attribute, e.g. `radius`.
    Npz,
    /// PLY, binary little-endian: a `vertex` element with `double` coordinates `x`, `y`, `z`
    /// (D ≤ 3) or `x0`, `x1`, ... (D ≥ 4), then one `double` property per attribute.
    Ply,
    /// JSON: `{"dim": D, "points": [[...], ...]}` and one array per attribute.
    Json,
}

impl PointFormat {
    /// Every format, in the order error messages list them.
    pub const ALL: &'static [PointFormat] = &[
        PointFormat::Csv,
        PointFormat::Npy,
        PointFormat::Npz,
        PointFormat::Ply,
        PointFormat::Json,
    ];

    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            PointFormat::Csv => "csv",
            PointFormat::Npy => "npy",
            PointFormat::Npz => "npz",
            PointFormat::Ply => "ply",
            PointFormat::Json => "json",
        }
    }

    /// What [`ReadPoints::positions`] count in this format: `"line"` for CSV, whose points
    /// are lines of text, `"point"` (the 1-based index in the file) for the others.
    pub fn position_name(self) -> &'static str {
        match self {
            PointFormat::Csv => "line",
            _ => "point",
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
    /// The column's name: letters, digits and `_`, not starting with a digit, and neither a
    /// coordinate's name nor `points` or `dim` (see [`check_data`]).
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

    /// What a sampler's point set writes: the points, then its per-point radii as `radius`
    /// when it has them (a sampler whose radius varies); a constant radius is not a column.
    ///
    /// ```
    /// use experiments::io::PointData;
    /// use poisson_nd::{Domain, PointSet, StopReason};
    /// let mut set = PointSet::new(vec![[0.5, 0.5]], Domain::unit(), StopReason::Exhausted, 1);
    /// assert!(PointData::from_point_set(set.clone()).attributes.is_empty());
    /// set.radii = Some(vec![0.1]);
    /// assert_eq!(PointData::from_point_set(set).attributes[0].name, "radius");
    /// ```
    pub fn from_point_set(set: PointSet<D>) -> Self {
        let mut data = PointData::new(set.points);
        if let Some(radii) = set.radii {
            data.attributes.push(Attribute { name: "radius".into(), values: radii });
        }
        data
    }

    /// The attribute called `name`, if there is one.
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.name == name)
    }
}

/// Points read from a file, with where each came from.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadPoints<const D: usize> {
    /// The points and the attributes asked for.
    pub data: PointData<D>,
    /// Where each point was in the file: its 1-based line (CSV) or its 1-based index (the
    /// other formats); [`PointFormat::position_name`] says which.
    pub positions: Vec<usize>,
    /// The header line, if the file had one (CSV).
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
    /// A line of a text file is malformed, or the file holds no points.
    #[error("{path}: line {line}: {message}")]
    Malformed {
        /// The file.
        path: String,
        /// 1-based line (or row) number.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// One point of a file is malformed (a non-finite coordinate, a missing value).
    #[error("{path}: point {index}: {message}")]
    Point {
        /// The file.
        path: String,
        /// 1-based index of the point in the file.
        index: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The file as a whole cannot be read as this format (not an NPY, a header that does
    /// not fit `--dim`, no points, ...).
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong with it.
        message: String,
    },
}

impl ReadError {
    /// An [`ReadError::Invalid`] for a file not named yet (see `read_points`).
    pub(crate) fn invalid(message: impl Into<String>) -> ReadError {
        ReadError::Invalid { path: "input".into(), message: message.into() }
    }

    /// A [`ReadError::Point`] for a file not named yet.
    pub(crate) fn point(index: usize, message: impl Into<String>) -> ReadError {
        ReadError::Point { path: "input".into(), index, message: message.into() }
    }

    fn with_path(self, path: &str) -> ReadError {
        let path = path.to_string();
        match self {
            ReadError::Io { source, .. } => ReadError::Io { path, source },
            ReadError::Malformed { line, message, .. } => {
                ReadError::Malformed { path, line, message }
            }
            ReadError::Point { index, message, .. } => ReadError::Point { path, index, message },
            ReadError::Invalid { message, .. } => ReadError::Invalid { path, message },
        }
    }
}

/// Writes `data` in `format`. Refused (nothing written) when [`check_data`] refuses the
/// data, or when it has attributes and the format is NPY, which holds the points only.
pub fn encode<const D: usize, W: Write>(
    format: PointFormat,
    out: W,
    data: &PointData<D>,
) -> io::Result<()> {
    check_data(data).map_err(|message| io::Error::new(io::ErrorKind::InvalidInput, message))?;
    match format {
        PointFormat::Csv => csv::encode(out, data),
        PointFormat::Npy => npy::encode(out, data),
        PointFormat::Npz => npz::encode(out, data),
        PointFormat::Ply => ply::encode(out, data),
        PointFormat::Json => json::encode(out, data),
    }
}

/// Refuses an output folder (`flag` names it) that exists as something else, a file say,
/// before any work is done: creating the folder would fail only at the end.
pub fn check_output_folder(path: &std::path::Path, flag: &str) -> Result<(), String> {
    if path.exists() && !path.is_dir() {
        return Err(format!("{flag} {}: exists and is not a folder", path.display()));
    }
    Ok(())
}

/// What every format needs of the data it writes: finite coordinates and values (text
/// formats could not read NaN back, JSON cannot write it), attributes as long as the points,
/// and attribute names that every format can store and no reader mistakes for something else
/// (letters, digits and `_`, not starting with a digit; not `x`, `y`, `z` or `x<k>`, which
/// name coordinates, nor `points` or `dim`; no name twice).
///
/// ```
/// use experiments::io::{Attribute, PointData, check_data};
/// let mut data = PointData::new(vec![[0.5, 0.5]]);
/// data.attributes.push(Attribute { name: "z".into(), values: vec![1.0] });
/// assert!(check_data(&data).unwrap_err().contains("'z'"));
/// ```
pub fn check_data<const D: usize>(data: &PointData<D>) -> Result<(), String> {
    if let Some(i) = data.points.iter().position(|p| !p.iter().all(|x| x.is_finite())) {
        return Err(format!("point {} has a coordinate that is not finite", i + 1));
    }
    for (k, attribute) in data.attributes.iter().enumerate() {
        let name = attribute.name.as_str();
        let valid = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        let reserved = matches!(name, "x" | "y" | "z" | "points" | "dim")
            || (name.len() > 1
                && name.starts_with('x')
                && name[1..].bytes().all(|b| b.is_ascii_digit()));
        if !valid || reserved {
            return Err(format!(
                "attribute name '{name}' is not allowed (letters, digits and _, not a \
                 coordinate's name, not 'points' or 'dim')"
            ));
        }
        if data.attributes[..k].iter().any(|a| a.name == name) {
            return Err(format!("attribute '{name}' appears twice"));
        }
        if attribute.values.len() != data.points.len() {
            return Err(format!(
                "attribute '{name}' has {} values for {} points",
                attribute.values.len(),
                data.points.len()
            ));
        }
        if let Some(i) = attribute.values.iter().position(|x| !x.is_finite()) {
            return Err(format!("attribute '{name}' of point {} is not finite", i + 1));
        }
    }
    Ok(())
}

/// Reads points with `D` coordinates in `format`, keeping the attribute columns named in
/// `attributes` that the file has. A CSV column after the coordinates that is not asked for
/// is an error (it could be a coordinate of a higher dimension); the named formats (NPZ, PLY,
/// JSON) skip arrays and properties not asked for. A file without points is an error.
pub fn decode<const D: usize>(
    format: PointFormat,
    input: impl io::BufRead,
    attributes: &[&str],
) -> Result<ReadPoints<D>, ReadError> {
    match format {
        PointFormat::Csv => csv::decode(input, attributes),
        PointFormat::Npy => npy::decode(&read_all(input)?),
        PointFormat::Npz => npz::decode(&read_all(input)?, attributes),
        PointFormat::Ply => ply::decode(&read_all(input)?, attributes),
        PointFormat::Json => json::decode(&read_all(input)?, attributes),
    }
}

/// Every byte of `input` ([`read_bounded`](crate::inputs::read_bounded)).
fn read_all(input: impl io::BufRead) -> Result<Vec<u8>, ReadError> {
    crate::inputs::read_bounded(input)
        .map_err(|source| ReadError::Io { path: "input".into(), source })
}

/// The positions `1..=n` of a format that numbers its points.
pub(crate) fn indices(n: usize) -> Vec<usize> {
    (1..=n).collect()
}

/// Writes `text` to standard output, an error (a closed pipe, a full disk) reported as one
/// line rather than a panic.
pub fn print_out(text: &str) -> Result<(), String> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to standard output: {e}"))
}

/// Writes `data` to `path` in `format` ("-": standard output), whole or not at all.
pub fn write_points<const D: usize>(
    path: &Path,
    format: PointFormat,
    data: &PointData<D>,
) -> Result<(), String> {
    let result = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        encode(format, &mut bytes, data).and_then(|()| io::stdout().lock().write_all(&bytes))
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
/// removes it and leaves any earlier `path` as it was). A symbolic link is followed, so its
/// target is the file replaced and the link stays; a path that is neither a file nor a link
/// to one (a device such as `/dev/stdout`, a named pipe) is written to directly, as it cannot
/// be replaced by renaming without destroying it.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_through_links(path, bytes, 0)
}

/// [`write_atomically`], `hops` links followed so far (a loop of links ends in an error).
fn write_through_links(path: &Path, bytes: &[u8], hops: usize) -> io::Result<()> {
    if let Ok(meta) = std::fs::metadata(path)
        && !meta.is_file()
        && !meta.is_dir()
    {
        return std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|mut file| file.write_all(bytes).and_then(|()| file.flush()));
    }
    if std::fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink()) {
        let target = match std::fs::canonicalize(path) {
            Ok(target) => target,
            // A link to nothing yet: its target, relative to the link's folder.
            Err(_) => {
                let link = std::fs::read_link(path)?;
                path.parent().map_or(link.clone(), |folder| folder.join(&link))
            }
        };
        if hops >= 40 {
            return Err(io::Error::other("too many levels of symbolic links"));
        }
        if target != path {
            return write_through_links(&target, bytes, hops + 1);
        }
    }
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
            PointFormat::from_path(Path::new("pts.txt")).unwrap_err(),
            "cannot tell the format of pts.txt from its extension (known: .csv, .npy, .npz, \
             .ply, .json)"
        );
        assert!(PointFormat::from_path(Path::new("points")).is_err());
    }

    /// A link's target is replaced and the link kept; a device is written to, not replaced.
    #[cfg(unix)]
    #[test]
    fn atomic_writes_follow_links_and_keep_devices() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.csv");
        std::fs::write(&target, b"old\n").unwrap();
        let link = dir.path().join("link.csv");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_atomically(&link, b"new\n").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new\n");
        // A link to a file that does not exist yet creates it.
        let dangling = dir.path().join("dangling.csv");
        std::os::unix::fs::symlink("made.csv", &dangling).unwrap();
        write_atomically(&dangling, b"made\n").unwrap();
        assert_eq!(std::fs::read(dir.path().join("made.csv")).unwrap(), b"made\n");
        assert!(std::fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
        // A loop of links is an error, not a recursion without end.
        let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        assert!(write_atomically(&a, b"loop\n").is_err());
        // A named pipe stays a pipe, and its reader gets the bytes.
        let pipe = dir.path().join("pipe.csv");
        let made = std::process::Command::new("mkfifo").arg(&pipe).status();
        if made.is_ok_and(|status| status.success()) {
            let reader = {
                let pipe = pipe.clone();
                std::thread::spawn(move || std::fs::read(pipe).unwrap())
            };
            write_atomically(&pipe, b"piped\n").unwrap();
            assert_eq!(reader.join().unwrap(), b"piped\n");
            assert!(!std::fs::symlink_metadata(&pipe).unwrap().is_file());
        }
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
