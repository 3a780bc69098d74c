//! Point sets as PLY (Stanford polygon format), the point-cloud format of ParaView,
//! CloudCompare, MeshLab and Blender.
//!
//! The writer emits binary little-endian PLY 1.0 with one `vertex` element and no faces:
//!
//! ```text
//! ply
//! format binary_little_endian 1.0
//! comment poisson-nd point set in 3 dimensions
//! element vertex N
//! property double x
//! property double y
//! property double z
//! property double radius        (one line per attribute, in order)
//! end_header
//! ```
//!
//! followed by N records of 8-byte little-endian IEEE doubles, coordinates then attributes.
//! Coordinates are named `x`, `y`, `z` for D ≤ 3 (`x` alone in 1D, `x`, `y` in 2D) and `x0`,
//! `x1`, ... for D ≥ 4, which no viewer shows as space but every PLY reader parses. Header
//! lines end with `\n`.
//!
//! The reader takes what other tools write too: `ascii`, `binary_little_endian` and
//! `binary_big_endian`; any scalar property type (`char`/`int8` ... `double`/`float64`, all
//! exact in `f64`); other elements before or after `vertex` (faces, lists) are skipped;
//! vertex properties not asked for (normals, colours) are ignored. Coordinates are found by
//! name, `x0..x{D-1}` or (D ≤ 3) `x`, `y`, `z`; a coordinate past `--dim` (a `z` in a file read
//! with `--dim 2`) is an error, so a 3D cloud is never read as 2D by mistake.

use super::{Attribute, PointData, ReadError, ReadPoints, indices};
// One PLY header and body reader for points and meshes.
use crate::inputs::ply_mesh::{Body, Kind, parse_header};
use std::io::{self, Write};

/// The names of the coordinate properties the writer uses in `D` dimensions.
pub fn coordinate_names(dim: usize) -> Vec<String> {
    if dim <= 3 {
        ["x", "y", "z"][..dim].iter().map(|s| s.to_string()).collect()
    } else {
        (0..dim).map(|axis| format!("x{axis}")).collect()
    }
}

/// The header the writer emits for `n` points with these attribute names.
///
/// ```
/// let header = experiments::io::ply::header(2, 5, &["radius"]);
/// assert_eq!(
///     header,
///     "ply\nformat binary_little_endian 1.0\ncomment poisson-nd point set in 2 dimensions\n\
///      element vertex 5\nproperty double x\nproperty double y\nproperty double radius\nend_header\n"
/// );
/// ```
pub fn header(dim: usize, n: usize, attributes: &[&str]) -> String {
    let mut text = format!(
        "ply\nformat binary_little_endian 1.0\ncomment poisson-nd point set in {dim} dimensions\n\
         element vertex {n}\n"
    );
    for name in coordinate_names(dim).iter().map(String::as_str).chain(attributes.iter().copied()) {
        text.push_str(&format!("property double {name}\n"));
    }
    text.push_str("end_header\n");
    text
}

/// Writes the header and one record of doubles per point.
pub fn encode<const D: usize, W: Write>(out: W, data: &PointData<D>) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let names: Vec<&str> = data.attributes.iter().map(|a| a.name.as_str()).collect();
    out.write_all(header(D, data.points.len(), &names).as_bytes())?;
    for (i, p) in data.points.iter().enumerate() {
        for x in p.iter().copied().chain(data.attributes.iter().map(|a| a.values[i])) {
            out.write_all(&x.to_le_bytes())?;
        }
    }
    out.flush()
}

/// Reads the vertices of a PLY file as points with `D` coordinates, keeping the scalar vertex
/// properties named in `attributes`.
pub fn decode<const D: usize>(
    bytes: &[u8],
    attributes: &[&str],
) -> Result<ReadPoints<D>, ReadError> {
    let header = parse_header(bytes).map_err(ReadError::invalid)?;
    let position = header
        .elements
        .iter()
        .position(|e| e.name == "vertex")
        .ok_or_else(|| ReadError::invalid("the PLY file has no `vertex` element"))?;
    let vertex = &header.elements[position];
    let find = |name: &str| vertex.properties.iter().position(|p| p.name == name);
    let numbered: Vec<String> = (0..D).map(|a| format!("x{a}")).collect();
    let lettered = &["x", "y", "z"][..D.min(3)];
    let (columns, beyond): (Vec<Option<usize>>, Vec<String>) =
        if D <= 3 && lettered.iter().all(|n| find(n).is_some()) {
            (
                lettered.iter().map(|n| find(n)).collect(),
                ["x", "y", "z"][D..].iter().map(|s| s.to_string()).collect(),
            )
        } else {
            (numbered.iter().map(|n| find(n)).collect(), vec![format!("x{D}")])
        };
    let Some(columns) = columns.into_iter().collect::<Option<Vec<usize>>>() else {
        let wanted = if D <= 3 {
            format!("{} (or {})", lettered.join(", "), numbered.join(", "))
        } else {
            numbered.join(", ")
        };
        return Err(ReadError::invalid(format!(
            "the vertex element lacks coordinates: {D} dimensions need properties {wanted}"
        )));
    };
    if let Some(extra) = beyond.iter().find(|n| find(n).is_some()) {
        return Err(ReadError::invalid(format!(
            "the vertex element has a coordinate '{extra}' beyond {D} dimensions (--dim {D})"
        )));
    }
    for &k in &columns {
        if let Kind::List(..) = vertex.properties[k].kind {
            return Err(ReadError::invalid(format!(
                "coordinate '{}' is a list",
                vertex.properties[k].name
            )));
        }
    }
    let kept: Vec<usize> = (0..vertex.properties.len())
        .filter(|&k| {
            attributes.contains(&vertex.properties[k].name.as_str())
                && matches!(vertex.properties[k].kind, Kind::Scalar(_))
        })
        .collect();
    let mut body = Body::new(&header, bytes);
    for (e, element) in header.elements[..position].iter().enumerate() {
        for i in 0..element.count {
            body.record(&element.properties, |_, _| {}).map_err(|m| {
                ReadError::invalid(format!("element {e} '{}' record {i}: {m}", element.name))
            })?;
        }
    }
    if vertex.count == 0 {
        return Err(ReadError::invalid("no points (the vertex element is empty)"));
    }
    // Grows as records are read: a count in the header is no promise.
    let mut points = Vec::new();
    let mut values: Vec<Vec<f64>> = vec![Vec::new(); kept.len()];
    let mut record = vec![0.0; vertex.properties.len()];
    for i in 0..vertex.count {
        body.record(&vertex.properties, |k, v| record[k] = v)
            .map_err(|m| ReadError::point(i + 1, m))?;
        let mut p = [0.0; D];
        for (axis, &k) in columns.iter().enumerate() {
            p[axis] = record[k];
        }
        if !p.iter().all(|x| x.is_finite()) {
            return Err(ReadError::point(i + 1, format!("coordinates {p:?} are not all finite")));
        }
        points.push(p);
        for (column, &k) in values.iter_mut().zip(&kept) {
            if !record[k].is_finite() {
                return Err(ReadError::point(
                    i + 1,
                    format!("'{}' is {}", vertex.properties[k].name, record[k]),
                ));
            }
            column.push(record[k]);
        }
    }
    let n = points.len();
    let mut data = PointData::new(points);
    for (&k, column) in kept.iter().zip(values) {
        data.attributes.push(Attribute { name: vertex.properties[k].name.clone(), values: column });
    }
    Ok(ReadPoints { data, positions: indices(n), header: None })
}
