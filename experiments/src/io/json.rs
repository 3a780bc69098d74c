//! Point sets as JSON, for web pages, notebooks and scripts:
//!
//! ```json
//! {
//!   "dim": 2,
//!   "points": [
//!     [0.1, 0.7],
//!     [0.4, 0.2]
//!   ],
//!   "radius": [0.05, 0.03]
//! }
//! ```
//!
//! `dim` is D; `points` holds N arrays of D numbers; each attribute is an array of N numbers
//! under its own name (`radius` when the radius varies). Numbers are written in Rust's
//! shortest round-trip form (`0.1`, `1e-7`, `5e-324`, `-0.0`), which JSON parsers that round
//! correctly (JavaScript's, Python's, serde_json's with `float_roundtrip`) read back to the
//! same double. The writer puts one point per line and every attribute on one line.
//!
//! The reader needs `points`; `dim`, when present, must equal `--dim`; keys not asked for are
//! skipped without being stored, so large files read in one pass.

use super::{Attribute, PointData, ReadError, ReadPoints, indices};
use crate::format::exact;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::io::{self, Write};

/// Writes `{"dim": D, "points": [...], <attribute>: [...], ...}`.
pub fn encode<const D: usize, W: Write>(out: W, data: &PointData<D>) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    write!(out, "{{\n  \"dim\": {D},\n  \"points\": [")?;
    for (i, p) in data.points.iter().enumerate() {
        out.write_all(if i == 0 { b"\n    [" } else { b",\n    [" })?;
        write_numbers(&mut out, p)?;
        out.write_all(b"]")?;
    }
    out.write_all(if data.points.is_empty() { b"]" } else { b"\n  ]" })?;
    for attribute in &data.attributes {
        write!(out, ",\n  \"{}\": [", attribute.name)?;
        write_numbers(&mut out, &attribute.values)?;
        out.write_all(b"]")?;
    }
    out.write_all(b"\n}\n")?;
    out.flush()
}

fn write_numbers(out: &mut impl Write, values: &[f64]) -> io::Result<()> {
    for (i, &x) in values.iter().enumerate() {
        if i > 0 {
            out.write_all(b", ")?;
        }
        out.write_all(exact(x).as_bytes())?;
    }
    Ok(())
}

/// Reads `points` with `D` coordinates each, and the arrays named in `attributes`.
pub fn decode<const D: usize>(
    bytes: &[u8],
    attributes: &[&str],
) -> Result<ReadPoints<D>, ReadError> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let file = FileSeed::<D> { attributes }
        .deserialize(&mut deserializer)
        .and_then(|file| deserializer.end().map(|()| file))
        .map_err(|e| ReadError::invalid(format!("not a JSON point file ({e})")))?;
    if let Some(dim) = file.dim
        && dim != D
    {
        return Err(ReadError::invalid(format!("\"dim\" is {dim}, expected {D} (--dim {D})")));
    }
    let points = file.points.ok_or_else(|| ReadError::invalid("no \"points\" key"))?;
    if points.is_empty() {
        return Err(ReadError::invalid("no points (\"points\" is empty)"));
    }
    let n = points.len();
    let mut data = PointData::new(points);
    for (name, values) in file.columns {
        if values.len() != n {
            return Err(ReadError::invalid(format!(
                "\"{name}\" has {} values for {n} points",
                values.len()
            )));
        }
        data.attributes.push(Attribute { name, values });
    }
    Ok(ReadPoints { data, positions: indices(n), header: None })
}

/// What the reader keeps of a file.
struct File<const D: usize> {
    dim: Option<usize>,
    points: Option<Vec<[f64; D]>>,
    columns: Vec<(String, Vec<f64>)>,
}

/// Reads the top-level object, keeping `dim`, `points` and the asked-for arrays.
struct FileSeed<'a, const D: usize> {
    attributes: &'a [&'a str],
}

impl<'de, const D: usize> DeserializeSeed<'de> for FileSeed<'_, D> {
    type Value = File<D>;
    fn deserialize<De: de::Deserializer<'de>>(
        self,
        deserializer: De,
    ) -> Result<File<D>, De::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, const D: usize> Visitor<'de> for FileSeed<'_, D> {
    type Value = File<D>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object with \"points\"")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<File<D>, M::Error> {
        let mut file = File { dim: None, points: None, columns: Vec::new() };
        while let Some(key) = map.next_key::<String>()? {
            if key == "dim" {
                file.dim = Some(map.next_value()?);
            } else if key == "points" {
                file.points = Some(map.next_value_seed(PointsSeed::<D>)?);
            } else if self.attributes.contains(&key.as_str()) {
                let values: Vec<f64> = map.next_value()?;
                file.columns.push((key, values));
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(file)
    }
}

/// Reads `[[x, y, ...], ...]` straight into points of `D` coordinates.
struct PointsSeed<const D: usize>;

impl<'de, const D: usize> DeserializeSeed<'de> for PointsSeed<D> {
    type Value = Vec<[f64; D]>;
    fn deserialize<De: de::Deserializer<'de>>(
        self,
        deserializer: De,
    ) -> Result<Self::Value, De::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, const D: usize> Visitor<'de> for PointsSeed<D> {
    type Value = Vec<[f64; D]>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an array of points of {D} numbers")
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
        let mut points = Vec::new();
        while let Some(coordinates) = seq.next_element::<Vec<f64>>()? {
            if coordinates.len() != D {
                return Err(de::Error::custom(format!(
                    "point {} has {} coordinates, expected {D} (--dim {D})",
                    points.len() + 1,
                    coordinates.len()
                )));
            }
            let mut p = [0.0; D];
            p.copy_from_slice(&coordinates);
            points.push(p);
        }
        Ok(points)
    }
}
