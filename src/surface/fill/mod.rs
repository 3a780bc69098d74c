//! The maximal Poisson-disk fill of a surface: dart throwing into the triangles' uncovered
//! pieces, refined until none is left (Ebeida et al.'s active-cell scheme, with triangles
//! for cells), optionally after fronts walking on the surface; or new samples on the edge of
//! the covered surface (`boundary`).

mod boundary;

use super::mesh::{SurfaceMesh, folded, point_in};
use super::points::SurfacePoints;
use super::radius::SurfaceDensity;
use super::walk::{Spot, SurfaceShell, Walker};
use crate::config::check_point_limit;
use crate::defaults::{DENSE_GRID_LIMIT, MAX_POINTS};
use crate::domain::Domain;
use crate::engine::front::{self, FrontOrder, Rules, Space, Verdict};
use crate::engine::shell::{CandidateDistance, PairedShell};
use crate::error::Error;
use crate::field::PairRule;
use crate::geometry::vector::{length, sub};
use crate::grid::{
    CellHeads, ConflictRule, ConstantRadius, FieldRule, Grid, GridLayout, StoredGrid,
    radix_sort_by_key, with_storage,
};
use crate::limits::{check_length, check_radius_for_scale, power_of_two};
use crate::packing::max_points_in_extent;
use crate::point::Point;
use crate::rng::{fraction_of, index_of, rng_from_seed};
use crate::sampler::StopReason;
use crate::samplers::maximal::{DARTS_PER_CELL, REFINE_BELOW};
use rand::Rng;
use std::convert::Infallible;
use std::sync::Arc;

/// The finest lattice of a triangle: a triangle split `n` ways along each side at level 0
/// has pieces of level L with sides `1/(n·2^L)` of its own, and `n·2^L` is kept at most
/// 2^31 (lattice coordinates fit a `u32`). A piece still active at the deepest level is
/// dropped and counted in [`SurfacePoints::unresolved`]: reaching it needs three disks to
/// meet within about 2^-31 of a triangle's side, which a random run does not do.
const MAX_STEPS: u32 = 1 << 31;

/// The deepest level of the pieces of a triangle split `n` ways at level 0.
fn deepest_level(n: u32) -> u32 {
    MAX_STEPS.trailing_zeros() - n.next_power_of_two().trailing_zeros()
}

/// A maximal Poisson-disk sampler on a triangle surface: no two points closer than `r`
/// (Euclidean distance in 3D), and every point of the surface within `r` of a sample — not
/// one more point fits.
///
/// Each triangle is split into 4^L congruent pieces (midpoint subdivision), L the smallest
/// level whose pieces have sides at most `r`, so that a sample in a piece covers it. The
/// uncovered surface always lies in the *active* pieces. Darts pick an active piece with
/// probability proportional to its area and a point uniformly in it: a dart closer than `r`
/// to a sample is rejected (and its piece retires if that sample covers it whole), otherwise
/// it becomes a sample and its piece retires if covered. When darts stop paying, every
/// active piece is split into its four halves and the halves that one sample covers whole
/// are dropped. The run ends when no piece is left: the set is then maximal, and each sample
/// was uniform over the surface not yet covered, exactly as in dart throwing run to
/// saturation (docs/algorithms.md, "On surfaces"). That is the default,
/// [`SurfaceFill::Darts`]; [`with_fill`](Self::with_fill)`(`[`SurfaceFill::Front`]`)` places
/// most points with Bridson's front walking on the surface first, faster on large fills, and
/// [`SurfaceFill::Boundary`] needs no pieces: it places each new sample on the uncovered edge
/// of what the samples cover, fastest on large fills, with denser, more regular points.
///
/// With a [`SurfaceDensity`] each point gets the radius of the density where it lies, and
/// two points keep the distance the [`PairRule`] gives their radii; a piece is covered by a
/// sample when every point of it would conflict with that sample, judged with a lower bound
/// of the radius over the piece (the corners' densities for a per-vertex density, a pyramid
/// of the texture's maxima for a texture).
///
/// ```
/// use poisson_nd::surface::{SurfaceMesh, SurfacePoisson};
/// // A unit square in the plane z = 0, as two triangles.
/// let square = SurfaceMesh::new(
///     vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]],
///     vec![[0, 1, 2], [0, 2, 3]],
/// )?;
/// let points = SurfacePoisson::new(square, 0.05)?.fill_seeded(7);
/// assert!(points.len() > 250);
/// assert_eq!(points.unresolved, 0);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SurfacePoisson {
    mesh: Arc<SurfaceMesh>,
    radius: Radius,
    max_points: usize,
    layout: Arc<GridLayout<3>>,
    /// The faces in space order ([`faces_in_space_order`]).
    order: Arc<Vec<u32>>,
    /// Each triangle's level-0 split at the smallest radius (1 for a degenerate one): a
    /// constant radius's splits.
    splits: Arc<Vec<u32>>,
    /// How the fill is reached.
    method: SurfaceFill,
    /// The triangles joined for walks, with [`SurfaceFill::Front`] (and
    /// [`SurfaceFill::Boundary`] under a density, which fills as `Front` does).
    walker: Option<Arc<Walker>>,
    /// The triangles' planes, with [`SurfaceFill::Boundary`] at one radius.
    planes: Option<Arc<Vec<Option<boundary::Plane>>>>,
}

/// How [`SurfacePoisson`] reaches a maximal fill. All place no two points closer than the
/// radius and stop only when every point of the surface is within the radius of a sample;
/// they differ in how the samples are chosen on the way, hence in speed and in the points a
/// seed gives (docs/algorithms.md, "On surfaces").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SurfaceFill {
    /// Dart throwing into the uncovered pieces of the triangles, refined until none is left
    /// (Ebeida et al. 2012): each sample uniform over the surface not yet covered, as dart
    /// throwing run to saturation would give.
    #[default]
    Darts,
    /// Bridson's front walking on the surface: from each active sample, candidates at a
    /// distance in `[r, 2r]` along the surface ([`FRONT_ATTEMPTS`] before it retires); every
    /// piece the fronts leave uncovered then seeds a front of its own, and the darts of
    /// [`Darts`](Self::Darts) fill the gaps that remain. Consecutive steps work in one
    /// neighbourhood: about 1.8× faster at 10⁶ points (docs/performance.md). Other points
    /// for a seed than `Darts`, about 1% fewer, of the same spread.
    Front,
    /// Samples placed on the edge of the covered surface (Dunbar and Humphreys's boundary
    /// sampling, on triangles): each sample, in turn, gets new samples just beyond the radius
    /// from it wherever the edge of its sphere on the surface is not yet covered, at a
    /// uniformly random angle of what is left. No pieces and no darts: the edges' arcs,
    /// worked out exactly, prove the fill maximal. Each sample but the first of each
    /// piece of the surface lies at the radius (plus about 2^-45 of the coordinates' size)
    /// from an earlier one, so pairs at that distance are more frequent than in the other
    /// fills, and there are more points (docs/algorithms.md). Under a
    /// [`SurfaceDensity`] it fills as [`Front`](Self::Front) does.
    Boundary,
}

impl crate::Choice for SurfaceFill {
    const ALL: &'static [Self] = &[SurfaceFill::Darts, SurfaceFill::Front, SurfaceFill::Boundary];

    fn name(self) -> &'static str {
        match self {
            SurfaceFill::Darts => "darts",
            SurfaceFill::Front => "front",
            SurfaceFill::Boundary => "boundary",
        }
    }

    fn description(self) -> &'static str {
        match self {
            SurfaceFill::Darts => "each sample uniform over the surface not yet covered (default)",
            SurfaceFill::Front => {
                "Bridson's front walking on the surface, then darts into the rest"
            }
            SurfaceFill::Boundary => "samples placed on the uncovered edge of the covered surface",
        }
    }
}

/// Candidates a surface front draws around an active sample before it retires
/// ([`SurfaceFill::Front`]).
pub const FRONT_ATTEMPTS: u32 = 4;

#[derive(Debug, Clone)]
enum Radius {
    Constant(f64),
    Density(SurfaceDensity, PairRule),
}

impl Radius {
    fn bounds(&self) -> (f64, f64) {
        match self {
            Radius::Constant(r) => (*r, *r),
            Radius::Density(density, _) => density.bounds(),
        }
    }
}

impl SurfacePoisson {
    /// A maximal fill of `mesh` at radius `r`, with the point limit [`MAX_POINTS`].
    ///
    /// Errors: a radius that is not finite and positive ([`Error::InvalidRadius`]); one so
    /// small for the surface that the fill would pass the point limit
    /// ([`Error::TooManyPoints`]) or need too fine a grid ([`Error::GridTooLarge`]).
    pub fn new(mesh: impl Into<Arc<SurfaceMesh>>, r: f64) -> Result<Self, Error> {
        crate::limits::check_radius(r)?;
        Self::build(mesh.into(), Radius::Constant(r), MAX_POINTS)
    }

    /// A maximal fill of `mesh` whose radius follows a density (see [`SurfaceDensity`]),
    /// pairs spaced by `rule`.
    ///
    /// Errors: as [`new`](Self::new) for the smallest radius; a per-vertex density that is
    /// not one value per vertex; a texture on a mesh without UVs.
    pub fn from_density(
        mesh: impl Into<Arc<SurfaceMesh>>,
        density: SurfaceDensity,
        rule: PairRule,
    ) -> Result<Self, Error> {
        let mesh = mesh.into();
        density.check_mesh(&mesh)?;
        Self::build(mesh, Radius::Density(density, rule), MAX_POINTS)
    }

    /// The same sampler with another point limit, between 1 and 2^31 − 1. As for the box
    /// samplers, the limit must hold the densest packing of the surface at the smallest
    /// radius, so a fill never stops at it.
    ///
    /// Errors: a limit out of range; one the packing estimate passes
    /// ([`Error::TooManyPoints`], which says how many points the radius could place).
    pub fn with_max_points(self, max_points: usize) -> Result<Self, Error> {
        check_point_limit(max_points)?;
        let method = self.fill_method();
        Ok(Self::build(self.mesh, self.radius, max_points)?.with_fill(method))
    }

    fn build(mesh: Arc<SurfaceMesh>, radius: Radius, max_points: usize) -> Result<Self, Error> {
        let (rmin, rmax) = radius.bounds();
        let (lower, upper) = mesh.bounds();
        let scale = lower.iter().chain(&upper).fold(0.0f64, |m, x| m.max(x.abs()));
        check_radius_for_scale("the surface radius", rmin, scale)?;
        let estimated_points = points_bound(&mesh, rmin);
        if estimated_points > max_points as f64 {
            return Err(Error::TooManyPoints {
                radius: rmin,
                estimated_points,
                estimated_bytes: estimated_points * 64.0,
                limit: max_points,
            });
        }
        let splits: Vec<u32> = (0..mesh.triangle_count()).map(|f| split(&mesh, f, rmin)).collect();
        check_pieces(&mesh, &splits, rmin, estimated_points)?;
        // The grid's box: the surface's box grown by rmax, so that no axis is flat.
        let sides: [f64; 3] = std::array::from_fn(|i| (upper[i] - lower[i]) + 2.0 * rmax);
        for side in sides {
            check_length("a side of the surface's box grown by the largest radius", side)?;
        }
        let domain = Domain::from_origin_and_extent(lower.map(|x| x - rmax), sides)?;
        // Cells twice the reach: a query walks the about 8 of the 27 around a point that
        // come within reach of it (the surface passes through few of them), in a table a
        // sixth the size of one with cells of the reach, keyed in bricks so that those cells
        // lie close in memory.
        let (reach, limit) = match &radius {
            Radius::Constant(r) => (ConstantRadius::new(*r).reach(), DENSE_GRID_LIMIT),
            Radius::Density(_, rule) => {
                (FieldRule::new(*rule, rmin, rmax).reach(), DENSE_GRID_LIMIT / 5 * 4)
            }
        };
        let layout = GridLayout::bricked(&domain, 2.0 * reach, limit)?;
        let order = Arc::new(faces_in_space_order(&mesh));
        Ok(SurfacePoisson {
            mesh,
            radius,
            max_points,
            layout: Arc::new(layout),
            order,
            splits: Arc::new(splits),
            method: SurfaceFill::Darts,
            walker: None,
            planes: None,
        })
    }

    /// The same sampler reaching its fill by `method` ([`SurfaceFill::Darts`] unless set).
    pub fn with_fill(mut self, method: SurfaceFill) -> Self {
        let constant = matches!(self.radius, Radius::Constant(_));
        let walks = match method {
            SurfaceFill::Darts => false,
            SurfaceFill::Front => true,
            SurfaceFill::Boundary => !constant,
        };
        self.walker =
            walks.then(|| self.walker.unwrap_or_else(|| Arc::new(Walker::new(&self.mesh))));
        self.planes = (method == SurfaceFill::Boundary && constant)
            .then(|| self.planes.unwrap_or_else(|| Arc::new(boundary::planes(&self.mesh))));
        self.method = method;
        self
    }

    /// How the sampler reaches its fill.
    pub fn fill_method(&self) -> SurfaceFill {
        self.method
    }

    /// The surface.
    pub fn mesh(&self) -> &Arc<SurfaceMesh> {
        &self.mesh
    }

    /// The point limit.
    pub fn max_points(&self) -> usize {
        self.max_points
    }

    /// The smallest and largest radius.
    pub fn radius_bounds(&self) -> (f64, f64) {
        self.radius.bounds()
    }

    /// Fills the surface to saturation with [`rng_from_seed`]`(seed)`.
    pub fn fill_seeded(&self, seed: u64) -> SurfacePoints {
        self.fill(&mut rng_from_seed(seed))
    }

    /// Fills the surface to saturation ([`StopReason::Exhausted`]) or to the point limit.
    pub fn fill<R: Rng + ?Sized>(&self, rng: &mut R) -> SurfacePoints {
        let capacity = 1024;
        let layout = Arc::clone(&self.layout);
        let mesh = &*self.mesh;
        match &self.radius {
            Radius::Constant(r) => {
                let rule = ConstantRadius::new(*r);
                let at = |_: usize, _: [f64; 3]| ();
                let below = |_: usize, _: &[[f64; 3]; 3]| ();
                let face_split = |face: usize| self.splits[face];
                let grid = StoredGrid::new(layout, rule, capacity);
                if let Some(planes) = &self.planes {
                    return with_storage!(grid, grid => Run::new(self, grid).fill_boundary(planes, rng));
                }
                let (points, _) = with_storage!(grid, grid =>
                    Run::new(self, grid).fill(&at, &below, &face_split, rng));
                points
            }
            Radius::Density(density, rule) => {
                let (rmin, rmax) = density.bounds();
                let at = |face: usize, b: [f64; 3]| density.radius_at(mesh, face, b);
                let below = |face: usize, corners: &[[f64; 3]; 3]| {
                    density.radius_below(mesh, face, corners)
                };
                let whole = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
                let face_split =
                    |face: usize| split(mesh, face, density.radius_below(mesh, face, &whole));
                let rule = FieldRule::for_layout(*rule, rmin, rmax, &layout);
                let (mut points, rule) = with_storage!(StoredGrid::new(layout, rule, capacity), grid =>
                    Run::new(self, grid).fill(&at, &below, &face_split, rng));
                points.radii = Some(rule.into_radii());
                points
            }
        }
    }
}

/// The level-0 pieces the fill may make, per point the surface can hold: a well-shaped mesh
/// needs about 5; a triangle far longer than it is wide needs `(longest/r)²` for a few
/// points, and is refused rather than allowed to exhaust memory, once the pieces also pass
/// [`PIECES_ALWAYS_ALLOWED`].
const PIECES_PER_POINT: usize = 64;

/// The level-0 pieces allowed whatever the points (2^24, 256 MiB of pieces).
const PIECES_ALWAYS_ALLOWED: f64 = (1u64 << 24) as f64;

/// The lengths of the sides of triangle `face`.
fn side_lengths(mesh: &SurfaceMesh, face: usize) -> [f64; 3] {
    let [a, b, c] = mesh.corners(face);
    [length(sub(b, a)), length(sub(c, b)), length(sub(a, c))]
}

/// The longest side of triangle `face`.
fn longest_side(mesh: &SurfaceMesh, face: usize) -> f64 {
    side_lengths(mesh, face).into_iter().fold(0.0, f64::max)
}

/// How many ways the fill splits each side of triangle `face` at level 0: the fewest (up to
/// [`MAX_STEPS`]) that make its pieces' sides at most `r`.
fn split(mesh: &SurfaceMesh, face: usize, r: f64) -> u32 {
    let longest = longest_side(mesh, face);
    // The quotient rounded up, then nudged past rounding; NaN and infinity end at the bound.
    let bound = f64::from(MAX_STEPS);
    let mut n = (longest / r).ceil().clamp(1.0, bound);
    while n < bound && longest / n > r {
        n += 1.0;
    }
    n as u32
}

/// Refuses a mesh whose level-0 pieces at radius `r` (the smallest, which makes the most;
/// `splits` are its faces' splits at it) would pass [`PIECES_PER_POINT`] times the `points`
/// it can hold and [`PIECES_ALWAYS_ALLOWED`].
fn check_pieces(mesh: &SurfaceMesh, splits: &[u32], r: f64, points: f64) -> Result<(), Error> {
    let mut total = 0.0;
    let mut worst = (0.0, 0);
    for &face in mesh.faces() {
        let n = f64::from(splits[face as usize]);
        total += n * n;
        if n > worst.0 {
            worst = (n, face as usize);
        }
    }
    let limit = (PIECES_PER_POINT as f64 * points).max(PIECES_ALWAYS_ALLOWED);
    if total > limit {
        return Err(Error::ThinTriangles {
            triangle: worst.1,
            longest: longest_side(mesh, worst.1),
            radius: r,
            pieces: total,
            limit,
            per_point: PIECES_PER_POINT,
        });
    }
    Ok(())
}

/// An upper bound of the number of points at mutual distance ≥ `r` on the surface: the
/// smaller of two. Per triangle, disks of radius r/2 around its points are disjoint in its
/// plane and lie in the triangle grown by r/2, of area A + P·r/2 + π(r/2)² (P its
/// perimeter). In space, balls of radius r/2 pack the surface's box grown by r/2
/// (the box samplers' estimate).
fn points_bound(mesh: &SurfaceMesh, r: f64) -> f64 {
    let h = r / 2.0;
    let disk = std::f64::consts::PI * h * h;
    let per_triangle: f64 = mesh
        .faces()
        .iter()
        .map(|&f| {
            let perimeter: f64 = side_lengths(mesh, f as usize).iter().sum();
            (mesh.face_area(f as usize) + perimeter * h) / disk + 1.0
        })
        .sum();
    let (lower, upper) = mesh.bounds();
    let in_space = max_points_in_extent::<3>(&std::array::from_fn(|i| upper[i] - lower[i]), r);
    per_triangle.min(in_space)
}

/// The distance under which a stored point covers a piece: every point of the piece, whose
/// radius is at least `below`, conflicts with it.
trait Covering: ConflictRule {
    fn cover_squared(&self, index: u32, below: Self::Spacing) -> f64;

    /// The radius of the stored point `index`.
    fn radius(&self, index: u32) -> f64;

    /// The radius of a point with `spacing`, and back.
    fn radius_of_spacing(&self, spacing: Self::Spacing) -> f64;
    fn spacing_of_radius(radius: f64) -> Self::Spacing;
}

impl Covering for ConstantRadius {
    #[inline]
    fn cover_squared(&self, _: u32, _: ()) -> f64 {
        let r = self.reach();
        r * r
    }

    #[inline(always)]
    fn radius(&self, _: u32) -> f64 {
        self.reach()
    }

    #[inline(always)]
    fn radius_of_spacing(&self, _: ()) -> f64 {
        self.reach()
    }

    #[inline(always)]
    fn spacing_of_radius(_: f64) {}
}

impl Covering for FieldRule {
    #[inline]
    fn cover_squared(&self, index: u32, below: f64) -> f64 {
        let s = self.pair_distance(below, self.radius_of(index));
        s * s
    }

    #[inline(always)]
    fn radius(&self, index: u32) -> f64 {
        self.radius_of(index)
    }

    #[inline(always)]
    fn radius_of_spacing(&self, spacing: f64) -> f64 {
        spacing
    }

    #[inline(always)]
    fn spacing_of_radius(radius: f64) -> f64 {
        radius
    }
}

/// A piece of a triangle split `n` ways at level 0: at level L the triangle's barycentric
/// square `(b1, b2)` is a lattice of step `1/(n·2^L)`; an *up* piece has corners `(i, j),
/// (i+1, j), (i, j+1)` (in lattice steps), a *down* piece `(i+1, j), (i, j+1), (i+1, j+1)`.
#[derive(Debug, Clone, Copy)]
struct Piece {
    face: u32,
    i: u32,
    j: u32,
    /// The level times two, plus one for a down piece.
    level_down: u32,
}

impl Piece {
    fn level(self) -> u32 {
        self.level_down >> 1
    }

    fn down(self) -> bool {
        self.level_down & 1 == 1
    }

    /// The barycentric coordinates of the corners, for a triangle split `n` ways at level
    /// 0. A lattice point has the same coordinates at every level that holds it (`x/m` and
    /// `2x/2m` are the same quotient of exact numbers, rounded once), so pieces meet
    /// exactly, and the last lattice line is 1.
    fn corners(self, n: u32) -> [[f64; 3]; 3] {
        let steps = f64::from(n) * power_of_two(self.level() as i32);
        let (i, j) = (self.i as f64, self.j as f64);
        let lattice = if self.down() {
            [(i + 1.0, j), (i, j + 1.0), (i + 1.0, j + 1.0)]
        } else {
            [(i, j), (i + 1.0, j), (i, j + 1.0)]
        };
        lattice.map(|(x, y)| {
            let (b1, b2) = (x / steps, y / steps);
            [1.0 - (b1 + b2), b1, b2]
        })
    }

    /// The four pieces of the next level.
    fn children(self) -> [Piece; 4] {
        let (i, j, face) = (2 * self.i, 2 * self.j, self.face);
        let level = self.level() + 1;
        let up = |i, j| Piece { face, i, j, level_down: level << 1 };
        let down = |i, j| Piece { face, i, j, level_down: level << 1 | 1 };
        if self.down() {
            [down(i + 1, j), down(i, j + 1), down(i + 1, j + 1), up(i + 1, j + 1)]
        } else {
            [up(i, j), up(i + 1, j), up(i, j + 1), down(i, j)]
        }
    }
}

/// The active pieces whose areas share one binary exponent: each is at least 2^e and below
/// 2^(e+1), so picking one uniformly and keeping it with probability area / 2^(e+1) draws
/// in proportion to area with at least even odds.
#[derive(Debug)]
struct Bucket {
    exponent: i32,
    pieces: Vec<Piece>,
}

/// The binary exponent of a positive area (subnormals share the lowest).
fn exponent_of(area: f64) -> i32 {
    ((area.to_bits() >> 52) & 0x7ff) as i32
}

/// 2^(e+1) for a biased exponent e: the bound of a bucket's areas.
fn bucket_bound(exponent: i32) -> f64 {
    2f64.powi(exponent - 1022)
}

/// A triangle's corners, how it is split at level 0 and the area of a piece of that level,
/// side by side: a dart reads them in one place rather than through the vertex indices.
#[derive(Debug, Clone, Copy)]
struct Triangle {
    corners: [Point<3>; 3],
    /// Pieces along each side at level 0 (set when the pieces are made).
    split: u32,
    /// The triangle's area over `split²`.
    piece_area: f64,
}

impl Triangle {
    /// [`SurfaceMesh::point_at`], with the same arithmetic.
    #[inline]
    fn point_at(&self, b: [f64; 3]) -> Point<3> {
        point_in(&self.corners, b)
    }
}

/// One fill: the grid of samples, the pieces, and what the samples were given.
struct Run<'a, H, C> {
    sampler: &'a SurfacePoisson,
    triangles: Vec<Triangle>,
    grid: Grid<3, H, C>,
    faces: Vec<u32>,
    barycentrics: Vec<[f64; 3]>,
    buckets: Vec<Bucket>,
    attempts: u64,
    unresolved: u64,
}

impl<'a, H: CellHeads, C: Covering> Run<'a, H, C> {
    fn new(sampler: &'a SurfacePoisson, grid: Grid<3, H, C>) -> Self {
        let mesh = &*sampler.mesh;
        let triangles = (0..mesh.triangle_count())
            .map(|f| Triangle { corners: mesh.corners(f), split: 1, piece_area: mesh.face_area(f) })
            .collect();
        Run {
            sampler,
            triangles,
            grid,
            faces: Vec::new(),
            barycentrics: Vec::new(),
            buckets: Vec::new(),
            attempts: 0,
            unresolved: 0,
        }
    }

    fn mesh(&self) -> &'a SurfaceMesh {
        &self.sampler.mesh
    }

    fn area(&self, piece: Piece) -> f64 {
        self.triangles[piece.face as usize].piece_area * power_of_two(-2 * piece.level() as i32)
    }

    fn add(&mut self, piece: Piece) {
        let e = exponent_of(self.area(piece));
        match self.buckets.iter_mut().find(|b| b.exponent == e) {
            Some(bucket) => bucket.pieces.push(piece),
            None => self.buckets.push(Bucket { exponent: e, pieces: vec![piece] }),
        }
    }

    fn active(&self) -> usize {
        self.buckets.iter().map(|b| b.pieces.len()).sum()
    }

    fn full(&self) -> bool {
        self.faces.len() >= self.sampler.max_points
    }

    /// The pieces of level 0, face by face in space order: each triangle split `n =
    /// face_split(face)` ways along each side, the fewest (up to 2^31) that make its pieces'
    /// sides at most the smallest radius over it ([`split`]). Pieces of about that diameter
    /// are covered by a sample inside them, as Ebeida et al.'s cells of side r/√2 are, and any
    /// smaller would only add pieces.
    fn start(&mut self, face_split: &impl Fn(usize) -> u32) {
        let mesh = self.mesh();
        let order = Arc::clone(&self.sampler.order);
        for &face in order.iter() {
            let index = face as usize;
            let n = face_split(index);
            let triangle = &mut self.triangles[index];
            triangle.split = n;
            triangle.piece_area = mesh.face_area(index) / (f64::from(n) * f64::from(n));
            for i in 0..n {
                for j in 0..n - i {
                    self.add(Piece { face, i, j, level_down: 0 });
                    if i + j + 1 < n {
                        self.add(Piece { face, i, j, level_down: 1 });
                    }
                }
            }
        }
    }

    /// Whether the stored point `index` covers the piece with corners `corners` (positions),
    /// all of whose points have a radius of at least `below`.
    #[inline]
    fn covers(&self, index: u32, corners: &[Point<3>; 3], below: C::Spacing) -> bool {
        let s2 = self.grid.rule().cover_squared(index, below);
        let q = self.grid.points()[index as usize];
        corners.iter().all(|c| distance_squared(c, &q) < s2)
    }

    fn positions(&self, piece: Piece, barycentric: &[[f64; 3]; 3]) -> [Point<3>; 3] {
        let triangle = &self.triangles[piece.face as usize];
        barycentric.map(|b| triangle.point_at(b))
    }

    /// A stored point that conflicts with a point at `p` with `spacing`, if any.
    #[inline(always)]
    fn conflict(&self, p: &Point<3>, spacing: C::Spacing) -> Option<u32> {
        let rule = self.grid.rule();
        let points = self.grid.points();
        let mut conflict = None;
        self.grid.any_point_within(p, rule.reach(), |index| {
            let hit = rule.conflicts(spacing, distance_squared(p, &points[index as usize]), index);
            if hit {
                conflict = Some(index);
            }
            hit
        });
        conflict
    }

    /// Stores a sample at barycentric `b` of `face` (position `p`); returns its index.
    #[inline(always)]
    fn store(&mut self, face: u32, b: [f64; 3], p: Point<3>, spacing: C::Spacing) -> u32 {
        self.faces.push(face);
        self.barycentrics.push(b);
        self.grid.insert(p, spacing)
    }

    /// The corners of `piece` (barycentric and positions), and a centre and radius of a ball
    /// holding it: its centroid and the distance to its farthest corner (a triangle lies
    /// within that of its centroid).
    #[inline(always)]
    fn outline(&self, piece: Piece) -> ([[f64; 3]; 3], [Point<3>; 3], Point<3>, f64) {
        let corners = piece.corners(self.triangles[piece.face as usize].split);
        let positions = self.positions(piece, &corners);
        let (centroid, farthest) = enclosing_ball(&positions);
        (corners, positions, centroid, farthest)
    }

    /// Collects into `near` every stored point that may lie within `reach` of `centre`.
    fn gather(&self, centre: &Point<3>, reach: f64, near: &mut Vec<u32>) {
        near.clear();
        self.grid.any_point_within(centre, reach, |index| {
            near.push(index);
            false
        });
    }

    /// Fills to saturation or the point limit; returns the points and the rule (which keeps
    /// their radii).
    fn fill<R: Rng + ?Sized>(
        mut self,
        at: &impl Fn(usize, [f64; 3]) -> C::Spacing,
        below: &impl Fn(usize, &[[f64; 3]; 3]) -> C::Spacing,
        face_split: &impl Fn(usize) -> u32,
        rng: &mut R,
    ) -> (SurfacePoints, C) {
        self.start(face_split);
        if let Some(walker) = &self.sampler.walker {
            self.sweep(walker, at, below, rng);
        }
        let stop = loop {
            if self.active() == 0 {
                break StopReason::Exhausted;
            }
            let removed = self.phase(at, below, rng);
            if self.full() {
                break StopReason::PointLimit;
            }
            if removed < REFINE_BELOW {
                self.refine(below);
            }
        };
        self.finish(stop)
    }

    /// The points placed and why the run stopped, and the rule (which keeps their radii).
    fn finish(self, stop: StopReason) -> (SurfacePoints, C) {
        let (points, rule) = self.grid.into_points_and_rule();
        let set = SurfacePoints {
            points,
            faces: self.faces,
            barycentrics: self.barycentrics,
            radii: None,
            stop,
            attempts: self.attempts,
            unresolved: self.unresolved,
        };
        (set, rule)
    }

    /// The fronts of [`SurfaceFill::Front`]: every level-0 piece in turn that no sample
    /// covers gets a dart uniform in it, and an accepted dart grows a front until it dies;
    /// the pieces still uncovered stay for the darts.
    fn sweep<R: Rng + ?Sized>(
        &mut self,
        walker: &Walker,
        at: &impl Fn(usize, [f64; 3]) -> C::Spacing,
        below: &impl Fn(usize, &[[f64; 3]; 3]) -> C::Spacing,
        rng: &mut R,
    ) {
        let rules = Rules {
            attempts: FRONT_ATTEMPTS,
            shell: SurfaceShell {
                walker,
                plane: PairedShell { distance: CandidateDistance::UniformInVolume },
            },
            order: FrontOrder::Recent,
        };
        let limit = self.sampler.max_points;
        let mut active = Vec::new();
        let mut near = Vec::new();
        // The sample that covered the last piece: most often it covers the next one too.
        let mut last = None;
        // Every sample that may lie within reach of a point of face `face_of_near` (when
        // `listed`): gathered once for all the face's pieces of a level, grown by the darts
        // stored on the face, and gathered again after a front. A piece's tests then read
        // this short list instead of walking the grid.
        let mut face_near = FaceList::default();
        let mut face_of_near = u32::MAX;
        let mut listed = false;
        let mut level: Vec<Piece> =
            std::mem::take(&mut self.buckets).into_iter().flat_map(|b| b.pieces).collect();
        while !level.is_empty() {
            let mut next = Vec::new();
            for piece in level {
                if self.full() {
                    self.add(piece);
                    continue;
                }
                if piece.face != face_of_near {
                    face_of_near = piece.face;
                    listed = self.gather_face(piece.face, &mut face_near);
                }
                let face = piece.face as usize;
                let (corners, positions, centroid, farthest) = self.outline(piece);
                let piece_below = below(face, &corners);
                if last.is_some_and(|index| self.covers(index, &positions, piece_below)) {
                    continue;
                }
                let from = listed.then_some(&mut face_near);
                self.near_piece(&centroid, farthest, from, &mut near);
                if let Some(&index) =
                    near.iter().find(|&&index| self.covers(index, &positions, piece_below))
                {
                    last = Some(index);
                    continue;
                }
                self.attempts += 1;
                let b = spot(&corners, [rng.next_u64(), rng.next_u64()]);
                let p = self.triangles[face].point_at(b);
                let spacing = at(face, b);
                // `near` holds every sample within reach of the piece when it comes from the
                // face's list; the grid's own walk decides otherwise.
                let conflict = if listed {
                    self.conflict_among(&p, spacing, &near)
                } else {
                    self.conflict(&p, spacing)
                };
                if conflict.is_none() {
                    let index = self.store(piece.face, b, p, spacing);
                    if piece.level() == 0 {
                        active.push(index);
                        let mut space = FrontSpace { run: &mut *self, at };
                        let mut drawn = 0;
                        let Ok(_) = front::grow(
                            &mut space,
                            &mut active,
                            &rules,
                            limit,
                            None,
                            &mut drawn,
                            rng,
                        );
                        self.attempts += drawn;
                        active.clear();
                        // The front stored samples anywhere around: any of them may cover
                        // the piece now.
                        listed = self.gather_face(piece.face, &mut face_near);
                        let from = listed.then_some(&mut face_near);
                        self.near_piece(&centroid, farthest, from, &mut near);
                        if near.iter().any(|&index| self.covers(index, &positions, piece_below)) {
                            continue;
                        }
                    } else {
                        if listed {
                            face_near.push(index, &p);
                        }
                        near.push(index);
                        // Only the new sample may cover it: the others were tested above.
                        if self.covers(index, &positions, piece_below) {
                            last = Some(index);
                            continue;
                        }
                    }
                }
                let (children, uncovered) =
                    self.uncovered_children(piece, &positions, below, &near);
                next.extend(
                    children.into_iter().zip(uncovered).filter_map(|(c, u)| u.then_some(c)),
                );
            }
            level = next;
        }
    }

    /// Collects into `list` every sample that may lie within reach of a point of face
    /// `face`, with its position, if the face is small enough for that list to stay short (its
    /// farthest corner within four reaches of its centroid); returns whether it did (`list`
    /// is left empty otherwise).
    fn gather_face(&self, face: u32, list: &mut FaceList) -> bool {
        let (centroid, farthest) = enclosing_ball(&self.triangles[face as usize].corners);
        let reach = self.grid.rule().reach();
        list.index.clear();
        let short = farthest <= 4.0 * reach;
        if short {
            let within = reach + farthest;
            self.gather(&centroid, within + rounding_margin(&centroid, within), &mut list.index);
        }
        list.place(self.grid.points());
        short
    }

    /// Collects into `near` the samples that may lie within reach of a piece held by the
    /// ball of `centroid` and radius `farthest`: those of the list `from` (every sample
    /// within reach of the piece's face) within reach of that ball, or without a list those
    /// the grid gives.
    fn near_piece(
        &self,
        centroid: &Point<3>,
        farthest: f64,
        from: Option<&mut FaceList>,
        near: &mut Vec<u32>,
    ) {
        let within = self.grid.rule().reach() + farthest;
        let Some(list) = from else {
            return self.gather(centroid, within, near);
        };
        let within = within + rounding_margin(centroid, within);
        list.within(centroid, within * within, near);
    }

    /// [`conflict`](Self::conflict) among the samples `near`, which hold every sample within
    /// reach of `p`: the same answer, whichever conflicting sample it names.
    #[inline]
    fn conflict_among(&self, p: &Point<3>, spacing: C::Spacing, near: &[u32]) -> Option<u32> {
        let rule = self.grid.rule();
        let points = self.grid.points();
        near.iter().copied().find(|&index| {
            rule.conflicts(spacing, distance_squared(p, &points[index as usize]), index)
        })
    }

    /// One phase of darts: `DARTS_PER_CELL` times the active pieces at its start, each
    /// piece drawn in proportion to its area. Returns the fraction of those pieces retired.
    ///
    /// Every dart takes five generator words, whether it lands or misses: the bucket's, the
    /// piece's, the area test's and two for the spot in the piece. Its words can then be
    /// drawn before the darts ahead of it are thrown, and its piece and triangle prefetched
    /// (two cache misses that would otherwise follow one another); words are drawn early only
    /// for darts sure to be thrown, so a run leaves the generator where dart-by-dart drawing
    /// would.
    fn phase<R: Rng + ?Sized>(
        &mut self,
        at: &impl Fn(usize, [f64; 3]) -> C::Spacing,
        below: &impl Fn(usize, &[[f64; 3]; 3]) -> C::Spacing,
        rng: &mut R,
    ) -> f64 {
        // How many darts ahead a dart's piece is prefetched (its triangle one dart later).
        const AHEAD: u64 = 3;
        const RING: usize = AHEAD as usize + 1;
        // Pieces retired in the phase stay in place, marked, until its end: a draw of one is
        // a miss, so every active piece keeps the same chance within the phase, and the
        // buckets keep their order (the faces' order in space, which the refinement's
        // walks of the grid follow).
        let counts: Vec<usize> = self.buckets.iter().map(|b| b.pieces.len()).collect();
        let bounds: Vec<f64> = self.buckets.iter().map(|b| bucket_bound(b.exponent)).collect();
        let mut cumulative = Vec::with_capacity(counts.len());
        let mut total = 0.0;
        for (&n, &bound) in counts.iter().zip(&bounds) {
            total += n as f64 * bound;
            cumulative.push(total);
        }
        let start: usize = counts.iter().sum();
        let mut active = start;
        let darts = (start as f64 * DARTS_PER_CELL).ceil() as u64;
        let draw = |rng: &mut R| -> [u64; 5] { std::array::from_fn(|_| rng.next_u64()) };
        // The bucket and the place in it that a dart's words name.
        let aim = |words: &[u64; 5]| {
            let x = fraction_of(words[0]) * total;
            let b = cumulative.partition_point(|&c| c <= x).min(counts.len() - 1);
            (b, index_of(words[1], counts[b]))
        };
        // Darts `dart .. drawn` are drawn; the ring holds them at `index % RING`.
        let mut ring = [[0u64; 5]; RING];
        let mut drawn = 0;
        for dart in 0..darts {
            if active == 0 || self.full() {
                break;
            }
            if drawn == dart {
                ring[dart as usize % RING] = draw(rng);
                drawn += 1;
            }
            // Each dart retires at most one piece and places at most one point (with half a
            // dart per piece neither bound binds today; they keep the words right if it did).
            while drawn < darts && drawn - dart <= AHEAD && {
                let before = (drawn - dart) as usize;
                active > before && self.faces.len() + before < self.sampler.max_points
            } {
                ring[drawn as usize % RING] = draw(rng);
                drawn += 1;
            }
            // Prefetched: the triangle of the dart `AHEAD − 1` on (its piece, prefetched a dart
            // ago, is read) and the piece of the dart `AHEAD` on, as the buckets stand.
            let (near, far) = (dart + AHEAD - 1, dart + AHEAD);
            if near > dart && near < drawn {
                let (b, k) = aim(&ring[near as usize % RING]);
                if let Some(piece) = self.buckets[b].pieces.get(k) {
                    prefetch_index::prefetch_index(&self.triangles, piece.face as usize);
                }
            }
            if far < drawn {
                let (b, k) = aim(&ring[far as usize % RING]);
                prefetch_index::prefetch_index(&self.buckets[b].pieces, k);
            }
            self.attempts += 1;
            let words = ring[dart as usize % RING];
            let (b, k) = aim(&words);
            let piece = self.buckets[b].pieces[k];
            if piece.face == RETIRED || fraction_of(words[2]) * bounds[b] >= self.area(piece) {
                continue;
            }
            let face = piece.face as usize;
            let triangle = &self.triangles[face];
            let corners = piece.corners(triangle.split);
            let bary = spot(&corners, [words[3], words[4]]);
            let p = triangle.point_at(bary);
            let spacing = at(face, bary);
            let index = match self.conflict(&p, spacing) {
                Some(index) => index,
                None => self.store(piece.face, bary, p, spacing),
            };
            let positions = self.positions(piece, &corners);
            if self.covers(index, &positions, below(face, &corners)) {
                self.buckets[b].pieces[k].face = RETIRED;
                active -= 1;
            }
        }
        for bucket in &mut self.buckets {
            bucket.pieces.retain(|piece| piece.face != RETIRED);
        }
        (start - active) as f64 / start.max(1) as f64
    }

    /// Splits every active piece in four and keeps the halves no single point covers;
    /// pieces already at their triangle's deepest level are dropped and counted as
    /// unresolved.
    fn refine(&mut self, below: &impl Fn(usize, &[[f64; 3]; 3]) -> C::Spacing) {
        let old = std::mem::take(&mut self.buckets);
        let mut near = Vec::new();
        for bucket in old {
            for piece in bucket.pieces {
                let (corners, positions, centroid, farthest) = self.outline(piece);
                self.near_piece(&centroid, farthest, None, &mut near);
                // Covered by a point whose dart missed it: retired whole.
                let piece_below = below(piece.face as usize, &corners);
                if near.iter().any(|&index| self.covers(index, &positions, piece_below)) {
                    continue;
                }
                let (children, uncovered) =
                    self.uncovered_children(piece, &positions, below, &near);
                for (child, uncovered) in children.into_iter().zip(uncovered) {
                    if uncovered {
                        self.add(child);
                    }
                }
            }
        }
    }

    /// The children of `piece` (with corners at `positions`; a piece no
    /// single point covers, which the caller has checked), and which of them no single point
    /// covers: none if it is at its triangle's deepest level (then counted as unresolved).
    /// The points tested are those of `near`, which holds every point within reach of the
    /// piece (and maybe others).
    fn uncovered_children(
        &mut self,
        piece: Piece,
        positions: &[Point<3>; 3],
        below: &impl Fn(usize, &[[f64; 3]; 3]) -> C::Spacing,
        near: &[u32],
    ) -> ([Piece; 4], [bool; 4]) {
        let split = self.triangles[piece.face as usize].split;
        let face = piece.face as usize;
        if piece.level() >= deepest_level(split) {
            self.unresolved += 1;
            return ([piece; 4], [false; 4]);
        }
        // The six lattice points of the piece and its children: its corners A, B, C, then
        // the midpoints of AB, BC and CA, from the children's own corners (the same numbers
        // as theirs), each point's distances computed once.
        let children = piece.children();
        let child_corners = children.map(|child| child.corners(split));
        let [[_, ab, ca], [_, _, bc], _, _] = child_corners;
        let [mid_ab, mid_bc, mid_ca] = self.positions(piece, &[ab, bc, ca]);
        let lattice = [positions[0], positions[1], positions[2], mid_ab, mid_bc, mid_ca];
        let child_below = child_corners.map(|corners| below(face, &corners));
        let rule = self.grid.rule();
        let points = self.grid.points();
        let mut child_covered = [false; 4];
        for &index in near {
            let q = points[index as usize];
            let d2: [f64; 6] = std::array::from_fn(|l| distance_squared(&lattice[l], &q));
            for (covered, ([a, b, c], below)) in
                child_covered.iter_mut().zip(CHILD_CORNERS.into_iter().zip(child_below))
            {
                let s2 = rule.cover_squared(index, below);
                *covered |= d2[a] < s2 && d2[b] < s2 && d2[c] < s2;
            }
        }
        (children, child_covered.map(|covered| !covered))
    }
}

/// The corners of a piece's four children ([`Piece::children`]) among its six lattice
/// points: its corners A, B, C (0, 1, 2) and the midpoints of AB, BC, CA (3, 4, 5).
const CHILD_CORNERS: [[usize; 3]; 4] = [[0, 3, 5], [3, 1, 4], [5, 4, 2], [3, 5, 4]];

/// The samples of a run as the engine's front sees them: candidates are spots of the
/// surface ([`SurfaceShell`]), kept when no sample conflicts with them, a lost walk counting
/// as outside.
struct FrontSpace<'r, 'a, H, C, F> {
    run: &'r mut Run<'a, H, C>,
    at: &'r F,
}

impl<H: CellHeads, C: Covering, F: Fn(usize, [f64; 3]) -> C::Spacing> Space
    for FrontSpace<'_, '_, H, C, F>
{
    type Point = Spot;
    type Id = u32;
    type Around = ();
    type Error = Infallible;

    #[inline(always)]
    fn len(&self) -> usize {
        self.run.faces.len()
    }

    #[inline(always)]
    fn get(&self, id: u32) -> Option<(Spot, f64)> {
        let (run, i) = (&*self.run, id as usize);
        let spot = Spot { face: run.faces[i], b: run.barycentrics[i], p: run.grid.points()[i] };
        Some((spot, run.grid.rule().radius(id)))
    }

    #[inline(always)]
    fn around(&self, _: &Spot) {}

    #[inline(always)]
    fn test(&self, _: &(), candidate: &Spot) -> Result<Verdict<Spot>, Infallible> {
        if candidate.is_lost() {
            return Ok(Verdict::Outside);
        }
        let spacing = (self.at)(candidate.face as usize, candidate.b);
        Ok(match self.run.conflict(&candidate.p, spacing) {
            Some(_) => Verdict::Reject,
            None => Verdict::Accept(*candidate, self.run.grid.rule().radius_of_spacing(spacing)),
        })
    }

    #[inline(always)]
    fn store(&mut self, spot: Spot, radius: f64) -> u32 {
        self.run.store(spot.face, spot.b, spot.p, C::spacing_of_radius(radius))
    }
}

/// Marks a piece retired during a phase (no face has this index: a mesh holds fewer than
/// `u32::MAX` triangles).
const RETIRED: u32 = u32::MAX;

/// The mesh's faces in the order of their centroids along a Z-order curve over its box
/// (1024 steps an axis, ties by index): the fill creates its pieces in this order and keeps
/// it, so that the refinement, which visits every active piece, walks the grid around
/// neighbouring places one after the other instead of at random. Sorted by a radix sort of
/// the 30-bit keys (a few milliseconds for 3·10^5 faces, a quarter of a comparison sort's
/// time).
fn faces_in_space_order(mesh: &SurfaceMesh) -> Vec<u32> {
    const STEPS: f64 = 1023.0;
    let (lower, upper) = mesh.bounds();
    // A box too wide or too thin for these numbers gives infinite or NaN steps, which the
    // clamp and `as` turn into the ends or 0: the order is then coarser, never wrong.
    let scale: [f64; 3] = std::array::from_fn(|i| STEPS / (upper[i] - lower[i]));
    let spread = |x: u32| {
        // The ten bits of x, two zero bits between each.
        let mut x = x & 0x3ff;
        x = (x | x << 16) & 0x0300_00ff;
        x = (x | x << 8) & 0x0300_f00f;
        x = (x | x << 4) & 0x030c_30c3;
        (x | x << 2) & 0x0924_9249
    };
    let faces = mesh.faces();
    let keys: Vec<u32> = faces
        .iter()
        .map(|&face| {
            let [a, b, c] = mesh.corners(face as usize);
            (0..3).fold(0, |key, i| {
                let centroid = a[i] / 3.0 + b[i] / 3.0 + c[i] / 3.0;
                let step = ((centroid - lower[i]) * scale[i]).clamp(0.0, STEPS) as u32;
                key | spread(step) << i
            })
        })
        .collect();
    let mut order: Vec<u32> = (0..faces.len() as u32).collect();
    radix_sort_by_key(&mut order, &mut Vec::new(), 30, |&k| u64::from(keys[k as usize]));
    order.into_iter().map(|k| faces[k as usize]).collect()
}

/// The barycentric coordinates of the spot two generator words name in the piece with
/// corners `corners` (barycentric): uniform over it (a point of the unit square folded onto
/// the triangle below its diagonal).
#[inline]
fn spot(corners: &[[f64; 3]; 3], words: [u64; 2]) -> [f64; 3] {
    let (s, t) = folded(words);
    let b1 =
        corners[0][1] + s * (corners[1][1] - corners[0][1]) + t * (corners[2][1] - corners[0][1]);
    let b2 =
        corners[0][2] + s * (corners[1][2] - corners[0][2]) + t * (corners[2][2] - corners[0][2]);
    [1.0 - (b1 + b2), b1, b2]
}

/// A margin for a distance bound `distance` about `centre`: points computed near `centre`
/// stray from where exact arithmetic puts them by rounding relative to their coordinates'
/// size, and 2^-30 of that size and of the distance is far more than that.
fn rounding_margin(centre: &Point<3>, distance: f64) -> f64 {
    let size = centre.iter().fold(0.0, |size: f64, x| size.max(x.abs()));
    (size + distance) * power_of_two(-30)
}

/// The samples that may lie within reach of a point of one face (see `gather_face`), and their
/// positions side by side: a piece's filter reads three rows of coordinates in a loop the
/// compiler vectorises, instead of each sample's point through its index (the fill by fronts
/// 1.04× faster at 10⁶ points, docs/performance.md).
#[derive(Debug, Default)]
struct FaceList {
    index: Vec<u32>,
    x: Vec<f64>,
    y: Vec<f64>,
    z: Vec<f64>,
    /// Scratch: each sample's squared distance to the ball being filtered.
    d2: Vec<f64>,
}

impl FaceList {
    /// Reads the positions of the samples in `index` from `points`.
    fn place(&mut self, points: &[Point<3>]) {
        for (axis, row) in [&mut self.x, &mut self.y, &mut self.z].into_iter().enumerate() {
            row.clear();
            row.extend(self.index.iter().map(|&k| points[k as usize][axis]));
        }
    }

    /// Appends the sample `index` at `p`.
    fn push(&mut self, index: u32, p: &Point<3>) {
        self.index.push(index);
        self.x.push(p[0]);
        self.y.push(p[1]);
        self.z.push(p[2]);
    }

    /// Collects into `near`, in the list's order, the samples whose squared distance to
    /// `centre` is at most `within_squared` (computed as `distance_squared` does, to the bit).
    fn within(&mut self, centre: &Point<3>, within_squared: f64, near: &mut Vec<u32>) {
        self.d2.resize(self.index.len(), 0.0);
        for (((d2, x), y), z) in self.d2.iter_mut().zip(&self.x).zip(&self.y).zip(&self.z) {
            let d = [centre[0] - x, centre[1] - y, centre[2] - z];
            *d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        }
        near.clear();
        near.extend(
            self.index
                .iter()
                .zip(&self.d2)
                .filter(|&(_, &d2)| d2 <= within_squared)
                .map(|(&k, _)| k),
        );
    }
}

/// The centroid of a triangle with `corners` and the distance to its farthest corner: a
/// ball that holds the triangle.
fn enclosing_ball(corners: &[Point<3>; 3]) -> (Point<3>, f64) {
    let centroid: Point<3> =
        std::array::from_fn(|i| (corners[0][i] + corners[1][i] + corners[2][i]) / 3.0);
    let farthest =
        corners.iter().map(|c| distance_squared(c, &centroid)).fold(0.0, f64::max).sqrt();
    (centroid, farthest)
}

#[inline]
fn distance_squared(a: &Point<3>, b: &Point<3>) -> f64 {
    let d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
}
