//! Point sets as CSV: a header `x0,x1,...` followed by the attribute names, one point per
//! line. The reader also takes other tools' output (whitespace, no header).

use super::{Attribute, PointData, ReadError, ReadPoints};
use crate::format::exact;
use std::io::{self, BufRead, Read, Write};

/// Writes the header and one line per point, coordinates then attributes, every float in
/// shortest round-trip form.
pub fn encode<const D: usize, W: Write>(out: W, data: &PointData<D>) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let mut header = PointData::<D>::coordinate_names();
    header.extend(data.attributes.iter().map(|a| a.name.clone()));
    writeln!(out, "{}", header.join(","))?;
    for (i, p) in data.points.iter().enumerate() {
        let values = p.iter().copied().chain(data.attributes.iter().map(|a| a.values[i]));
        for (column, x) in values.enumerate() {
            if column > 0 {
                out.write_all(b",")?;
            }
            out.write_all(exact(x).as_bytes())?;
        }
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// The longest line read (1 MiB; a row of coordinates and attributes takes a few hundred
/// bytes).
const MAX_LINE: usize = 1 << 20;

/// Reads points with `D` coordinates per line, as most tools write them:
/// - fields separated by commas (spaces around them and a trailing comma allowed), or by
///   whitespace alone;
/// - an optional header: a first line none of whose fields is a number; columns after the
///   `D` coordinates are kept when their header names one of `attributes`;
/// - blank lines, lines starting with `#`, `\r\n` endings and a missing final newline
///   are all fine.
///
/// Errors name the line: a wrong number of columns, a field that is not a finite number,
/// invalid UTF-8, or a file with no points.
///
/// ```
/// use experiments::io::csv::decode;
/// let read = decode::<2>("x,y\n0.5, 0.25\n0.1 0.2\n".as_bytes(), &[])?;
/// assert_eq!(read.data.points, vec![[0.5, 0.25], [0.1, 0.2]]);
/// assert_eq!(read.positions, vec![2, 3]);
/// assert!(decode::<2>("1,2,3\n".as_bytes(), &[]).is_err());
/// let with_radius = decode::<1>("x0,radius\n0.5,0.01\n".as_bytes(), &["radius"])?;
/// assert_eq!(with_radius.data.attributes[0].values, vec![0.01]);
/// # Ok::<(), experiments::io::ReadError>(())
/// ```
pub fn decode<const D: usize>(
    mut input: impl io::BufRead,
    attributes: &[&str],
) -> Result<ReadPoints<D>, ReadError> {
    let mut read =
        ReadPoints { data: PointData::new(Vec::new()), positions: Vec::new(), header: None };
    let mut buffer = Vec::new();
    let mut line_no = 0usize;
    let mut seen_content = false;
    let mut columns = D;
    loop {
        buffer.clear();
        // A line is read up to its end or `MAX_LINE` bytes, whichever comes first: an input
        // without line ends (`/dev/zero`) must not fill the memory.
        let bytes = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buffer)
            .map_err(|source| ReadError::Io { path: "input".into(), source })?;
        if bytes == 0 {
            break;
        }
        line_no += 1;
        let malformed =
            |message: String| ReadError::Malformed { path: "input".into(), line: line_no, message };
        if buffer.len() > MAX_LINE {
            return Err(malformed(format!("the line is longer than {MAX_LINE} bytes")));
        }
        let text = std::str::from_utf8(&buffer)
            .map_err(|_| malformed("not valid UTF-8 text".into()))?
            .trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let fields = split_fields(text);
        let first = !seen_content;
        seen_content = true;
        if first && fields.iter().all(|f| f.parse::<f64>().is_err()) {
            let extra = fields.get(D..).unwrap_or_default();
            if fields.len() < D || extra.iter().any(|name| !attributes.contains(name)) {
                return Err(malformed(format!(
                    "header has {} columns, expected {D} (--dim {D})",
                    fields.len()
                )));
            }
            read.data.attributes = extra
                .iter()
                .map(|name| Attribute { name: name.to_string(), values: Vec::new() })
                .collect();
            columns = fields.len();
            read.header = Some(text.to_string());
            continue;
        }
        if fields.len() != columns {
            return Err(malformed(format!(
                "expected {columns} columns (--dim {D}), found {}",
                fields.len()
            )));
        }
        let mut values = Vec::with_capacity(columns);
        for (column, field) in fields.iter().enumerate() {
            match field.parse::<f64>() {
                Ok(x) if x.is_finite() => values.push(x),
                _ => {
                    return Err(malformed(format!(
                        "column {}: '{field}' is not a finite number",
                        column + 1
                    )));
                }
            }
        }
        let mut p = [0.0; D];
        p.copy_from_slice(&values[..D]);
        read.data.points.push(p);
        for (attribute, &value) in read.data.attributes.iter_mut().zip(&values[D..]) {
            attribute.values.push(value);
        }
        read.positions.push(line_no);
    }
    if read.data.points.is_empty() {
        let message = if line_no == 0 { "no points (empty file)" } else { "no points in the file" };
        return Err(ReadError::Malformed {
            path: "input".into(),
            line: line_no.max(1),
            message: message.into(),
        });
    }
    Ok(read)
}

/// The fields of a line: comma-separated if it has a comma, else whitespace-separated.
fn split_fields(text: &str) -> Vec<&str> {
    if text.contains(',') {
        let mut fields: Vec<&str> = text.split(',').map(str::trim).collect();
        // A trailing delimiter ("1,2,") is common in other tools' output.
        if fields.len() > 1 && fields.last() == Some(&"") {
            fields.pop();
        }
        fields
    } else {
        text.split_whitespace().collect()
    }
}
