//! World scatter: several classes of objects (trees, shrubs, rocks) placed on a terrain with
//! guaranteed distances within and across classes, lifted onto the surface as instances.
//!
//! - [`Ground`]: what the classes stand on, either a [`Terrain`] (a heightmap over a world
//!   rectangle: bilinear height, normal, slope; row 0 of the heightmap lies at the largest
//!   `z`) or a [`MeshTerrain`] (the upward-facing top surface of a triangle mesh, with the
//!   face's height, normal and slope; a density over the mesh reaches a class's radius
//!   through [`MeshTerrain::density_field`]). World axes: `x` = sample axis 0 (east),
//!   `z` = sample axis 1 (north), `y` up. Distances between instances are measured in the
//!   ground plane `(x, z)`.
//! - [`ScatterClass`]: a class's radius (constant or a [`RadiusField`]), optional
//!   [`Region`], [`PlacementRules`] (slope and height bands, radius growing with slope) and
//!   [`Pose`] (how far it leans with the terrain, its scale range).
//! - [`Scatter`]: the classes on one terrain, with the distance between classes: the
//!   [`PairRule`] of the two points' own radii (the library's default, `max`; vegetation wants
//!   the mean `(rᵢ + rⱼ)/2`, so that footprints of radius `r/2` never overlap), overridable
//!   per pair by a constant. [`Scatter::sample`] places the ground points, [`Scatter::lift`]
//!   makes them [`Instance`]s.
//!
//! Classes are placed in priority order, largest radius first (docs/algorithms.md, "World
//! scatter"): each class is a Bridson fill with a restart scan over its allowed area, whose
//! candidates keep the class's own pair distance to its own points and the cross distance
//! to every point of the classes placed before it. Every pair of the output, within and
//! across classes, keeps its distance by construction.
//!
//! ```
//! use poisson_nd::scatter::{Pose, Scatter, ScatterClass, Terrain};
//! // A gentle ramp 100 m × 100 m rising 10 m to the north.
//! let rows: Vec<f64> = (0..8).flat_map(|row| [1.0 - row as f64 / 7.0; 8]).collect();
//! let terrain = Terrain::from_image_rows(8, 8, rows, [100.0, 100.0], 10.0)?;
//! let scatter = Scatter::builder(terrain)
//!     .with_class(ScatterClass::new("tree", 8.0)?.with_pose(Pose::new(0.0, 0.8, 1.2)?))
//!     .with_class(ScatterClass::new("rock", 3.0)?.with_pose(Pose::new(1.0, 1.0, 1.0)?))
//!     .with_distance("tree", "rock", 5.0)
//!     .build()?;
//! let points = scatter.sample(7)?;
//! let instances = scatter.lift(&points, 7);
//! assert_eq!(instances.len(), points.len());
//! // Trees and rocks keep 5 m.
//! let (trees, rocks) = (&points.classes[0].points, &points.classes[1].points);
//! for t in trees {
//!     for r in rocks {
//!         assert!((t[0] - r[0]).hypot(t[1] - r[1]) >= 5.0);
//!     }
//! }
//! # Ok::<(), poisson_nd::Error>(())
//! ```

mod exclusion;
mod ground;
mod instances;
mod mesh_terrain;
mod multiclass;
mod rules;
mod terrain;

pub use ground::Ground;
pub use instances::{Instance, Pose, quaternion_xyzw};
pub use mesh_terrain::{GroundDensity, MeshTerrain, UpAxis};
pub use rules::PlacementRules;
pub use terrain::{Surface, Terrain};

use crate::domain::Domain;
use crate::error::Error;
use crate::field::{ConstantField, PairRule, RadiusField, check_bounds};
use crate::limits;
use crate::point::Point;
use crate::region::Region;
use crate::sampler::{Progress, Watch};
use std::sync::Arc;

/// One class of objects: its name, radius, allowed area, placement rules and pose.
///
/// ```
/// use poisson_nd::scatter::{PlacementRules, ScatterClass};
/// let rock = ScatterClass::new("rock", 3.0)?
///     .with_rules(PlacementRules::new().with_slope(10.0, 60.0)?);
/// assert_eq!(rock.radius_bounds(), (3.0, 3.0));
/// assert!(ScatterClass::new("rock", -1.0).is_err());
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Clone)]
pub struct ScatterClass {
    name: String,
    radius: BaseRadius,
    region: Option<Arc<dyn Region<2>>>,
    rules: PlacementRules,
    pose: Pose,
}

/// A class's radius before slope growth.
#[derive(Clone)]
pub(crate) enum BaseRadius {
    /// One radius.
    Constant(f64),
    /// A field with its checked bounds.
    Field(Arc<dyn RadiusField<2>>, f64, f64),
}

impl std::fmt::Debug for ScatterClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScatterClass")
            .field("name", &self.name)
            .field("radius_bounds", &self.radius_bounds())
            .field("region", &self.region.as_ref().map(|r| r.bounding_box()))
            .field("rules", &self.rules)
            .field("pose", &self.pose)
            .finish()
    }
}

impl ScatterClass {
    /// A class with one radius, no region, no rules, upright at scale 1.
    ///
    /// Errors: a radius that is not finite and positive ([`Error::InvalidRadius`]); an
    /// empty name ([`Error::EmptyInput`]).
    pub fn new(name: impl Into<String>, radius: f64) -> Result<Self, Error> {
        ConstantField::new(radius)?;
        limits::check_output_length("a class radius", radius, false)?;
        Self::from_base(name.into(), BaseRadius::Constant(radius))
    }

    /// A class whose radius is a field over the ground plane `(x, z)` (for example a
    /// [`DensityField`](crate::DensityField) from a wetness map).
    ///
    /// Errors: the field's bounds are not `0 < rmin ≤ rmax < ∞`
    /// ([`Error::InvalidRadiusBounds`]); an empty name.
    pub fn from_field(
        name: impl Into<String>,
        field: impl RadiusField<2> + 'static,
    ) -> Result<Self, Error> {
        let radius = match field.constant_radius() {
            Some(r) => {
                ConstantField::new(r)?;
                limits::check_output_length("a class radius", r, false)?;
                BaseRadius::Constant(r)
            }
            None => {
                let (rmin, rmax) = field.bounds();
                check_bounds(rmin, rmax)?;
                limits::check_output_length("a class's rmin", rmin, false)?;
                limits::check_output_length("a class's rmax", rmax, false)?;
                BaseRadius::Field(Arc::new(field), rmin, rmax)
            }
        };
        Self::from_base(name.into(), radius)
    }

    fn from_base(name: String, radius: BaseRadius) -> Result<Self, Error> {
        if name.is_empty() {
            return Err(Error::EmptyInput("a class's name"));
        }
        Ok(ScatterClass {
            name,
            radius,
            region: None,
            rules: PlacementRules::new(),
            pose: Pose::default(),
        })
    }

    /// Places the class only inside `region` (of the ground plane `(x, z)`).
    #[must_use]
    pub fn with_region(mut self, region: impl Region<2> + 'static) -> Self {
        self.region = Some(Arc::new(region));
        self
    }

    /// Sets the placement rules.
    #[must_use]
    pub fn with_rules(mut self, rules: PlacementRules) -> Self {
        self.rules = rules;
        self
    }

    /// Sets the pose (alignment with the terrain, scale range).
    #[must_use]
    pub fn with_pose(mut self, pose: Pose) -> Self {
        self.pose = pose;
        self
    }

    /// The class's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The base radius bounds `(rmin, rmax)` (before slope growth).
    pub fn radius_bounds(&self) -> (f64, f64) {
        match &self.radius {
            BaseRadius::Constant(r) => (*r, *r),
            BaseRadius::Field(_, rmin, rmax) => (*rmin, *rmax),
        }
    }

    /// The radius bounds with slope growth: `(rmin·f_min, rmax·f_max)` with the smallest and
    /// largest factors of the slope band (see [`PlacementRules`]).
    pub fn effective_bounds(&self) -> (f64, f64) {
        let (rmin, rmax) = self.radius_bounds();
        (rmin * self.rules.smallest_factor(), rmax * self.rules.largest_factor())
    }

    /// The placement rules.
    pub fn rules(&self) -> &PlacementRules {
        &self.rules
    }

    /// The pose.
    pub fn pose(&self) -> &Pose {
        &self.pose
    }

    /// Whether the radius is one value everywhere (constant base, no slope growth).
    pub fn has_constant_radius(&self) -> bool {
        matches!(self.radius, BaseRadius::Constant(_)) && self.rules.slope_radius() == 0.0
    }
}

/// The configuration of a [`Scatter`] before it is checked.
#[derive(Debug, Clone)]
pub struct ScatterBuilder {
    ground: Ground,
    classes: Vec<ScatterClass>,
    distances: Vec<(String, String, f64)>,
    rule: PairRule,
    attempts: u32,
    max_points: usize,
    watch: Option<Watch>,
}

impl ScatterBuilder {
    /// Adds a class (declaration order is the order of the output).
    #[must_use]
    pub fn with_class(mut self, class: ScatterClass) -> Self {
        self.classes.push(class);
        self
    }

    /// Sets the minimum ground distance between any instance of class `a` and any of class
    /// `b` (in either order), replacing the pair rule of their radii. A distance that is not
    /// finite and positive, unknown names, a class paired with itself and a pair given twice
    /// are refused by [`build`](Self::build).
    #[must_use]
    pub fn with_distance(mut self, a: &str, b: &str, distance: f64) -> Self {
        self.distances.push((a.to_string(), b.to_string(), distance));
        self
    }

    /// Sets the pair rule (default [`PairRule::Max`], the library's one default): within a
    /// class two points with radii `rᵢ`, `rⱼ` keep `rule(rᵢ, rⱼ)`, and so do two points of
    /// different classes without an override.
    ///
    /// For vegetation choose [`PairRule::Mean`]: it makes the radius a footprint, each
    /// instance owning the disc of radius `r/2` around it, no two footprints overlapping
    /// whatever their classes. With `max` a class of small radius must keep the large radius
    /// from every point of a large class, so under a dense forest shrubs only find the rare
    /// clearings the trees' fill leaves; with the mean they fill the space between the trees'
    /// footprints. Within a class of one radius every rule is that radius.
    #[must_use]
    pub fn with_pair_rule(mut self, rule: PairRule) -> Self {
        self.rule = rule;
        self
    }

    /// Sets `k`, the candidates tried around an active point (default 30).
    #[must_use]
    pub fn with_attempts(mut self, k: u32) -> Self {
        self.attempts = k;
        self
    }

    /// Calls `hook` as the classes are placed (every
    /// [`PROGRESS_EVERY`](crate::sampler::PROGRESS_EVERY) points of a class; the count is the
    /// class's), to show the progress or stop the run ([`Watch`]): a stopped
    /// [`Scatter::sample`] is [`Error::Cancelled`].
    #[must_use]
    pub fn with_progress(
        mut self,
        hook: impl Fn(Progress) -> std::ops::ControlFlow<()> + Send + Sync + 'static,
    ) -> Self {
        self.watch = Some(Watch::new(hook));
        self
    }

    /// Sets the point limit per class (default [`defaults::MAX_POINTS`](crate::defaults::MAX_POINTS)):
    /// it must hold the densest packing of the terrain at the class's smallest radius.
    #[must_use]
    pub fn with_max_points(mut self, max_points: usize) -> Self {
        self.max_points = max_points;
        self
    }

    /// Checks everything and lays out each class's grid.
    ///
    /// Errors: no class ([`Error::EmptyInput`]); two classes with one name
    /// ([`Error::DuplicateClass`]); a distance naming an unknown class
    /// ([`Error::UnknownClass`]), a class and itself or a pair given twice
    /// ([`Error::InvalidClassPair`]); `k = 0`; a class whose smallest radius could place more
    /// points than the limit, whose grid would be too large, or whose region misses the
    /// terrain or holds none of it ([`Error::InClass`] around the cause; placement rules that
    /// no ground meets leave their class empty instead).
    pub fn build(self) -> Result<Scatter, Error> {
        if self.classes.is_empty() {
            return Err(Error::EmptyInput("the list of classes"));
        }
        if self.attempts == 0 {
            return Err(Error::ZeroCount("attempts"));
        }
        let n = self.classes.len();
        for (i, class) in self.classes.iter().enumerate() {
            if self.classes[..i].iter().any(|c| c.name == class.name) {
                return Err(Error::DuplicateClass(class.name.clone()));
            }
        }
        let index_of = |name: &str| {
            self.classes.iter().position(|c| c.name == name).ok_or_else(|| Error::UnknownClass {
                name: name.to_string(),
                known: self.classes.iter().map(|c| c.name.clone()).collect(),
            })
        };
        let mut overrides = vec![None; n * n];
        for (a, b, d) in &self.distances {
            if !(d.is_finite() && *d > 0.0) {
                return Err(Error::InvalidParameter {
                    name: "class distance",
                    expected: "finite and > 0",
                    value: *d,
                });
            }
            limits::check_output_length("a class distance", *d, false)?;
            let (i, j) = (index_of(a)?, index_of(b)?);
            let pair = |reason| Error::InvalidClassPair { a: a.clone(), b: b.clone(), reason };
            if i == j {
                return Err(pair("a class keeps its own radius from itself"));
            }
            if overrides[i * n + j].is_some() {
                return Err(pair("the pair is given twice"));
            }
            overrides[i * n + j] = Some(*d);
            overrides[j * n + i] = Some(*d);
        }
        let domain = self.ground.domain()?;
        // Priority: the largest radius first, ties in declaration order (a stable sort).
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| {
            let (ra, rb) =
                (self.classes[a].effective_bounds().1, self.classes[b].effective_bounds().1);
            rb.total_cmp(&ra)
        });
        let plans = multiclass::plan(&self, &domain, &order, &overrides)?;
        Ok(Scatter {
            ground: Arc::new(self.ground),
            classes: self.classes,
            overrides,
            rule: self.rule,
            attempts: self.attempts,
            domain,
            order,
            plans,
            watch: self.watch,
        })
    }
}

/// Several classes scattered on one terrain (see the [module documentation](self)).
#[derive(Debug, Clone)]
pub struct Scatter {
    ground: Arc<Ground>,
    classes: Vec<ScatterClass>,
    /// `overrides[i·n + j]`: the constant distance between classes `i` and `j`, if given.
    overrides: Vec<Option<f64>>,
    rule: PairRule,
    attempts: u32,
    domain: Domain<2>,
    order: Vec<usize>,
    plans: Vec<multiclass::Plan>,
    watch: Option<Watch>,
}

/// What [`Scatter::lift`] stands a point on where there is no ground.
const OFF_GROUND: Surface = Surface { height: 0.0, normal: [0.0, 1.0, 0.0], slope: 0.0 };

/// The ground points of one class.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassPoints {
    /// The class's name.
    pub name: String,
    /// The ground points `[x, z]`, in the order they were placed.
    pub points: Vec<Point<2>>,
    /// Each point's radius (base radius at the point times the slope factor).
    pub radii: Vec<f64>,
}

/// The ground points of every class, in declaration order.
#[derive(Debug, Clone, PartialEq)]
pub struct ScatterPoints {
    /// One entry per class, in the order the classes were declared.
    pub classes: Vec<ClassPoints>,
}

impl ScatterPoints {
    /// The number of points of every class together.
    pub fn len(&self) -> usize {
        self.classes.iter().map(|c| c.points.len()).sum()
    }

    /// Whether no class has a point.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Scatter {
    /// A builder over `terrain`, with no class yet, the pair rule [`PairRule::Max`] (the
    /// library's default; vegetation wants [`PairRule::Mean`], see
    /// [`ScatterBuilder::with_pair_rule`]), `k = 30`.
    pub fn builder(ground: impl Into<Ground>) -> ScatterBuilder {
        ScatterBuilder {
            ground: ground.into(),
            classes: Vec::new(),
            distances: Vec::new(),
            rule: PairRule::default(),
            attempts: crate::defaults::ATTEMPTS,
            max_points: crate::defaults::MAX_POINTS,
            watch: None,
        }
    }

    /// The ground the classes stand on.
    pub fn terrain(&self) -> &Ground {
        &self.ground
    }

    /// The classes, in declaration order.
    pub fn classes(&self) -> &[ScatterClass] {
        &self.classes
    }

    /// The ground rectangle (`[0, Lx) × [0, Lz)` for a heightmap) as a domain.
    pub fn domain(&self) -> &Domain<2> {
        &self.domain
    }

    /// The pair rule.
    pub fn pair_rule(&self) -> PairRule {
        self.rule
    }

    /// The order classes are placed in (declaration indices): largest effective `rmax` first,
    /// ties in declaration order.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// The ground distance a point of class `a` with radius `ra` and a point of class `b`
    /// with radius `rb` must keep: the pair rule of the radii within a class and between
    /// classes without an override, the override otherwise.
    ///
    /// ```
    /// use poisson_nd::field::PairRule;
    /// use poisson_nd::scatter::{Scatter, ScatterClass, Terrain};
    /// let terrain = Terrain::from_image_rows(1, 1, vec![0.0], [50.0, 50.0], 1.0)?;
    /// let scatter = Scatter::builder(terrain)
    ///     .with_pair_rule(PairRule::Mean)
    ///     .with_class(ScatterClass::new("tree", 8.0)?)
    ///     .with_class(ScatterClass::new("shrub", 2.0)?)
    ///     .with_class(ScatterClass::new("rock", 3.0)?)
    ///     .with_distance("tree", "rock", 5.0)
    ///     .build()?;
    /// assert_eq!(scatter.required_distance(0, 8.0, 1, 2.0), 5.0); // (8 + 2) / 2
    /// assert_eq!(scatter.required_distance(2, 3.0, 0, 8.0), 5.0); // the override
    /// assert_eq!(scatter.order(), &[0, 2, 1]); // tree, rock, shrub
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn required_distance(&self, a: usize, ra: f64, b: usize, rb: f64) -> f64 {
        let n = self.classes.len();
        match self.overrides.get(a * n + b).copied().flatten() {
            Some(d) if a != b => d,
            _ => self.rule.distance(ra, rb),
        }
    }

    /// Places every class's ground points, with the generator seeded by `seed` (one stream
    /// per class): same seed, same points.
    ///
    /// Errors: a radius field that gives a value outside its bounds (NaN, not positive)
    /// somewhere it is read ([`Error::InClass`] around [`Error::FieldValueOutOfBounds`]).
    pub fn sample(&self, seed: u64) -> Result<ScatterPoints, Error> {
        multiclass::sample(self, seed)
    }

    /// Lifts the ground points onto the terrain: position `[x, height(x, z), z]`, rotation
    /// and scale from each class's [`Pose`] (drawn from `(seed, class, index)`), radius.
    /// Classes in declaration order, points in placement order. A point with no ground
    /// under it (on a mesh, and never one this scatter placed) stands upright at height 0.
    pub fn lift(&self, points: &ScatterPoints, seed: u64) -> Vec<Instance> {
        let mut out = Vec::with_capacity(points.len());
        for (class, set) in points.classes.iter().enumerate() {
            let pose = self.classes.get(class).map_or_else(Pose::default, |c| c.pose);
            // Each instance depends on (seed, class, index) alone: on all cores with the
            // `rayon` feature, the same instances in the same order.
            let instance = |index: usize| {
                let p = set.points[index];
                let surface = self.ground.surface(p[0], p[1]).unwrap_or(OFF_GROUND);
                let (rotation, scale) = pose.orient(seed, class, index, surface.normal);
                Instance {
                    class,
                    position: [p[0], surface.height, p[1]],
                    rotation: quaternion_xyzw(&rotation),
                    scale,
                    radius: set.radii[index],
                }
            };
            #[cfg(feature = "rayon")]
            {
                use rayon::prelude::*;
                let lifted: Vec<Instance> =
                    (0..set.points.len()).into_par_iter().map(instance).collect();
                out.extend(lifted);
            }
            #[cfg(not(feature = "rayon"))]
            out.extend((0..set.points.len()).map(instance));
        }
        out
    }
}
