//! The samplers compared, each configured to the same problem: the unit box `[0, 1)^D`,
//! minimum distance `r` between points, `k` candidates per active point, a fixed seed.
//!
//! Parameter semantics, read from each crate's source (docs/performance.md has the details):
//! - `fast_poisson` 1.0.2: `with_dimensions([1.0; D], r)` — `r` is the minimum distance; the
//!   box is `[0, size)`; `with_samples(k)`; `with_seed(seed)` seeds its Xoshiro256**.
//! - `poisson-diskus` 1.0.0: `bridson_rng(&[1.0; D], rmin, k, use_pbc = false, rng)` — `rmin`
//!   is the minimum distance; the box is `[0, size)`; any `rand` 0.8 generator (Xoshiro256++).
//!   Not reproducible all the same: it picks active points by iterating a `HashSet` whose order
//!   is randomised per process.
//! - `poisson` 0.10.1: `Builder::with_radius(radius, Type::Normal)` — `radius` is the radius
//!   of the disks, so points are at least **2·radius** apart: it gets `r / 2`. Its box is
//!   always the unit cube `[0, 1)^D`; `k` is fixed at 30; `rand` 0.6 generator (Xoshiro256**; no ++ for rand 0.6);
//!   points are nalgebra 0.17 vectors, so D ≤ 6. Its maximal mode (`poisson-maximal`) is the
//!   same builder with `algorithm::Ebeida` (Ebeida et al. 2012) instead of `Bridson`.
//! - `poisson-nd-maximal`: poisson-nd's `Maximal` (maximal Poisson-disk sampling) at the
//!   same minimum distance.

use poisson_nd::{Bridson, CandidateDistance, Domain, FillSampler, GridResolution, Maximal};

/// A sampler under comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Peer {
    /// poisson-nd's Bridson with the given grid resolution (`None`: the default for D).
    PoissonNd(Option<GridResolution>),
    /// poisson-nd's Bridson (default grid) drawing candidate distances uniformly in [r, 2r],
    /// as the peers do: the like-for-like comparison of speed at equal density.
    PoissonNdUniformRadius,
    /// The `fast_poisson` crate (k-d tree of accepted points).
    FastPoisson,
    /// The `poisson-diskus` crate (dense grid of r/√D cells).
    PoissonDiskus,
    /// The `poisson` crate, Bridson variant (dense grid, 5^D neighbourhood).
    Poisson,
    /// poisson-nd's maximal Poisson-disk sampler (`Maximal`).
    PoissonNdMaximal,
    /// The `poisson` crate's maximal mode (`algorithm::Ebeida`).
    PoissonMaximal,
}

/// The points of one run, kept in the sampler's own representation until [`Self::into_points`]:
/// converting costs memory, and it happens after the peak has been read.
pub struct Output<const D: usize> {
    convert: Box<dyn FnOnce() -> Vec<[f64; D]>>,
}

impl<const D: usize> Output<D> {
    /// The points as arrays.
    pub fn into_points(self) -> Vec<[f64; D]> {
        (self.convert)()
    }

    fn arrays(points: Vec<[f64; D]>) -> Self {
        Output { convert: Box::new(move || points) }
    }
}

impl Peer {
    /// The sampler called `name` on the command line.
    pub fn from_name(name: &str) -> Result<Self, String> {
        match name {
            "poisson-nd" => Ok(Peer::PoissonNd(None)),
            "poisson-nd-fine" => Ok(Peer::PoissonNd(Some(GridResolution::Fine))),
            "poisson-nd-coarse" => Ok(Peer::PoissonNd(Some(GridResolution::Coarse))),
            "poisson-nd-radius" => Ok(Peer::PoissonNdUniformRadius),
            "fast_poisson" => Ok(Peer::FastPoisson),
            "poisson-diskus" => Ok(Peer::PoissonDiskus),
            "poisson" => Ok(Peer::Poisson),
            "poisson-nd-maximal" => Ok(Peer::PoissonNdMaximal),
            "poisson-maximal" => Ok(Peer::PoissonMaximal),
            other => Err(format!(
                "unknown sampler '{other}' (known: poisson-nd, poisson-nd-fine, \
                 poisson-nd-coarse, poisson-nd-radius, fast_poisson, poisson-diskus, poisson, \
                 poisson-nd-maximal, poisson-maximal)"
            )),
        }
    }

    /// The name used on the command line and in output.
    pub fn name(self) -> &'static str {
        match self {
            Peer::PoissonNd(None) => "poisson-nd",
            Peer::PoissonNd(Some(GridResolution::Fine)) => "poisson-nd-fine",
            Peer::PoissonNd(Some(GridResolution::Coarse)) => "poisson-nd-coarse",
            Peer::PoissonNdUniformRadius => "poisson-nd-radius",
            Peer::FastPoisson => "fast_poisson",
            Peer::PoissonDiskus => "poisson-diskus",
            Peer::Poisson => "poisson",
            Peer::PoissonNdMaximal => "poisson-nd-maximal",
            Peer::PoissonMaximal => "poisson-maximal",
        }
    }

    /// The candidates per active point the sampler actually uses when asked for `k`.
    pub fn attempts_used(self, k: u32) -> u32 {
        match self {
            // Hard-coded in its Bridson loop.
            Peer::Poisson => 30,
            // Maximal sampling has no k: it runs until no room is left.
            Peer::PoissonNdMaximal | Peer::PoissonMaximal => 0,
            _ => k,
        }
    }

    /// The bytes of the dense background grid a peer allocates for the unit box at minimum
    /// distance `r`, when it has one whose size follows the volume (not the points).
    pub fn dense_grid_bytes(self, dim: usize, r: f64) -> Option<u64> {
        let d = dim as f64;
        let (cells_per_axis, bytes_per_cell) = match self {
            // ⌈L / (r/√D)⌉ cells per axis, one `Option<usize>` each.
            Peer::PoissonDiskus => ((d.sqrt() / r).ceil(), 16.0),
            // ⌊1 / (2·radius/√D)⌋ = ⌊√D / r⌋ cells per axis, one empty `Vec` each (the
            // maximal mode also keeps a D-vector per cell in its index list).
            Peer::Poisson => ((d.sqrt() / r).floor(), 24.0),
            Peer::PoissonMaximal => ((d.sqrt() / r).floor(), 24.0 + 8.0 * d),
            _ => return None,
        };
        Some((cells_per_axis.powf(d) * bytes_per_cell).min(u64::MAX as f64) as u64)
    }

    /// One run in the unit box: everything the sampler does, including building its
    /// configuration and grid, happens inside this call (the caller times it).
    pub fn sample<const D: usize>(self, r: f64, k: u32, seed: u64) -> Result<Output<D>, String> {
        match self {
            Peer::PoissonNd(resolution) => {
                let mut builder = Bridson::builder(Domain::<D>::unit(), r).with_attempts(k);
                if let Some(resolution) = resolution {
                    builder = builder.with_grid(resolution);
                }
                let bridson = builder.build().map_err(|e| e.to_string())?;
                Ok(Output::arrays(bridson.fill_seeded(seed).points))
            }
            Peer::PoissonNdUniformRadius => {
                let bridson = Bridson::builder(Domain::<D>::unit(), r)
                    .with_attempts(k)
                    .with_candidate_distance(CandidateDistance::UniformInRadius)
                    .build()
                    .map_err(|e| e.to_string())?;
                Ok(Output::arrays(bridson.fill_seeded(seed).points))
            }
            Peer::PoissonNdMaximal => {
                let maximal = Maximal::new(Domain::<D>::unit(), r).map_err(|e| e.to_string())?;
                Ok(Output::arrays(maximal.fill_seeded(seed).points))
            }
            Peer::FastPoisson => {
                let points = fast_poisson::Poisson::<D>::new()
                    .with_dimensions([1.0; D], r)
                    .with_samples(k)
                    .with_seed(seed)
                    .generate();
                Ok(Output::arrays(points))
            }
            Peer::PoissonDiskus => {
                use rand_xoshiro06::rand_core::SeedableRng;
                let mut rng = rand_xoshiro06::Xoshiro256PlusPlus::seed_from_u64(seed);
                let points = poisson_diskus::bridson_rng(&[1.0; D], r, k as usize, false, &mut rng)
                    .map_err(|e| format!("poisson-diskus: {e:?}"))?;
                Ok(Output::arrays(points))
            }
            Peer::Poisson => poisson_in::<_, D>(r, seed, poisson::algorithm::Bridson),
            Peer::PoissonMaximal => poisson_in::<_, D>(r, seed, poisson::algorithm::Ebeida),
        }
    }
}

/// The `poisson` crate with `algorithm` in `D` dimensions (nalgebra 0.17 vectors, D ≤ 6).
fn poisson_in<A, const D: usize>(r: f64, seed: u64, algorithm: A) -> Result<Output<D>, String>
where
    A: poisson::algorithm::Creator<f64, nalgebra017::Vector2<f64>>
        + poisson::algorithm::Creator<f64, nalgebra017::Vector3<f64>>
        + poisson::algorithm::Creator<f64, nalgebra017::Vector4<f64>>
        + poisson::algorithm::Creator<f64, nalgebra017::Vector5<f64>>
        + poisson::algorithm::Creator<f64, nalgebra017::Vector6<f64>>,
{
    use nalgebra017 as na;
    match D {
        2 => Ok(poisson_crate::<na::Vector2<f64>, A, D>(r, seed, algorithm)),
        3 => Ok(poisson_crate::<na::Vector3<f64>, A, D>(r, seed, algorithm)),
        4 => Ok(poisson_crate::<na::Vector4<f64>, A, D>(r, seed, algorithm)),
        5 => Ok(poisson_crate::<na::Vector5<f64>, A, D>(r, seed, algorithm)),
        6 => Ok(poisson_crate::<na::Vector6<f64>, A, D>(r, seed, algorithm)),
        _ => Err(format!("poisson: nalgebra 0.17 has no {D}-vector")),
    }
}

/// The `poisson` crate's `algorithm` in the unit cube with points at least `r` apart (disk
/// radius `r / 2`), seeded Xoshiro256** (rand_xoshiro 0.1, the last for `rand` 0.6).
fn poisson_crate<V, A, const D: usize>(r: f64, seed: u64, algorithm: A) -> Output<D>
where
    V: poisson::Vector<f64> + std::ops::Index<usize, Output = f64> + 'static,
    A: poisson::algorithm::Creator<f64, V>,
    rand06::distributions::Standard: rand06::distributions::Distribution<V>,
{
    use rand06::SeedableRng;
    let rng = rand_xoshiro01::Xoshiro256StarStar::seed_from_u64(seed);
    let points: Vec<V> = poisson::Builder::<f64, V>::with_radius(r / 2.0, poisson::Type::Normal)
        .build(rng, algorithm)
        .into_iter()
        .collect();
    Output {
        convert: Box::new(move || points.iter().map(|v| std::array::from_fn(|i| v[i])).collect()),
    }
}
