//! Point sets as CSV: a header `x0,x1,...` and one point per line; the reader also takes
//! other tools' output (whitespace, no header).

use poisson_nd::Point;
use std::io::{self, Write};
use std::path::Path;

/// Writes points as CSV with a header `x0,x1,...`. Floats are written in Rust's shortest
/// round-trip form, so reading the file back gives the same bits.
pub fn write_points<const D: usize, W: Write>(out: W, points: &[Point<D>]) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let header: Vec<String> = (0..D).map(|i| format!("x{i}")).collect();
    writeln!(out, "{}", header.join(","))?;
    for p in points {
        for (i, x) in p.iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            write!(out, "{x}")?;
        }
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// Writes points to `path` ("-" for standard output) all at once: the file appears only when
/// it is complete (written beside it, then renamed), so a failure leaves nothing behind.
pub fn write_points_to<const D: usize>(path: &Path, points: &[Point<D>]) -> io::Result<()> {
    if path.as_os_str() == "-" {
        return write_points(io::stdout().lock(), points);
    }
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".partial");
    let temporary = std::path::PathBuf::from(temporary);
    let result = std::fs::File::create(&temporary)
        .and_then(|file| write_points(file, points))
        .and_then(|()| std::fs::rename(&temporary, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
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
    /// A line is malformed, or the file holds no points.
    #[error("line {line}: {message}")]
    Malformed {
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
}

/// Points read from a file, each with the line it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadPoints<const D: usize> {
    /// The points, in file order.
    pub points: Vec<Point<D>>,
    /// The 1-based line number of each point.
    pub lines: Vec<usize>,
    /// The header line, if the file had one.
    pub header: Option<String>,
}

/// Reads points with `D` coordinates per line, as most tools write them:
/// - fields separated by commas (spaces around them and a trailing comma allowed), or by
///   whitespace alone;
/// - an optional header: a first line none of whose fields is a number;
/// - blank lines, lines starting with `#`, `\r\n` endings and a missing final newline
///   are all fine.
///
/// Errors name the line: a wrong number of columns, a field that is not a finite number,
/// invalid UTF-8, or a file with no points.
///
/// ```
/// use experiments::points_csv::read_points;
/// let read = read_points::<2, _>("x,y\n0.5, 0.25\n0.1 0.2\n".as_bytes())?;
/// assert_eq!(read.points, vec![[0.5, 0.25], [0.1, 0.2]]);
/// assert_eq!(read.lines, vec![2, 3]);
/// assert!(read_points::<2, _>("1,2,3\n".as_bytes()).is_err());
/// # Ok::<(), experiments::points_csv::ReadError>(())
/// ```
pub fn read_points<const D: usize, R: io::BufRead>(
    mut input: R,
) -> Result<ReadPoints<D>, ReadError> {
    let mut read = ReadPoints { points: Vec::new(), lines: Vec::new(), header: None };
    let mut buffer = Vec::new();
    let mut line_no = 0usize;
    let mut seen_content = false;
    loop {
        buffer.clear();
        let bytes = input
            .read_until(b'\n', &mut buffer)
            .map_err(|source| ReadError::Io { path: "input".into(), source })?;
        if bytes == 0 {
            break;
        }
        line_no += 1;
        let malformed = |message: String| ReadError::Malformed { line: line_no, message };
        let text = std::str::from_utf8(&buffer)
            .map_err(|_| malformed("not valid UTF-8 text".into()))?
            .trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = if text.contains(',') {
            let mut fields: Vec<&str> = text.split(',').map(str::trim).collect();
            // A trailing delimiter ("1,2,") is common in other tools' output.
            if fields.len() > 1 && fields.last() == Some(&"") {
                fields.pop();
            }
            fields
        } else {
            text.split_whitespace().collect()
        };
        let first = !seen_content;
        seen_content = true;
        if first && fields.iter().all(|f| f.parse::<f64>().is_err()) {
            if fields.len() != D {
                return Err(malformed(format!(
                    "header has {} columns, expected {D} (--dim {D})",
                    fields.len()
                )));
            }
            read.header = Some(text.to_string());
            continue;
        }
        if fields.len() != D {
            return Err(malformed(format!(
                "expected {D} columns (--dim {D}), found {}",
                fields.len()
            )));
        }
        let mut p = [0.0; D];
        for (axis, field) in fields.iter().enumerate() {
            p[axis] = match field.parse::<f64>() {
                Ok(x) if x.is_finite() => x,
                _ => {
                    return Err(malformed(format!(
                        "column {}: '{field}' is not a finite number",
                        axis + 1
                    )));
                }
            };
        }
        read.points.push(p);
        read.lines.push(line_no);
    }
    if read.points.is_empty() {
        let message = if line_no == 0 { "no points (empty file)" } else { "no points in the file" };
        return Err(ReadError::Malformed { line: line_no.max(1), message: message.into() });
    }
    Ok(read)
}

/// [`read_points`] from a file, or from standard input when `path` is "-".
pub fn read_points_from<const D: usize>(path: &Path) -> Result<ReadPoints<D>, ReadError> {
    let name = path.display().to_string();
    let with_path = |e: ReadError| match e {
        ReadError::Io { source, .. } => ReadError::Io { path: name.clone(), source },
        other => other,
    };
    if path.as_os_str() == "-" {
        return read_points(io::stdin().lock()).map_err(with_path);
    }
    let file =
        std::fs::File::open(path).map_err(|source| ReadError::Io { path: name.clone(), source })?;
    read_points(io::BufReader::new(file)).map_err(with_path)
}
