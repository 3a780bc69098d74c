//! The scene file of `experiments scatter`: TOML read with serde (`deny_unknown_fields`), every
//! value checked with the key it came from, every path taken relative to the scene file, and
//! the inputs decoded into the library's [`Scatter`].
//!
//! ```toml
//! seed = 7                      # optional, default 0
//! pair_rule = "mean"            # optional: "max" (default), "min" or "mean"
//! [terrain]
//! heightmap = "height.png"      # PNG (8/16-bit grey) or a 2D .npy, values in [0, 1]
//! size = [1000.0, 1000.0]       # world extent along x and z; origin at 0
//! height_scale = 120.0          # the height of the value 1
//! # or, instead of those three, a mesh whose upward-facing top surface is the ground:
//! # mesh = "island.glb"         # OBJ, STL, PLY, glTF or GLB
//! # up = "y"                    # optional: "y" (default, glTF/OBJ) or "z" (many STL/PLY)
//! [[class]]
//! name = "tree"                 # letters, digits and '_' (no '-': see `distances`)
//! radius = [4.0, 12.0]          # [rmin, rmax] with a density map, else one value
//! density = "wet.png"           # optional; lerp: density 1 → rmin, 0 → rmax (on a mesh
//!                               # terrain a PNG read through the mesh's UVs)
//! region = "forest.geojson"     # optional: a 2D region file (GeoJSON, PNG or NPY mask)
//! min_slope = 0.0               # degrees, optional, in [0, 90]; also max_slope
//! min_height = 10.0             # optional; also max_height
//! slope_radius = 0.5            # optional: radius × (1 + k·slope/90)
//! align = 0.0                   # [0, 1], default 0: upright
//! scale = [0.8, 1.3]            # [min, max] or one value, default 1
//! mesh = "cone"                 # placeholder in the glTF: cone, sphere or box
//! [distances]
//! "tree-rock" = 5.0             # optional cross-class minimum distances
//! ```

use crate::inputs;
use crate::shapes;
use poisson_nd::Progress;
use poisson_nd::error::Short;
use poisson_nd::field::{DensityMapping, PairRule};
use poisson_nd::scatter::{
    Ground, MeshTerrain, PlacementRules, Pose, Scatter, ScatterClass, Terrain, UpAxis,
};
use poisson_nd::{Domain, Error};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// The placeholder mesh a class is drawn with in the glTF file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MeshKind {
    /// A cone standing on its base (trees).
    Cone,
    /// A sphere, its lower third buried (shrubs).
    Sphere,
    /// A box standing on the ground (rocks).
    Box,
}

impl MeshKind {
    /// The default for the class declared at `index`: cone, sphere, box, then again.
    pub fn for_index(index: usize) -> MeshKind {
        [MeshKind::Cone, MeshKind::Sphere, MeshKind::Box][index % 3]
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SceneFile {
    #[serde(default)]
    seed: u64,
    #[serde(default, with = "crate::choices::by_name_opt")]
    pair_rule: Option<PairRule>,
    terrain: TerrainFile,
    #[serde(rename = "class", default)]
    classes: Vec<ClassFile>,
    #[serde(default)]
    distances: BTreeMap<String, f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainFile {
    heightmap: Option<String>,
    // A list, not `[f64; 2]`: serde reads the first two values of a longer array and drops
    // the rest, where a third value is a mistake to report.
    size: Option<Vec<f64>>,
    height_scale: Option<f64>,
    mesh: Option<String>,
    up: Option<UpName>,
}

/// The up axis of a terrain mesh, by its name in the scene.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum UpName {
    Y,
    Z,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassFile {
    name: String,
    radius: toml::Value,
    density: Option<String>,
    region: Option<String>,
    min_slope: Option<f64>,
    max_slope: Option<f64>,
    min_height: Option<f64>,
    max_height: Option<f64>,
    slope_radius: Option<f64>,
    align: Option<f64>,
    scale: Option<toml::Value>,
    mesh: Option<MeshKind>,
}

/// A checked scene: the scatter, its seed, and what the writers need per class.
#[derive(Debug)]
pub struct Scene {
    /// The seed of every draw.
    pub seed: u64,
    /// The configured scatter.
    pub scatter: Scatter,
    /// Each class's placeholder mesh, in declaration order.
    pub meshes: Vec<MeshKind>,
}

/// Reads and checks the scene at `path`, whose scatter shows its progress to `progress` if
/// given. Errors are one line: the file, the key, the problem.
pub fn load(path: &Path, progress: Option<Hook>) -> Result<Scene, String> {
    let name = path.display().to_string();
    let text =
        crate::inputs::read_text_bounded(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    parse(&text, &name, &base, progress)
}

/// A progress hook for the scatter of a scene.
pub type Hook = Box<dyn Fn(Progress) -> ControlFlow<()> + Send + Sync>;

/// Parses and checks a scene's text; `name` is what messages call the file, `base` the
/// folder its paths are relative to, `progress` what the scatter shows its progress to.
pub fn parse(text: &str, name: &str, base: &Path, progress: Option<Hook>) -> Result<Scene, String> {
    let file: SceneFile =
        toml::from_str(text).map_err(|e| format!("{name}: {}", inputs::toml_message(text, &e)))?;
    let fail = |key: &str, problem: String| format!("{name}: {key}: {problem}");
    let ground = ground(&file.terrain, base).map_err(|(key, problem)| fail(&key, problem))?;
    let domain = ground.domain().map_err(|e| {
        let key = if matches!(ground, Ground::Mesh(_)) { "terrain.mesh" } else { "terrain.size" };
        fail(key, e.to_string())
    })?;
    if file.classes.is_empty() {
        return Err(fail("class", "the scene has no [[class]] table".into()));
    }
    let mut builder = Scatter::builder(ground.clone());
    if let Some(hook) = progress {
        builder = builder.with_progress(hook);
    }
    if let Some(rule) = file.pair_rule {
        builder = builder.with_pair_rule(rule);
    }
    let mut meshes = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    for (i, class) in file.classes.iter().enumerate() {
        let key = |field: &str| format!("class[{i}].{field}");
        let checked =
            class_of(class, base, &ground, &domain, &key).map_err(|(k, p)| fail(&k, p))?;
        if names.contains(&class.name.as_str()) {
            return Err(fail(&key("name"), format!("'{}' names two classes", class.name)));
        }
        names.push(&class.name);
        meshes.push(class.mesh.unwrap_or_else(|| MeshKind::for_index(i)));
        builder = builder.with_class(checked);
    }
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for (pair, &distance) in &file.distances {
        let key = format!("distances.\"{pair}\"");
        let Some((a, b)) = pair.split_once('-').filter(|(_, b)| !b.contains('-')) else {
            return Err(fail(&key, "must name two classes as \"a-b\"".into()));
        };
        let index = |n: &str| {
            names.iter().position(|m| *m == n).ok_or_else(|| {
                fail(&key, format!("no class named '{n}' (classes: {})", names.join(", ")))
            })
        };
        let (i, j) = (index(a)?, index(b)?);
        if i == j {
            return Err(fail(&key, "a class keeps its own radius from itself".into()));
        }
        if pairs.contains(&(i.min(j), i.max(j))) {
            return Err(fail(&key, "the pair is given twice".into()));
        }
        pairs.push((i.min(j), i.max(j)));
        if !(distance.is_finite() && distance > 0.0) {
            return Err(fail(
                &key,
                format!("must be finite and > 0, got {}", Short::of(&distance)),
            ));
        }
        poisson_nd::limits::check_output_length("the distance", distance, false)
            .map_err(|e| fail(&key, e.to_string()))?;
        builder = builder.with_distance(a, b, distance);
    }
    // The instances and the outputs made of them take about 400 bytes each: the classes
    // share one limit, so that a scene's memory is bounded whatever its classes.
    let per_class = MAX_INSTANCES / file.classes.len();
    builder = builder.with_max_points(per_class.max(1));
    let scatter = builder.build().map_err(|e| match e {
        Error::InClass { class, source } => match *source {
            Error::TooManyPoints { radius, estimated_points, .. } => format!(
                "{name}: class '{class}': radius {} could place about {estimated_points:.3e} \
                 instances on the terrain, over the {per_class} a class may have (a scene's \
                 {MAX_INSTANCES} shared by its {} classes, about 400 bytes each with the \
                 outputs); use a larger radius or a smaller terrain",
                Short::of(&radius),
                file.classes.len()
            ),
            source => format!("{name}: class '{class}': {source}"),
        },
        e => format!("{name}: {e}"),
    })?;
    Ok(Scene { seed: file.seed, scatter, meshes })
}

type KeyError = (String, String);

/// The most instances a scene may place, all classes together (each class gets an equal
/// share as its limit): about 4 GB with the outputs made of them.
pub const MAX_INSTANCES: usize = 10_000_000;

/// A path of the scene, relative to its folder.
fn resolve(base: &Path, path: &str) -> PathBuf {
    base.join(path)
}

/// The ground: a heightmap or a mesh, checked.
fn ground(file: &TerrainFile, base: &Path) -> Result<Ground, KeyError> {
    let err = |key: &str, problem: String| (format!("terrain.{key}"), problem);
    match (&file.heightmap, &file.mesh) {
        (Some(_), Some(_)) => Err(err("mesh", "give a heightmap or a mesh, not both".into())),
        (None, None) => Err(err("heightmap", "the terrain needs a heightmap or a mesh".into())),
        (Some(heightmap), None) => {
            if file.up.is_some() {
                return Err(err("up", "applies only to a mesh terrain".into()));
            }
            let (Some(size), Some(height_scale)) = (&file.size, file.height_scale) else {
                let key = if file.size.is_none() { "size" } else { "height_scale" };
                return Err(err(key, "a heightmap terrain needs size and height_scale".into()));
            };
            heightmap_terrain(heightmap, size, height_scale, base).map(Ground::from)
        }
        (None, Some(mesh)) => {
            for (key, given) in
                [("size", file.size.is_some()), ("height_scale", file.height_scale.is_some())]
            {
                if given {
                    return Err(err(
                        key,
                        "a mesh terrain takes its size and heights from the mesh".into(),
                    ));
                }
            }
            let path = resolve(base, mesh);
            let surface = crate::surface::read_surface(&path).map_err(|p| err("mesh", p))?;
            let up = match file.up {
                Some(UpName::Z) => UpAxis::Z,
                Some(UpName::Y) | None => UpAxis::Y,
            };
            MeshTerrain::new(surface, up)
                .map(Ground::from)
                .map_err(|e| err("mesh", format!("{}: {e}", path.display())))
        }
    }
}

/// The heightmap, checked.
fn heightmap_terrain(
    heightmap: &str,
    size: &[f64],
    height_scale: f64,
    base: &Path,
) -> Result<Terrain, KeyError> {
    let err = |key: &str, problem: String| (format!("terrain.{key}"), problem);
    let size: [f64; 2] = size
        .try_into()
        .map_err(|_| err("size", format!("needs 2 values (x and z), got {}", size.len())))?;
    for (axis, &value) in size.iter().enumerate() {
        if !(value.is_finite() && value > 0.0) {
            return Err(err(
                "size",
                format!("side {axis} must be finite and > 0, got {}", Short::of(&value)),
            ));
        }
    }
    if !(height_scale.is_finite() && height_scale >= 0.0) {
        return Err(err(
            "height_scale",
            format!("must be finite and >= 0, got {}", Short::of(&height_scale)),
        ));
    }
    let path = resolve(base, heightmap);
    let (width, height, rows) =
        heightmap_rows(&path).map_err(|problem| err("heightmap", problem))?;
    Terrain::from_image_rows(width, height, rows, size, height_scale).map_err(|e| match e {
        // The library's range checks name the scene's keys.
        Error::OutOfRange { name: "the terrain size", .. } => err("size", e.to_string()),
        Error::OutOfRange { name: "height_scale", .. } => err("height_scale", e.to_string()),
        e => err("heightmap", format!("{}: {e}", path.display())),
    })
}

/// A heightmap file as image rows (row 0 at the largest z): a PNG as it is; a 2D `.npy` of
/// shape `(n_x, n_z)` in the project's array convention (axis 0 along x, axis 1 along z,
/// index 0 at the south edge), turned into rows.
fn heightmap_rows(path: &Path) -> Result<(usize, usize, Vec<f64>), String> {
    let name = path.display().to_string();
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    match extension.as_str() {
        "png" => {
            let raster = inputs::png::read_png(path).map_err(|e| e.to_string())?;
            Ok((raster.width, raster.height, raster.values))
        }
        "npy" => {
            let array = inputs::npy::read_npy(path).map_err(|e| e.to_string())?;
            if array.axes() != 2 {
                return Err(format!(
                    "{name}: a heightmap array needs 2 axes (x, z), got shape {:?}",
                    array.shape
                ));
            }
            array.check_unit_interval(&name).map_err(|e| e.to_string())?;
            let (nx, nz) = (array.shape[0], array.shape[1]);
            let mut rows = vec![0.0; nx * nz];
            for i in 0..nx {
                for k in 0..nz {
                    rows[(nz - 1 - k) * nx + i] = array.values[i * nz + k];
                }
            }
            Ok((nx, nz, rows))
        }
        _ => Err(format!("{name}: a heightmap must be a .png or .npy file")),
    }
}

/// A number from TOML (a float or an integer).
fn number(value: &toml::Value) -> Option<f64> {
    match value {
        toml::Value::Float(f) => Some(*f),
        toml::Value::Integer(i) => Some(*i as f64),
        _ => None,
    }
}

/// One value or `[min, max]`.
fn one_or_range(value: &toml::Value) -> Option<(f64, f64, bool)> {
    match value {
        toml::Value::Array(items) if items.len() == 2 => {
            Some((number(&items[0])?, number(&items[1])?, true))
        }
        other => number(other).map(|v| (v, v, false)),
    }
}

/// One class, checked and built.
fn class_of(
    file: &ClassFile,
    base: &Path,
    ground: &Ground,
    domain: &Domain<2>,
    key: &dyn Fn(&str) -> String,
) -> Result<ScatterClass, KeyError> {
    let err = |field: &str, problem: String| (key(field), problem);
    let valid_name =
        !file.name.is_empty() && file.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid_name {
        return Err(err(
            "name",
            format!(
                "'{}' must be letters, digits and '_' ('-' joins two names in [distances])",
                file.name
            ),
        ));
    }
    let Some((rmin, rmax, range)) = one_or_range(&file.radius) else {
        return Err(err("radius", "must be a number or [rmin, rmax]".into()));
    };
    if !(rmin.is_finite() && rmin > 0.0) {
        return Err(err("radius", format!("must be finite and > 0, got {}", Short::of(&rmin))));
    }
    if !rmax.is_finite() || rmin > rmax {
        return Err(err(
            "radius",
            format!(
                "needs rmin <= rmax (both finite), got [{}, {}]",
                Short::of(&rmin),
                Short::of(&rmax)
            ),
        ));
    }
    let mut class = match (&file.density, range) {
        (Some(density), true) => {
            let path = resolve(base, density);
            match ground {
                Ground::Heightmap(_) => {
                    let field =
                        shapes::density_field::<2>(&path, domain, rmin, rmax, DensityMapping::Lerp)
                            .map_err(|problem| err("density", problem))?;
                    ScatterClass::from_field(file.name.clone(), field)
                }
                // On a mesh the map is a texture, read through the mesh's UVs.
                Ground::Mesh(terrain) => {
                    let texture = crate::surface::read_texture_density(
                        &path,
                        DensityMapping::Lerp,
                        rmin,
                        rmax,
                    )
                    .map_err(|problem| err("density", problem))?;
                    let field = terrain.density_field(texture).map_err(|_| {
                        err(
                            "density",
                            format!(
                                "the terrain mesh has no texture coordinates (UVs), through which \
                                 a mesh terrain reads {}",
                                path.display()
                            ),
                        )
                    })?;
                    ScatterClass::from_field(file.name.clone(), field)
                }
            }
        }
        (Some(_), false) => {
            return Err(err("radius", "a density map needs radius = [rmin, rmax]".into()));
        }
        (None, true) => {
            return Err(err("radius", "[rmin, rmax] needs a density map (density = ...)".into()));
        }
        (None, false) => ScatterClass::new(file.name.clone(), rmin),
    }
    .map_err(|e| err("radius", e.to_string()))?;
    if let Some(region) = &file.region {
        let path = resolve(base, region);
        let input = shapes::region::<2>(&path, Some(domain)).map_err(|p| err("region", p))?;
        class = class.with_region(input.region);
    }
    for (field, value) in [("min_slope", file.min_slope), ("max_slope", file.max_slope)] {
        if let Some(v) = value
            && !(0.0..=90.0).contains(&v)
        {
            return Err(err(field, format!("must be in [0, 90] degrees, got {}", Short::of(&v))));
        }
    }
    let (min_slope, max_slope) = (file.min_slope.unwrap_or(0.0), file.max_slope.unwrap_or(90.0));
    if min_slope > max_slope {
        return Err(err("min_slope", format!("{min_slope} is above max_slope {max_slope}")));
    }
    for (field, value) in [("min_height", file.min_height), ("max_height", file.max_height)] {
        if let Some(v) = value
            && !v.is_finite()
        {
            return Err(err(field, format!("must be finite, got {}", Short::of(&v))));
        }
    }
    let min_height = file.min_height.unwrap_or(f64::NEG_INFINITY);
    let max_height = file.max_height.unwrap_or(f64::INFINITY);
    if min_height > max_height {
        return Err(err(
            "min_height",
            format!("{} is above max_height {}", Short::of(&min_height), Short::of(&max_height)),
        ));
    }
    let growth = file.slope_radius.unwrap_or(0.0);
    if !(growth.is_finite() && growth >= 0.0) {
        return Err(err(
            "slope_radius",
            format!("must be finite and >= 0, got {}", Short::of(&growth)),
        ));
    }
    let rules = PlacementRules::new()
        .with_slope(min_slope, max_slope)
        .and_then(|r| r.with_height(min_height, max_height))
        .and_then(|r| r.with_slope_radius(growth))
        .map_err(|e| err("max_slope", e.to_string()))?;
    let align = file.align.unwrap_or(0.0);
    if !(0.0..=1.0).contains(&align) {
        return Err(err("align", format!("must be in [0, 1], got {}", Short::of(&align))));
    }
    let (smin, smax) = match &file.scale {
        None => (1.0, 1.0),
        Some(value) => {
            let Some((a, b, _)) = one_or_range(value) else {
                return Err(err("scale", "must be a number or [min, max]".into()));
            };
            (a, b)
        }
    };
    if !(smin.is_finite() && smin > 0.0 && smax.is_finite() && smax > 0.0) {
        return Err(err(
            "scale",
            format!("must be finite and > 0, got [{}, {}]", Short::of(&smin), Short::of(&smax)),
        ));
    }
    if smin > smax {
        return Err(err(
            "scale",
            format!("needs min <= max, got [{}, {}]", Short::of(&smin), Short::of(&smax)),
        ));
    }
    // `align` is checked above: what the pose refuses is the scale.
    let pose = Pose::new(align, smin, smax).map_err(|e| err("scale", e.to_string()))?;
    let class = class.with_rules(rules).with_pose(pose);
    // The slope's growth of the radius must keep it within the 32-bit range as well.
    let (_, grown) = class.effective_bounds();
    poisson_nd::limits::check_output_length("the largest radius the slope grows to", grown, false)
        .map_err(|e| err("slope_radius", e.to_string()))?;
    Ok(class)
}
