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

/// How the body is stored.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Encoding {
    Ascii,
    LittleEndian,
    BigEndian,
}

/// A scalar type of PLY.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Scalar {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    F32,
    F64,
}

impl Scalar {
    fn parse(name: &str) -> Option<Scalar> {
        Some(match name {
            "char" | "int8" => Scalar::I8,
            "uchar" | "uint8" => Scalar::U8,
            "short" | "int16" => Scalar::I16,
            "ushort" | "uint16" => Scalar::U16,
            "int" | "int32" => Scalar::I32,
            "uint" | "uint32" => Scalar::U32,
            "float" | "float32" => Scalar::F32,
            "double" | "float64" => Scalar::F64,
            _ => return None,
        })
    }

    fn size(self) -> usize {
        match self {
            Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::F64 => 8,
        }
    }
}

/// A property: a scalar, or a list (its count type and item type).
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Scalar(Scalar),
    List(Scalar, Scalar),
}

#[derive(Debug, Clone, PartialEq)]
struct Property {
    name: String,
    kind: Kind,
}

#[derive(Debug, Clone, PartialEq)]
struct Element {
    name: String,
    count: usize,
    properties: Vec<Property>,
}

/// The parsed header and where the body starts.
#[derive(Debug)]
struct Header {
    encoding: Encoding,
    elements: Vec<Element>,
    body: usize,
}

fn parse_header(bytes: &[u8]) -> Result<Header, ReadError> {
    let invalid = |message: String| ReadError::invalid(message);
    if !bytes.starts_with(b"ply\n") && !bytes.starts_with(b"ply\r\n") {
        return Err(invalid("not a PLY file (it does not start with the line `ply`)".into()));
    }
    let mut encoding = None;
    let mut elements: Vec<Element> = Vec::new();
    let mut offset = 0;
    loop {
        let end = bytes[offset..]
            .iter()
            .position(|&b| b == b'\n')
            .ok_or_else(|| invalid("the PLY header has no `end_header` line".into()))?;
        let line = std::str::from_utf8(&bytes[offset..offset + end])
            .map_err(|_| invalid("the PLY header is not text".into()))?
            .trim_end_matches('\r');
        offset += end + 1;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["ply"] | [] => {}
            ["comment", ..] | ["obj_info", ..] => {}
            ["format", format, "1.0"] => {
                encoding = Some(match *format {
                    "ascii" => Encoding::Ascii,
                    "binary_little_endian" => Encoding::LittleEndian,
                    "binary_big_endian" => Encoding::BigEndian,
                    other => return Err(invalid(format!("unknown PLY format '{other}'"))),
                });
            }
            ["element", name, count] => {
                let count = count
                    .parse()
                    .map_err(|_| invalid(format!("element '{name}' has a bad count '{count}'")))?;
                elements.push(Element { name: name.to_string(), count, properties: Vec::new() });
            }
            ["property", "list", count, item, name] => {
                let kind = match (Scalar::parse(count), Scalar::parse(item)) {
                    (Some(c), Some(i)) => Kind::List(c, i),
                    _ => return Err(invalid(format!("property '{name}' has an unknown type"))),
                };
                let element = elements.last_mut().ok_or_else(|| {
                    invalid(format!("property '{name}' comes before any element"))
                })?;
                element.properties.push(Property { name: name.to_string(), kind });
            }
            ["property", ty, name] => {
                let scalar = Scalar::parse(ty)
                    .ok_or_else(|| invalid(format!("property '{name}' has unknown type '{ty}'")))?;
                let element = elements.last_mut().ok_or_else(|| {
                    invalid(format!("property '{name}' comes before any element"))
                })?;
                element
                    .properties
                    .push(Property { name: name.to_string(), kind: Kind::Scalar(scalar) });
            }
            ["end_header"] => break,
            _ => return Err(invalid(format!("unreadable PLY header line '{line}'"))),
        }
    }
    let encoding = encoding.ok_or_else(|| invalid("the PLY header has no `format` line".into()))?;
    Ok(Header { encoding, elements, body: offset })
}

/// Reads the body's values one at a time, in either encoding.
struct Body<'a> {
    encoding: Encoding,
    bytes: &'a [u8],
    position: usize,
}

impl Body<'_> {
    /// The next value of type `scalar`, as `f64` (exact for every PLY type).
    fn next(&mut self, scalar: Scalar) -> Result<f64, String> {
        if self.encoding == Encoding::Ascii {
            let rest = &self.bytes[self.position..];
            let start =
                rest.iter().position(|b| !b.is_ascii_whitespace()).ok_or("the file ends early")?;
            let length = rest[start..]
                .iter()
                .position(|b| b.is_ascii_whitespace())
                .unwrap_or(rest.len() - start);
            self.position += start + length;
            let token =
                std::str::from_utf8(&rest[start..start + length]).map_err(|_| "not text")?;
            return token.parse::<f64>().map_err(|_| format!("'{token}' is not a number"));
        }
        let size = scalar.size();
        let raw =
            self.bytes.get(self.position..self.position + size).ok_or("the file ends early")?;
        self.position += size;
        let mut b = [0u8; 8];
        b[..size].copy_from_slice(raw);
        if self.encoding == Encoding::BigEndian {
            b[..size].reverse();
        }
        Ok(match scalar {
            Scalar::I8 => f64::from(b[0] as i8),
            Scalar::U8 => f64::from(b[0]),
            Scalar::I16 => f64::from(i16::from_le_bytes([b[0], b[1]])),
            Scalar::U16 => f64::from(u16::from_le_bytes([b[0], b[1]])),
            Scalar::I32 => f64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            Scalar::U32 => f64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            Scalar::F32 => f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            Scalar::F64 => f64::from_le_bytes(b),
        })
    }

    /// Reads one record of `properties`, calling `keep(k, value)` for scalar property `k`.
    fn record(
        &mut self,
        properties: &[Property],
        mut keep: impl FnMut(usize, f64),
    ) -> Result<(), String> {
        for (k, property) in properties.iter().enumerate() {
            match property.kind {
                Kind::Scalar(scalar) => keep(k, self.next(scalar)?),
                Kind::List(count, item) => {
                    let n = self.next(count)?;
                    if !(n >= 0.0 && n.fract() == 0.0) {
                        return Err(format!("list '{}' has a bad length {n}", property.name));
                    }
                    for _ in 0..n as usize {
                        self.next(item)?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Reads the vertices of a PLY file as points with `D` coordinates, keeping the scalar vertex
/// properties named in `attributes`.
pub fn decode<const D: usize>(
    bytes: &[u8],
    attributes: &[&str],
) -> Result<ReadPoints<D>, ReadError> {
    let header = parse_header(bytes)?;
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
    let mut body = Body { encoding: header.encoding, bytes, position: header.body };
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
