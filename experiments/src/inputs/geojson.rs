//! GeoJSON polygons (2D regions, e.g. a lake with an island) read with the `geojson` crate
//! into plain [`Polygon`]s.
//!
//! Accepted: a `Polygon`, a `MultiPolygon`, a `GeometryCollection` of them, a `Feature` whose
//! geometry is one of these, or a `FeatureCollection` of such features; every polygon found
//! is returned, in file order. Coordinates are world units (no projection is applied); a third
//! coordinate (altitude) is ignored.
//!
//! Each ring must be closed (last position equal to the first) and hold at least four
//! positions, as RFC 7946 requires. The returned rings leave the closing position out: a
//! ring of `n` corners is closed by the edge from corner `n − 1` back to corner 0. Ring
//! orientation is kept as written (RFC 7946 asks for counter-clockwise exteriors, but readers
//! must not rely on it); inside/outside is decided by the holes' role, not their winding.

use super::{BoundingBox, InputError, read_bytes};
use geojson::{GeoJson, Geometry, GeometryValue, PolygonType};
use std::path::Path;

/// A polygon with holes, in world units.
#[derive(Debug, Clone, PartialEq)]
pub struct Polygon {
    /// The outer ring's corners, without repeating the first at the end.
    pub exterior: Vec<[f64; 2]>,
    /// Each hole's corners, without repeating the first at the end.
    pub holes: Vec<Vec<[f64; 2]>>,
}

/// The bounding box of every exterior ring (holes lie inside their exteriors). An empty list
/// gives an empty box at the origin; readers never return one.
pub fn bounding_box(polygons: &[Polygon]) -> BoundingBox<2> {
    BoundingBox::of_points(polygons.iter().flat_map(|p| p.exterior.iter()))
        .unwrap_or(BoundingBox { lower: [0.0; 2], upper: [0.0; 2] })
}

/// Reads the GeoJSON file at `path`.
pub fn read_geojson(path: &Path) -> Result<Vec<Polygon>, InputError> {
    decode_geojson(&read_bytes(path)?, &path.display().to_string())
}

/// Reads polygons from GeoJSON text; `name` is what messages call it.
///
/// ```
/// use experiments::inputs::geojson::decode_geojson;
/// let square_with_hole = r#"{"type": "Feature", "properties": {}, "geometry": {
///     "type": "Polygon",
///     "coordinates": [[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]],
///                     [[1, 1], [1, 2], [2, 2], [1, 1]]]}}"#;
/// let polygons = decode_geojson(square_with_hole.as_bytes(), "lake.geojson")?;
/// assert_eq!(polygons[0].exterior.len(), 4);
/// assert_eq!(polygons[0].holes, vec![vec![[1.0, 1.0], [1.0, 2.0], [2.0, 2.0]]]);
/// let line = r#"{"type": "LineString", "coordinates": [[0, 0], [1, 1]]}"#;
/// let error = decode_geojson(line.as_bytes(), "lake.geojson").unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "lake.geojson: the geometry is a LineString, not a Polygon or MultiPolygon"
/// );
/// # Ok::<(), experiments::inputs::InputError>(())
/// ```
pub fn decode_geojson(bytes: &[u8], name: &str) -> Result<Vec<Polygon>, InputError> {
    let invalid = |message: String| InputError::invalid(name, message);
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| invalid(format!("malformed JSON ({e})")))?;
    let geojson: GeoJson =
        serde_json::from_value(value).map_err(|e| invalid(format!("not GeoJSON ({e})")))?;
    let mut polygons = Vec::new();
    match &geojson {
        GeoJson::Geometry(geometry) => collect(geometry, "the geometry", &mut polygons),
        GeoJson::Feature(feature) => match &feature.geometry {
            Some(geometry) => collect(geometry, "the feature's geometry", &mut polygons),
            None => Err("the feature has no geometry".to_string()),
        },
        GeoJson::FeatureCollection(collection) => {
            if collection.features.is_empty() {
                return Err(invalid("the FeatureCollection has no features".into()));
            }
            collection.features.iter().enumerate().try_for_each(|(i, feature)| {
                match &feature.geometry {
                    Some(geometry) => collect(geometry, &format!("feature {i}"), &mut polygons),
                    None => Err(format!("feature {i} has no geometry")),
                }
            })
        }
    }
    .map_err(&invalid)?;
    if polygons.is_empty() {
        return Err(invalid("no polygons (an empty collection)".into()));
    }
    Ok(polygons)
}

/// Appends the polygons of `geometry` (called `place` in messages) to `out`.
fn collect(geometry: &Geometry, place: &str, out: &mut Vec<Polygon>) -> Result<(), String> {
    match &geometry.value {
        GeometryValue::Polygon { coordinates } => out.push(polygon(coordinates, place)?),
        GeometryValue::MultiPolygon { coordinates } => {
            for (i, rings) in coordinates.iter().enumerate() {
                out.push(polygon(rings, &format!("{place}, polygon {i}"))?);
            }
        }
        GeometryValue::GeometryCollection { geometries } => {
            for (i, inner) in geometries.iter().enumerate() {
                collect(inner, &format!("{place}, geometry {i}"), out)?;
            }
        }
        other => {
            return Err(format!(
                "{place} is a {}, not a Polygon or MultiPolygon",
                other.type_name()
            ));
        }
    }
    Ok(())
}

/// One polygon from its rings: the exterior first, then the holes.
fn polygon(rings: &PolygonType, place: &str) -> Result<Polygon, String> {
    let Some((exterior, holes)) = rings.split_first() else {
        return Err(format!("{place} has no rings"));
    };
    let exterior = ring(exterior, &format!("{place}: exterior ring"))?;
    let holes = holes
        .iter()
        .enumerate()
        .map(|(i, hole)| ring(hole, &format!("{place}: hole {i}")))
        .collect::<Result<_, _>>()?;
    Ok(Polygon { exterior, holes })
}

/// A closed ring's corners without the closing position.
fn ring(positions: &[geojson::Position], place: &str) -> Result<Vec<[f64; 2]>, String> {
    if positions.len() < 4 {
        return Err(format!(
            "{place} has {} positions; a ring needs at least 4 (the last repeating the first)",
            positions.len()
        ));
    }
    let mut corners = Vec::with_capacity(positions.len());
    for (i, position) in positions.iter().enumerate() {
        let xy = position.as_slice();
        if xy.len() < 2 {
            return Err(format!("{place}, position {i} has fewer than 2 coordinates"));
        }
        if !(xy[0].is_finite() && xy[1].is_finite()) {
            return Err(format!("{place}, position {i} is not finite: {xy:?}"));
        }
        corners.push([xy[0], xy[1]]);
    }
    let (first, last) = (corners[0], corners[corners.len() - 1]);
    if first != last {
        return Err(format!(
            "{place} is not closed: it ends at {last:?}, not at its first position {first:?}"
        ));
    }
    corners.pop();
    Ok(corners)
}
