//! Point sets as NumPy `.npz`: a zip archive of `.npy` files, as `numpy.savez` writes it.
//!
//! - `points.npy`: float64, shape (N, D), C order (the same array as [`super::npy`] writes);
//! - one `<name>.npy` per attribute, float64, shape (N,): `radius.npy` when the radius varies.
//!
//! Entries are stored uncompressed (like `numpy.savez`), in that order, with a fixed date
//! (1980-01-01) and Unix permissions 0644, so the same data always gives the same bytes.
//! `numpy.load(f)["points"]` gives the points, `["radius"]` the radii. The reader also takes
//! deflated archives (`numpy.savez_compressed`), any element type [`crate::inputs::npy`] reads,
//! and a (N,) `points` array when D = 1; arrays not asked for are skipped.

use super::npy::{points_from_array, write_float64_array};
use super::{Attribute, PointData, ReadError, ReadPoints, indices};
use crate::inputs::npy::decode_npy;
use std::io::{self, Cursor, Read, Write};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipArchive, ZipWriter};

/// Writes the points and every attribute as arrays of one archive.
pub fn encode<const D: usize, W: Write>(mut out: W, data: &PointData<D>) -> io::Result<()> {
    let n = data.points.len();
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    // Entries past 4 GiB need ZIP64 records; smaller ones are written without, as NumPy does.
    let entry = |bytes: usize| {
        SimpleFileOptions::default()
            .compression_method(CompressionMethod::Stored)
            .last_modified_time(DateTime::default())
            .unix_permissions(0o644)
            .system(zip::System::Unix)
            .large_file(bytes as u64 >= u32::MAX as u64)
    };
    zip.start_file("points.npy", entry(n * D * 8 + 128)).map_err(io::Error::other)?;
    write_float64_array(&mut zip, &[n, D], data.points.iter().flatten().copied())?;
    for attribute in &data.attributes {
        zip.start_file(format!("{}.npy", attribute.name), entry(n * 8 + 128))
            .map_err(io::Error::other)?;
        write_float64_array(&mut zip, &[n], attribute.values.iter().copied())?;
    }
    let bytes = zip.finish().map_err(io::Error::other)?.into_inner();
    out.write_all(&bytes)?;
    out.flush()
}

/// Reads the `points` array and the arrays named in `attributes` that the archive has.
pub fn decode<const D: usize>(
    bytes: &[u8],
    attributes: &[&str],
) -> Result<ReadPoints<D>, ReadError> {
    let mut archive = ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| ReadError::invalid(format!("not a readable NPZ (zip) file ({e})")))?;
    let names: Vec<String> =
        archive.file_names().filter_map(|n| n.ok()).map(|n| n.into_owned()).collect();
    let mut points = None;
    let mut columns = Vec::new();
    for entry_name in &names {
        let Some(array_name) = entry_name.strip_suffix(".npy") else { continue };
        let wanted = array_name == "points" || attributes.contains(&array_name);
        if !wanted {
            continue;
        }
        let mut entry = archive.by_name(entry_name).map_err(|e| {
            ReadError::invalid(format!("cannot read the array '{array_name}' ({e})"))
        })?;
        let mut npy = Vec::new();
        // Reads no more than the entry declares, so a lying size cannot exhaust memory.
        let declared = entry.size();
        entry.by_ref().take(declared).read_to_end(&mut npy).map_err(|e| {
            ReadError::invalid(format!("cannot read the array '{array_name}' ({e})"))
        })?;
        let array = decode_npy(&npy, "").map_err(|e| {
            let message = match e {
                crate::inputs::InputError::Invalid { message, .. } => message,
                other => other.to_string(),
            };
            ReadError::invalid(format!("array '{array_name}': {message}"))
        })?;
        if array_name == "points" {
            let what = "the array 'points'";
            points = Some(points_from_array::<D>(&array.shape, &array.values, what)?);
        } else {
            columns.push((array_name.to_string(), array));
        }
    }
    let points = points.ok_or_else(|| {
        let arrays: Vec<&str> = names.iter().filter_map(|n| n.strip_suffix(".npy")).collect();
        ReadError::invalid(format!("no array 'points' (arrays: {})", arrays.join(", ")))
    })?;
    let n = points.len();
    let mut data = PointData::new(points);
    for (name, array) in columns {
        if array.shape != [n] {
            return Err(ReadError::invalid(format!(
                "array '{name}' has shape {:?}; it needs ({n},), one value per point",
                array.shape
            )));
        }
        if let Some(i) = array.values.iter().position(|v| !v.is_finite()) {
            return Err(ReadError::point(i + 1, format!("'{name}' is {}", array.values[i])));
        }
        data.attributes.push(Attribute { name, values: array.values });
    }
    Ok(ReadPoints { data, positions: indices(n), header: None })
}
