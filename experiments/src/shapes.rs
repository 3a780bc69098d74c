//! Input files turned into the library's objects, in one place: a density map into a
//! [`DensityField`] ([`density_field`]) and a region file into a [`Region`] with the box to
//! sample it in ([`region`]). The readers of [`crate::inputs`] decode the files; this module
//! applies the conventions (docs/formats.md) and the library's checks, so that the command
//! line, the report and a configuration build the same objects from the same file.
//!
//! Errors are one line that names the file and the problem.
//!
//! ```
//! use experiments::shapes::{self, RegionKind};
//! use std::path::Path;
//! assert_eq!(RegionKind::of(Path::new("lake.geojson")), Ok(RegionKind::GeoJson));
//! assert_eq!(RegionKind::of(Path::new("part.STL")), Ok(RegionKind::Stl));
//! assert!(RegionKind::of(Path::new("part.ply")).is_err());
//! let lake = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/data/lake.geojson");
//! let input = shapes::region::<2>(&lake, None)?;
//! assert!(input.domain.extent()[0] > 0.0); // the box is the lake's bounding box
//! # Ok::<(), String>(())
//! ```
#![deny(missing_docs)]

use crate::inputs::{self, BoundingBox, InputError};
use poisson_nd::error::Short;
use poisson_nd::field::{DensityField, DensityMapping, GriddedField, PairRule, RadiusField};
use poisson_nd::region::{Mask, Mesh, Polygons, Voxels};
use poisson_nd::{Domain, Progress, Region};
use std::any::Any;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Arc;

/// The objects a sampler takes besides its box and its parameters: a radius field with its
/// pair rule, a region, and a progress hook. The default is none of them: the whole box at
/// one radius, silently.
#[derive(Clone, Default)]
pub struct Setup<const D: usize> {
    /// A radius field and the distance rule of its pairs.
    pub field: Option<(Arc<dyn RadiusField<D>>, PairRule)>,
    /// Where the points may go (inside the box).
    pub region: Option<Arc<dyn Region<D>>>,
    /// What is shown the run's progress (see [`poisson_nd::Watch`]).
    pub progress: Option<Arc<dyn Fn(Progress) -> ControlFlow<()> + Send + Sync>>,
}

impl<const D: usize> std::fmt::Debug for Setup<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Setup")
            .field("field", &self.field.as_ref().map(|(field, rule)| (field.bounds(), *rule)))
            .field("region", &self.region.as_ref().map(|r| r.bounding_box()))
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// Checks `--rmin` and `--rmax`: `0 < rmin ≤ rmax`, both finite (the message names the
/// flags).
pub fn check_radius_bounds(rmin: f64, rmax: f64) -> Result<(), String> {
    if !(rmin.is_finite() && rmin > 0.0) {
        return Err(format!("--rmin must be finite and positive, got {}", Short::of(&rmin)));
    }
    if !rmax.is_finite() {
        return Err(format!("--rmax must be finite, got {}", Short::of(&rmax)));
    }
    if rmin > rmax {
        return Err(format!("--rmin {rmin} is larger than --rmax {rmax}"));
    }
    Ok(())
}

/// The density map at `path` mapped to radii in `[rmin, rmax]` over the box of `domain`:
///
/// - a `.png` picture (grey values; D ≥ 2): the image covers the box's first two axes in
///   the project's image convention (row 0 at the top, the largest axis-1 value) and the
///   density is constant along the other axes;
/// - a `.npy` array of shape `(n₀, …, n_{D−1})`: axis `k` along box axis `k`, value
///   `(k₀, …)` at the cell centre `origin_i + (k_i + ½)·extent_i/n_i`, multilinear between
///   centres and clamped outside them.
///
/// Values must lie in `[0, 1]`. Errors: the file cannot be read or decoded, another
/// extension, an array whose number of axes is not `D`, a value outside `[0, 1]` or NaN,
/// and the library's checks of `rmin` and `rmax` (`0 < rmin ≤ rmax`, both finite).
pub fn density_field<const D: usize>(
    path: &Path,
    domain: &Domain<D>,
    rmin: f64,
    rmax: f64,
    mapping: DensityMapping,
) -> Result<DensityField<D>, String> {
    let name = path.display().to_string();
    let fail = |e: poisson_nd::Error| format!("{name}: {e}");
    match extension(path).as_str() {
        "png" => {
            if D < 2 {
                return Err(format!("{name}: a PNG density map needs --dim 2 or more, got {D}"));
            }
            let raster = inputs::png::read_png(path).map_err(|e| e.to_string())?;
            let image =
                GriddedField::from_image_rows(domain, raster.width, raster.height, raster.values)
                    .map_err(fail)?;
            DensityField::from_image(image, mapping, rmin, rmax).map_err(fail)
        }
        "npy" => {
            let array = inputs::npy::read_npy(path).map_err(|e| e.to_string())?;
            array.expect_axes(D, &name).map_err(|e| e.to_string())?;
            array.check_unit_interval(&name).map_err(|e| e.to_string())?;
            let shape: [usize; D] = std::array::from_fn(|k| array.shape[k]);
            let grid = GriddedField::new(domain, shape, array.values).map_err(fail)?;
            DensityField::new(grid, mapping, rmin, rmax).map_err(fail)
        }
        other => Err(format!(
            "{name}: a density map must be a .png or .npy file, not {}",
            describe_extension(other)
        )),
    }
}

/// The kinds of region file, told apart by extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegionKind {
    /// `.geojson` or `.json`: polygons with holes in world units (D = 2).
    GeoJson,
    /// `.png`: a mask over the box's two axes, grey ≥ 0.5 inside (D = 2).
    Png,
    /// `.obj`: a closed triangle mesh in world units (D = 3).
    Obj,
    /// `.stl`: a closed triangle mesh in world units (D = 3).
    Stl,
    /// `.npy`: a voxel mask gridded over the box, true or > 0.5 inside (any D).
    Npy,
}

impl RegionKind {
    /// The kind of the file at `path`, from its extension (any case).
    pub fn of(path: &Path) -> Result<RegionKind, String> {
        match extension(path).as_str() {
            "geojson" | "json" => Ok(RegionKind::GeoJson),
            "png" => Ok(RegionKind::Png),
            "obj" => Ok(RegionKind::Obj),
            "stl" => Ok(RegionKind::Stl),
            "npy" => Ok(RegionKind::Npy),
            other => Err(format!(
                "{}: a region must be a .geojson, .json, .png, .obj, .stl or .npy file, not {}",
                path.display(),
                describe_extension(other)
            )),
        }
    }

    /// The dimension the kind requires, if it requires one.
    pub fn dimension(self) -> Option<usize> {
        match self {
            RegionKind::GeoJson | RegionKind::Png => Some(2),
            RegionKind::Obj | RegionKind::Stl => Some(3),
            RegionKind::Npy => None,
        }
    }

    /// Whether the file carries its own coordinates (so that its bounding box can be the
    /// box); masks are gridded over the box instead.
    pub fn has_coordinates(self) -> bool {
        matches!(self, RegionKind::GeoJson | RegionKind::Obj | RegionKind::Stl)
    }
}

/// A region read from a file, with the box to sample it in.
#[derive(Clone)]
pub struct RegionInput<const D: usize> {
    /// The region.
    pub region: Arc<dyn Region<D>>,
    /// The box: the one given, or else the region's bounding box (for a mask, the default
    /// unit box).
    pub domain: Domain<D>,
    /// The kind of file it came from.
    pub kind: RegionKind,
}

impl<const D: usize> std::fmt::Debug for RegionInput<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegionInput")
            .field("domain", &self.domain)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

/// The region in the file at `path` (its kind from the extension, see [`RegionKind`]) and the
/// box to sample it in: `domain` when one is given, otherwise the bounding box of a file
/// with coordinates (GeoJSON, OBJ, STL) or the unit box for a mask (PNG, NPY), which is
/// gridded over the box.
///
/// Errors: an unknown extension, a dimension the kind does not fit, the reader's errors
/// (malformed GeoJSON, a picture or array that cannot be decoded, a mesh that does not
/// parse), and the library's (an open mesh, an empty mask, a value out of range). A region
/// that misses the box is the sampler's error, when it is built.
pub fn region<const D: usize>(
    path: &Path,
    domain: Option<&Domain<D>>,
) -> Result<RegionInput<D>, String> {
    let kind = RegionKind::of(path)?;
    let name = path.display().to_string();
    if let Some(dim) = kind.dimension()
        && dim != D
    {
        return Err(format!("{name}: this kind of region is {dim}-dimensional; use --dim {dim}"));
    }
    let fail = |e: poisson_nd::Error| format!("{name}: {e}");
    let text = |e: InputError| e.to_string();
    let unit = Domain::<D>::unit();
    let grid_box = domain.unwrap_or(&unit);
    let (region, bounds): (Box<dyn Any>, Option<Vec<[f64; 2]>>) = match kind {
        RegionKind::GeoJson => {
            let polygons = inputs::geojson::read_geojson(path).map_err(text)?;
            let bounds = inputs::geojson::bounding_box(&polygons);
            let shape: Arc<dyn Region<2>> = Arc::new(polygons_region(&polygons).map_err(fail)?);
            (Box::new(shape), Some(corners(&bounds)))
        }
        RegionKind::Obj | RegionKind::Stl => {
            let mesh = if kind == RegionKind::Obj {
                inputs::obj::read_obj(path)
            } else {
                inputs::stl::read_stl(path)
            }
            .map_err(text)?;
            // Welded by position: a hard edge or a texture seam must not open the surface.
            let mesh = mesh.positions_only().map_err(|e| format!("{name}: {e}"))?;
            let bounds = mesh.bounding_box().ok_or_else(|| format!("{name}: the mesh is empty"))?;
            let triangles =
                mesh.triangles.iter().map(|t| t.map(|i| i as usize)).collect::<Vec<_>>();
            let shape: Arc<dyn Region<3>> =
                Arc::new(Mesh::new(mesh.vertices, triangles).map_err(fail)?);
            (Box::new(shape), Some(corners(&bounds)))
        }
        RegionKind::Png => {
            let raster = inputs::png::read_png(path).map_err(text)?;
            let (o, e) = (grid_box.origin(), grid_box.extent());
            let mask = Mask::from_grey(
                raster.width,
                raster.height,
                &raster.values,
                [o[0], o[1]],
                [o[0] + e[0], o[1] + e[1]],
            )
            .map_err(fail)?;
            let shape: Arc<dyn Region<2>> = Arc::new(mask);
            (Box::new(shape), None)
        }
        RegionKind::Npy => {
            let array = inputs::npy::read_npy(path).map_err(text)?;
            array.expect_axes(D, &name).map_err(text)?;
            array.check_finite(&name).map_err(text)?;
            let shape: [usize; D] = std::array::from_fn(|k| array.shape[k]);
            let (o, e) = (grid_box.origin(), grid_box.extent());
            let upper = std::array::from_fn(|k| o[k] + e[k]);
            let voxels = Voxels::from_values(shape, &array.values, *o, upper).map_err(fail)?;
            let shape: Arc<dyn Region<D>> = Arc::new(voxels);
            (Box::new(shape), None)
        }
    };
    // The kind's dimension was checked against D above, so the region's type is
    // `Arc<dyn Region<D>>` and the downcast succeeds.
    let region = region
        .downcast::<Arc<dyn Region<D>>>()
        .map_err(|_| format!("{name}: this kind of region does not fit --dim {D}"))?;
    let domain = match (domain, bounds) {
        (Some(domain), _) => *domain,
        (None, None) => unit,
        (None, Some(bounds)) => {
            let lower: Vec<f64> = bounds.iter().map(|b| b[0]).collect();
            let extent: Vec<f64> = bounds.iter().map(|b| b[1] - b[0]).collect();
            crate::domains::from_slices::<D>(&lower, &extent, false).map_err(|e| {
                format!("{name}: the region's bounding box cannot be the box ({e}); give --box")
            })?
        }
    };
    Ok(RegionInput { region: *region, domain, kind })
}

/// The region of GeoJSON polygons (each an exterior ring and its holes).
pub fn polygons_region(
    polygons: &[inputs::geojson::Polygon],
) -> Result<Polygons, poisson_nd::Error> {
    let rings: Vec<Vec<Vec<[f64; 2]>>> = polygons
        .iter()
        .map(|p| std::iter::once(p.exterior.clone()).chain(p.holes.clone()).collect())
        .collect();
    Polygons::new(&rings)
}

/// `[lower, upper]` per axis.
fn corners<const N: usize>(bounds: &BoundingBox<N>) -> Vec<[f64; 2]> {
    (0..N).map(|a| [bounds.lower[a], bounds.upper[a]]).collect()
}

/// The extension of `path` in lower case ("" without one).
fn extension(path: &Path) -> String {
    path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase()
}

fn describe_extension(extension: &str) -> String {
    if extension.is_empty() { "a file without extension".into() } else { format!(".{extension}") }
}
