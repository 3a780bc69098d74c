//! The one error type of the library.

use thiserror::Error;

/// Everything that can be wrong with a sampler's configuration.
///
/// Constructors validate their input and return one of these; sampling itself never fails.
/// Every message names the offending value so that a command-line tool can print it as is.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum Error {
    /// The dimension `D` is zero: there is no space to sample.
    #[error("the dimension must be at least 1, got 0")]
    ZeroDimension,

    /// A list of per-axis values has the wrong length for the dimension.
    #[error("{what} has {got} values but the dimension is {expected}")]
    DimensionMismatch {
        /// Which list (for example "origin" or "box").
        what: &'static str,
        /// The dimension `D`.
        expected: usize,
        /// How many values were given.
        got: usize,
    },

    /// An origin coordinate is NaN or infinite.
    #[error("origin coordinate {axis} must be finite, got {value_}", value_ = crate::error::Short::of(.value))]
    InvalidOrigin {
        /// The axis (0-based).
        axis: usize,
        /// The value given.
        value: f64,
    },

    /// A box side is zero, negative, NaN or infinite (an empty or inverted box).
    #[error("box side {axis} must be finite and > 0, got {value_}", value_ = crate::error::Short::of(.value))]
    InvalidExtent {
        /// The axis (0-based).
        axis: usize,
        /// The value given.
        value: f64,
    },

    /// A box given by its corners has an upper coordinate that is not finite or not above
    /// the lower one.
    #[error(
        "box axis {axis}: the upper corner {upper_} must be finite and above \
         the lower corner {lower_}"
    , upper_ = crate::error::Short::of(.upper), lower_ = crate::error::Short::of(.lower))]
    InvalidCorners {
        /// The axis (0-based).
        axis: usize,
        /// The lower corner's coordinate.
        lower: f64,
        /// The upper corner's coordinate.
        upper: f64,
    },

    /// The upper corner `origin + extent` overflows to infinity.
    #[error("box axis {axis} reaches past the largest finite number")]
    BoxOverflow {
        /// The axis (0-based).
        axis: usize,
    },

    /// The Poisson-disk radius is zero, negative, NaN or infinite.
    #[error("radius must be finite and > 0, got {r_}", r_ = crate::error::Short::of(.0))]
    InvalidRadius(f64),

    /// A count parameter that must be positive is zero (for example `k`, the attempts per
    /// active point).
    #[error("{0} must be at least 1, got 0")]
    ZeroCount(&'static str),

    /// A length, coordinate or radius is outside the numbers the library guarantees its
    /// results for ([`limits`](crate::limits), docs/limits.md).
    #[error("{name} must be {range}, got {value_}", value_ = crate::error::Short::of(.value))]
    OutOfRange {
        /// What the value is ("radius", "box side 1", …).
        name: &'static str,
        /// The value given.
        value: f64,
        /// The supported range, in words.
        range: &'static str,
    },

    /// A real-valued parameter is outside its valid range.
    #[error("{name} must be {expected}, got {value_}", value_ = crate::error::Short::of(.value))]
    InvalidParameter {
        /// The parameter's name.
        name: &'static str,
        /// The valid range, in words.
        expected: &'static str,
        /// The value given.
        value: f64,
    },

    /// The radius is so small for the box that the point set would pass the point limit.
    #[error(
        "radius {radius_} in this box could place about {estimated_points:.3e} points \
         ({estimated_bytes:.3e} bytes), over the limit of {limit} points; \
         use a larger radius, a smaller box, or raise the point limit"
    , radius_ = crate::error::Short::of(.radius))]
    TooManyPoints {
        /// The radius given.
        radius: f64,
        /// Upper estimate of the number of points (densest packing of the box).
        estimated_points: f64,
        /// What those points would take in memory, in bytes.
        estimated_bytes: f64,
        /// The current limit.
        limit: usize,
    },

    /// A radius field's declared bounds are not `0 < rmin ≤ rmax < ∞`.
    #[error(
        "radius bounds must satisfy 0 < rmin <= rmax (both finite), got rmin = {rmin_}, \
         rmax = {rmax_}"
    , rmin_ = crate::error::Short::of(.rmin), rmax_ = crate::error::Short::of(.rmax))]
    InvalidRadiusBounds {
        /// The declared lower bound.
        rmin: f64,
        /// The declared upper bound.
        rmax: f64,
    },

    /// A gridded field has an axis with no values.
    #[error("a gridded field needs at least one value along every axis; axis {axis} has none")]
    EmptyFieldAxis {
        /// The axis (0-based; for an image 0 is the width, 1 the height).
        axis: usize,
    },

    /// A gridded field's values do not fill its shape.
    #[error("a gridded field of shape {shape:?} needs {expected} values, got {got}")]
    FieldValueCount {
        /// The shape given (for an image: width, height).
        shape: Vec<usize>,
        /// The product of the shape.
        expected: usize,
        /// How many values were given.
        got: usize,
    },

    /// A gridded field's value is not acceptable (NaN or infinite, or a density outside
    /// `[0, 1]`).
    #[error("gridded field value number {index} is {value_}; expected {expected}", value_ = crate::error::Short::of(.value))]
    InvalidFieldValue {
        /// The value's index in the list given (for an image: row · width + column).
        index: usize,
        /// The value.
        value: f64,
        /// What it must be, in words.
        expected: &'static str,
    },

    /// A radius field gave a value that is NaN, not positive or outside its declared
    /// bounds while sampling: the run stopped there (see
    /// [`StopReason::InvalidField`](crate::StopReason::InvalidField)).
    #[error(
        "the radius field gave {value_} at {point:?}, outside its declared bounds \
         [{rmin_}, {rmax_}]"
    , value_ = crate::error::Short::of(.value), rmin_ = crate::error::Short::of(.rmin), rmax_ = crate::error::Short::of(.rmax))]
    FieldValueOutOfBounds {
        /// Where the field was evaluated.
        point: Vec<f64>,
        /// What it returned.
        value: f64,
        /// The declared lower bound.
        rmin: f64,
        /// The declared upper bound.
        rmax: f64,
    },

    /// The radius bounds are so far apart that the background grid's search (cells from
    /// rmin, reach rmax) would visit too many cells per candidate.
    #[error(
        "rmax/rmin = {ratio_} needs about {cells:.3e} grid cells per search, over the limit \
         of {limit}; narrow the radius bounds"
    , ratio_ = crate::error::Short::of(.ratio))]
    RadiusRatioTooLarge {
        /// `rmax / rmin`.
        ratio: f64,
        /// Estimated cells per search.
        cells: f64,
        /// The limit.
        limit: usize,
    },

    /// The background grid would have more cells than can be indexed.
    #[error("the background grid would need about {cells:.3e} cells, more than can be indexed")]
    GridTooLarge {
        /// Number of cells the grid would need.
        cells: f64,
    },

    /// A region was given to a sampler whose domain is periodic: wrapping across the seam
    /// would join parts of the shape that are not neighbours.
    #[error(
        "a region other than the whole box needs a closed (non-periodic) domain; \
         this domain is periodic"
    )]
    PeriodicRegion,

    /// The region's bounding box does not meet the domain's box.
    #[error(
        "the region's bounding box {lower:?}..{upper:?} does not meet the domain's box \
         {origin:?}..{end:?}"
    )]
    RegionOutsideDomain {
        /// The region's lower corner.
        lower: Vec<f64>,
        /// The region's upper corner.
        upper: Vec<f64>,
        /// The domain's lower corner.
        origin: Vec<f64>,
        /// The domain's upper corner.
        end: Vec<f64>,
    },

    /// No point of the region lies in the domain (it is empty, or too thin to be found).
    #[error("the region has no point inside the domain ({0})")]
    EmptyRegion(String),

    /// A coordinate or value given to a region is NaN or infinite.
    #[error("{what} {index} is not finite: {value_}", value_ = crate::error::Short::of(.value))]
    NonFinite {
        /// What the value is (for example "polygon vertex coordinate").
        what: &'static str,
        /// Its position in the input (flat index).
        index: usize,
        /// The value given.
        value: f64,
    },

    /// A list that must hold something is empty (no polygons, no triangles, no pixels).
    #[error("{0} is empty")]
    EmptyInput(&'static str),

    /// A polygon ring has fewer than three distinct vertices.
    #[error(
        "polygon {polygon}, ring {ring} has {distinct} distinct vertices; a ring needs at \
         least 3"
    )]
    DegenerateRing {
        /// The polygon's index.
        polygon: usize,
        /// The ring's index within the polygon (0 is the exterior, then the holes).
        ring: usize,
        /// How many distinct consecutive vertices it has.
        distinct: usize,
    },

    /// A polygon's hole reaches outside its exterior, or two of its holes overlap: the rings
    /// do not say which side is inside there.
    #[error("polygon {polygon}, ring {ring}: {problem}")]
    InvalidHole {
        /// The polygon's index.
        polygon: usize,
        /// The hole's index within the polygon's rings (0 is the exterior, so at least 1).
        ring: usize,
        /// What is wrong, in words.
        problem: String,
    },

    /// A triangle mesh has an edge that an odd number of triangles share: it has a boundary,
    /// so it does not enclose a volume.
    #[error(
        "the mesh is not closed: edge ({a}, {b}) belongs to {count} triangle(s) \
         (a closed mesh has every edge in an even number, usually 2)"
    )]
    OpenMesh {
        /// The edge's first vertex index (the smaller).
        a: usize,
        /// The edge's second vertex index.
        b: usize,
        /// How many triangles use it.
        count: usize,
    },

    /// A triangle refers to a vertex that does not exist, or uses one vertex twice.
    #[error("triangle {triangle} is invalid: {problem}")]
    InvalidTriangle {
        /// The triangle's index.
        triangle: usize,
        /// What is wrong with it.
        problem: String,
    },

    /// The surface fill would cut a mesh's triangles into far more pieces than it can hold
    /// points: its longest triangles are long and thin against the radius.
    #[error(
        "triangle {triangle} is {longest_} long against a radius of {radius_}: the surface fill \
         would cut the mesh into about {pieces:.3e} pieces, more than {limit:.3e} \
         ({per_point} per point it can hold, 2^24 at least); split long thin triangles or use a larger radius",
        longest_ = crate::error::Short::of(.longest),
        radius_ = crate::error::Short::of(.radius)
    )]
    ThinTriangles {
        /// The triangle cut into the most pieces.
        triangle: usize,
        /// Its longest side.
        longest: f64,
        /// The smallest radius.
        radius: f64,
        /// The pieces of the whole mesh.
        pieces: f64,
        /// The limit.
        limit: f64,
        /// The pieces allowed per point the surface can hold.
        per_point: usize,
    },

    /// The values of a grid (mask, voxels) do not match its shape.
    #[error("{what}: expected {expected} values for the shape, got {got}")]
    ShapeMismatch {
        /// Which grid and what (for example "mask row 3").
        what: String,
        /// How many the shape calls for.
        expected: usize,
        /// How many were given.
        got: usize,
    },

    /// A chunk side too small for the radius: cells of one stratum could then conflict.
    #[error(
        "the chunk side {side_} is too small for radius {radius_} in {dim}D: it must be at least \
         {min_} (2 + √2·(D − 1) radii)"
    , side_ = crate::error::Short::of(.side), radius_ = crate::error::Short::of(.radius), min_ = crate::error::Short::of(.min))]
    ChunkSideTooSmall {
        /// The side asked for.
        side: f64,
        /// The radius.
        radius: f64,
        /// The dimension.
        dim: usize,
        /// The smallest side allowed.
        min: f64,
    },

    /// A periodic box that whole chunks do not tile (or tile with fewer than two per axis).
    #[error(
        "a periodic box must be tiled by at least two whole chunks along every axis: axis \
         {axis} is {extent_} long and the chunk side is {side_}"
    , extent_ = crate::error::Short::of(.extent), side_ = crate::error::Short::of(.side))]
    TorusNotTiled {
        /// The axis.
        axis: usize,
        /// The box's side along it.
        extent: f64,
        /// The chunk side.
        side: f64,
    },

    /// A chunk outside the torus a periodic world is.
    #[error(
        "chunk {chunk:?} lies outside the torus of {chunks:?} chunks (0 ≤ c < n on every axis)"
    )]
    ChunkOutsideTorus {
        /// The chunk asked for.
        chunk: Vec<i64>,
        /// Chunks along each axis.
        chunks: Vec<i64>,
    },

    /// A staged plan ([`Stages`](crate::chunked::Stages)) was asked something it cannot do:
    /// an empty range or block, a block outside the plan, a cell a stage reads that was
    /// not given.
    #[error("staged world: {0}")]
    Stages(String),

    /// A progress hook stopped a run that returns no partial result (a scatter).
    #[error("the run was stopped by its progress hook")]
    Cancelled,

    /// A sampler was given a setting it does not take (see its
    /// [`Capabilities`](crate::Capabilities)).
    #[error("'{sampler}' does not take {what}")]
    Unsupported {
        /// The sampler's name.
        sampler: &'static str,
        /// The setting, in words ("a radius field", "a region", "a periodic box").
        what: &'static str,
    },

    /// A sampler cannot work with this region.
    #[error("{sampler} cannot sample this region: {reason}")]
    UnsupportedRegion {
        /// The sampler's name.
        sampler: &'static str,
        /// Why, in words.
        reason: &'static str,
    },

    /// A saved live set cannot be restored: the snapshot is inconsistent, or the field
    /// attached to it is not the one it was saved with.
    #[error("the saved live set cannot be restored: {0}")]
    InvalidSnapshot(String),
    /// A scatter's distance table names a class that was not declared.
    #[error("no class named '{name}' (classes: {})", known.join(", "))]
    UnknownClass {
        /// The name given.
        name: String,
        /// The declared classes.
        known: Vec<String>,
    },

    /// Two classes of a scatter have the same name.
    #[error("two classes are named '{0}'")]
    DuplicateClass(String),

    /// A distance between two classes cannot be used.
    #[error("distance between '{a}' and '{b}': {reason}")]
    InvalidClassPair {
        /// The first class named.
        a: String,
        /// The second class named.
        b: String,
        /// What is wrong, in words.
        reason: &'static str,
    },

    /// A problem with one class of a scatter.
    #[error("class '{class}': {source}")]
    InClass {
        /// The class's name.
        class: String,
        /// The problem.
        source: Box<Error>,
    },
}

/// A number as an error message shows it: as Rust prints it between 1e-6 and 1e16 in
/// magnitude (`0.05`, `-3`), in exponent form beyond (`1e160`, not 161 digits; `1e-300`).
///
/// ```
/// use poisson_nd::error::Short;
/// assert_eq!(Short::of(&0.05).to_string(), "0.05");
/// assert_eq!(Short::of(&1e160).to_string(), "1e160");
/// assert_eq!(Short::of(&-2.5e-90).to_string(), "-2.5e-90");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Short(f64);

impl Short {
    /// The number, to be displayed.
    pub fn of(value: &f64) -> Short {
        Short(*value)
    }
}

impl std::fmt::Display for Short {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Rust prints an f64 without an exponent: 1e160 would be 161 digits.
        let magnitude = self.0.abs();
        if magnitude >= 1e16 || (magnitude > 0.0 && magnitude < 1e-6) {
            write!(f, "{:e}", self.0)
        } else {
            write!(f, "{}", self.0)
        }
    }
}
