//! Point sets as CSV: a header `x0,x1,...` and one point per line.

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
