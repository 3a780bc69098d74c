//! The one configuration every sampler is built from, its one validation, and what each
//! sampler supports.
//!
//! Every sampler's builder is a [`Builder`]: the settings all samplers share ([`Config`]: the
//! domain, a radius or a radius field with its pair rule, a region, `k`, the point limit, the
//! grid) and the sampler's own options. The shared setters are written once, here; a sampler
//! adds its own and a `build` that checks everything once against what the
//! sampler supports ([`Capabilities`]): a setting it does not take is an error that names it,
//! never silently ignored.
//!
//! ```
//! use poisson_nd::region::Ball;
//! use poisson_nd::{Bridson, Domain, Error, Maximal, SampleElimination};
//! let domain = Domain::<2>::unit();
//! let disc = Ball::new([0.5, 0.5], 0.4)?;
//! // The same setters on every builder.
//! let bridson = Bridson::builder(domain, 0.05).with_region(disc).with_max_points(10_000).build()?;
//! let eliminated = SampleElimination::builder(domain).with_region(disc).with_ratio(4.0).build()?;
//! // What a sampler does not take is refused by name.
//! assert!(!Maximal::<2>::CAPABILITIES.field);
//! let field = poisson_nd::FnField::new(|_: &[f64; 2]| 0.05, 0.04, 0.06)?;
//! let refused = Maximal::builder(domain, 0.05).with_radius_field(field).build();
//! assert!(matches!(refused, Err(Error::Unsupported { sampler: "maximal", .. })));
//! # let _ = (bridson, eliminated);
//! # Ok::<(), poisson_nd::Error>(())
//! ```

use crate::defaults;
use crate::domain::Domain;
use crate::error::Error;
use crate::field::{FieldSetup, PairRule, RadiusField, resolve_field};
use crate::grid::{GridResolution, MAX_GRID_POINTS, Tuning};
use crate::packing::max_points_estimate;
use crate::region::Region;
use crate::region::shape::SamplerRegion;
use crate::sampler::{Progress, Watch};
use std::sync::Arc;

/// What a sampler supports: which of the shared settings its builder takes, and the boxes it
/// samples. Read it before building (the experiments crate offers a setting only to the
/// samplers that take it) or let `build` refuse what is not supported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Capabilities {
    /// Radius-driven: the builder takes a radius, every pair keeps it and the sampler fills
    /// the domain by itself (a count only caps it). Count-driven samplers make the number of
    /// points asked for instead.
    pub radius: bool,
    /// Takes a radius field with a pair rule (a radius per point).
    pub field: bool,
    /// Takes a region (samples only the points of it).
    pub region: bool,
    /// Samples periodic (toroidal) boxes as well as closed ones.
    pub periodic: bool,
    /// Takes `k`, the candidates tried around an active point (`with_attempts`).
    pub attempts: bool,
    /// Takes a background-grid resolution and tuning (`with_grid`, `with_tuning`).
    pub grid: bool,
    /// The lowest dimension it samples (1 for most; 2 for the planar optimisers).
    pub min_dimension: usize,
    /// The highest dimension it samples (`usize::MAX`: every dimension).
    pub max_dimension: usize,
}

impl Capabilities {
    /// A count-driven sampler that takes a region, in any dimension and box.
    pub(crate) const COUNT_DRIVEN: Capabilities = Capabilities {
        radius: false,
        field: false,
        region: true,
        periodic: true,
        attempts: false,
        grid: false,
        min_dimension: 1,
        max_dimension: usize::MAX,
    };

    /// Whether the sampler takes `dim` dimensions.
    pub fn takes_dimension(&self, dim: usize) -> bool {
        (self.min_dimension.max(1)..=self.max_dimension).contains(&dim)
    }

    /// The dimensions it takes, in words: "1 to 2", "2 only", "every from 1".
    pub fn dimensions_text(&self) -> String {
        match (self.min_dimension.max(1), self.max_dimension) {
            (low, usize::MAX) => format!("every from {low}"),
            (low, high) if low == high => format!("{low} only"),
            (low, high) => format!("{low} to {high}"),
        }
    }
}

/// The settings every sampler shares, as a [`Builder`] holds them before they are checked.
#[derive(Clone)]
pub struct Config<const D: usize> {
    pub(crate) domain: Domain<D>,
    pub(crate) radius: Option<f64>,
    pub(crate) field: Option<Arc<dyn RadiusField<D>>>,
    pub(crate) pair_rule: PairRule,
    pub(crate) region: Option<Arc<dyn Region<D>>>,
    /// `None` until set: a sampler that does not take `k` refuses a set value.
    pub(crate) attempts: Option<u32>,
    pub(crate) max_points: usize,
    pub(crate) grid: Option<GridResolution>,
    pub(crate) tuning: Tuning,
    pub(crate) watch: Option<Watch>,
}

impl<const D: usize> std::fmt::Debug for Config<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("domain", &self.domain)
            .field("radius", &self.radius)
            .field("field", &self.field)
            .field("pair_rule", &self.pair_rule)
            .field("region", &self.region.as_ref().map(|r| r.bounding_box()))
            .field("attempts", &self.attempts)
            .field("max_points", &self.max_points)
            .field("grid", &self.grid)
            .field("tuning", &self.tuning)
            .field("watch", &self.watch.is_some())
            .finish()
    }
}

impl<const D: usize> Config<D> {
    /// The defaults ([`defaults`]) in `domain`, with `radius` for a radius-driven sampler.
    pub(crate) fn new(domain: Domain<D>, radius: Option<f64>) -> Self {
        Config {
            domain,
            radius,
            field: None,
            pair_rule: PairRule::default(),
            region: None,
            attempts: None,
            max_points: defaults::MAX_POINTS,
            grid: None,
            tuning: Tuning::default(),
            watch: None,
        }
    }

    /// The domain.
    pub fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    /// The radius given, if any (a radius field's rmin once built).
    pub fn radius(&self) -> Option<f64> {
        self.radius
    }

    /// The radius field, if one was given.
    pub fn radius_field(&self) -> Option<&Arc<dyn RadiusField<D>>> {
        self.field.as_ref()
    }

    /// The pair rule of a radius field.
    pub fn pair_rule(&self) -> PairRule {
        self.pair_rule
    }

    /// The region, if one was given.
    pub fn region(&self) -> Option<&Arc<dyn Region<D>>> {
        self.region.as_ref()
    }

    /// Candidates per active point, `k`.
    pub fn attempts(&self) -> u32 {
        self.attempts.unwrap_or(defaults::ATTEMPTS)
    }

    /// The point limit.
    pub fn max_points(&self) -> usize {
        self.max_points
    }

    /// The grid resolution asked for, if any.
    pub fn grid(&self) -> Option<GridResolution> {
        self.grid
    }

    /// The grid tuning.
    pub fn tuning(&self) -> Tuning {
        self.tuning
    }

    /// Checks everything once for sampler `name`, which supports `capabilities`: a setting it
    /// does not take ([`Error::Unsupported`]); the dimension; the region against the domain;
    /// the radius (finite and positive) or the field's bounds; a point limit between 1 and
    /// 2147483647; `k ≥ 1`. A constant field is the one radius. A sampler that fills its
    /// whole box also checks the limit against the radius ([`Checked::check_budget`]).
    pub(crate) fn check(
        &self,
        name: &'static str,
        capabilities: &Capabilities,
    ) -> Result<Checked<D>, Error> {
        let refuse = |what| Err(Error::Unsupported { sampler: name, what });
        if self.field.is_some() && !capabilities.field {
            return refuse("a radius field");
        }
        if self.region.is_some() && !capabilities.region {
            return refuse("a region");
        }
        if self.domain.is_periodic() && !capabilities.periodic {
            return refuse("a periodic box");
        }
        if self.attempts.is_some() && !capabilities.attempts {
            return refuse("k (attempts per active point)");
        }
        if self.grid.is_some() && !capabilities.grid {
            return refuse("a grid resolution");
        }
        if self.tuning != Tuning::default() && !capabilities.grid {
            return refuse("grid tuning");
        }
        if !capabilities.takes_dimension(D) {
            return Err(Error::InvalidParameter {
                name: "dimension",
                expected: "within the sampler's dimensions (see its capabilities)",
                value: D as f64,
            });
        }
        let region = SamplerRegion::new(self.region.as_ref(), &self.domain)?;
        let (radius, field) = match self.radius {
            Some(radius) if capabilities.radius => {
                resolve_field(radius, self.field.clone(), self.pair_rule)?
            }
            _ => (f64::NAN, None),
        };
        if capabilities.radius {
            crate::limits::check_radius(radius)?;
            let scale = self.domain.coordinate_scale();
            crate::limits::check_radius_for_scale("the radius", radius, scale)?;
        }
        check_point_limit(self.max_points)?;
        let attempts = self.attempts();
        if capabilities.attempts && attempts == 0 {
            return Err(Error::ZeroCount("k (attempts per active point)"));
        }
        Ok(Checked {
            domain: self.domain,
            radius,
            field,
            region,
            attempts,
            max_points: self.max_points,
            grid: self.grid,
            tuning: self.tuning,
            watch: self.watch.clone(),
        })
    }
}

/// A checked configuration: what a sampler keeps of its [`Config`].
#[derive(Debug, Clone)]
pub(crate) struct Checked<const D: usize> {
    pub(crate) domain: Domain<D>,
    /// The radius, a field's rmin (NaN for a count-driven sampler).
    pub(crate) radius: f64,
    pub(crate) field: Option<FieldSetup<D>>,
    pub(crate) region: SamplerRegion<D>,
    pub(crate) attempts: u32,
    pub(crate) max_points: usize,
    pub(crate) grid: Option<GridResolution>,
    pub(crate) tuning: Tuning,
    pub(crate) watch: Option<Watch>,
}

impl<const D: usize> Checked<D> {
    /// The box candidates are drawn from: the domain's, or the part of it the region can
    /// occupy.
    pub(crate) fn sampling_box(&self) -> &Domain<D> {
        self.region.sampling_box(&self.domain)
    }

    /// Checks that the point limit holds the densest packing, at the radius (rmin with a
    /// field), of the part of the box the region can occupy: a fill of the whole box then
    /// never stops at the limit ([`Error::TooManyPoints`] says how many points and bytes the
    /// radius would take).
    pub(crate) fn check_budget(&self) -> Result<(), Error> {
        check_point_budget(self.sampling_box(), self.radius, self.max_points)
    }

    /// The radius bounds `(rmin, rmax)`: `(r, r)` for one radius.
    pub(crate) fn radius_bounds(&self) -> (f64, f64) {
        self.field.as_ref().map_or((self.radius, self.radius), |setup| (setup.rmin, setup.rmax))
    }
}

/// Validates a point limit for a sampler whose points are numbered by 32-bit links: at least 1
/// and at most [`MAX_GRID_POINTS`].
pub(crate) fn check_point_limit(max_points: usize) -> Result<(), Error> {
    if max_points == 0 {
        return Err(Error::ZeroCount("max_points"));
    }
    if max_points > MAX_GRID_POINTS {
        return Err(Error::InvalidParameter {
            name: "max_points",
            expected: "at most 2147483647",
            value: max_points as f64,
        });
    }
    Ok(())
}

/// Rejects radii that would let the densest packing of the box pass `limit` points.
pub(crate) fn check_point_budget<const D: usize>(
    domain: &Domain<D>,
    radius: f64,
    limit: usize,
) -> Result<(), Error> {
    let estimated_points = max_points_estimate(domain, radius);
    if estimated_points > limit as f64 {
        return Err(Error::TooManyPoints {
            radius,
            estimated_points,
            estimated_bytes: estimated_points * (8 * D + 8) as f64,
            limit,
        });
    }
    Ok(())
}

/// A sampler's builder: the shared settings ([`Config`]) and the sampler's own options `O`.
/// Every setter is infallible; the sampler's `build` checks the whole once and refuses what
/// the sampler does not support ([`Capabilities`]).
#[derive(Clone)]
pub struct Builder<const D: usize, O> {
    pub(crate) config: Config<D>,
    pub(crate) options: O,
}

impl<const D: usize, O: std::fmt::Debug> std::fmt::Debug for Builder<D, O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Builder")
            .field("config", &self.config)
            .field("options", &self.options)
            .finish()
    }
}

impl<const D: usize, O> Builder<D, O> {
    /// A builder of `options` with the shared defaults in `domain`.
    pub(crate) fn from_defaults(domain: Domain<D>, radius: Option<f64>, options: O) -> Self {
        Builder { config: Config::new(domain, radius), options }
    }

    /// The shared settings so far.
    pub fn config(&self) -> &Config<D> {
        &self.config
    }

    /// The sampler's own options so far.
    pub fn options(&self) -> &O {
        &self.options
    }

    /// Samples only the points of `region` instead of the whole box (samplers with
    /// [`Capabilities::region`]). Radius-driven samplers fill every piece of it: when their
    /// own process ends, a restart scan seeds the parts still uncovered (docs/algorithms.md,
    /// "Regions"); count-driven ones make their n points inside it. The domain stays the
    /// metric space and must be closed; `build` checks the region against it.
    #[must_use]
    pub fn with_region(mut self, region: impl Region<D> + 'static) -> Self {
        self.config.region = Some(Arc::new(region));
        self
    }

    /// Samples the whole box again (the default).
    #[must_use]
    pub fn without_region(mut self) -> Self {
        self.config.region = None;
        self
    }

    /// Sets the point limit (default [`defaults::MAX_POINTS`]): a run stops there. For a
    /// radius-driven sampler it must hold the densest packing of the box at the radius, which
    /// `build` checks.
    #[must_use]
    pub fn with_max_points(mut self, max_points: usize) -> Self {
        self.config.max_points = max_points;
        self
    }

    /// Sets `k`, the candidates tried around an active point before it retires (default
    /// [`defaults::ATTEMPTS`], 30; samplers with [`Capabilities::attempts`]). More attempts
    /// give denser sets at a higher cost; `k = 0` is an error at `build`, and so is a `k` for
    /// a sampler that does not take one ([`Error::Unsupported`]).
    #[must_use]
    pub fn with_attempts(mut self, k: u32) -> Self {
        self.config.attempts = Some(k);
        self
    }

    /// Replaces the radius by a radius field (samplers with [`Capabilities::field`]): each
    /// point gets the radius the field gives at its position, and every pair keeps the
    /// distance of the pair rule ([`with_pair_rule`](Self::with_pair_rule), default
    /// [`PairRule::Max`]). The field's bounds `(rmin, rmax)` size the grid and are checked by
    /// `build`; the point limit is checked against `rmin`. A
    /// [`ConstantField`](crate::field::ConstantField) is the one radius.
    #[must_use]
    pub fn with_radius_field(mut self, field: impl RadiusField<D> + 'static) -> Self {
        if self.config.radius.is_none() {
            self.config.radius = Some(field.bounds().0);
        }
        self.config.field = Some(Arc::new(field));
        self
    }

    /// Sets the pair rule of a radius field (default [`PairRule::Max`]); with one radius
    /// every rule is that radius and this changes nothing.
    #[must_use]
    pub fn with_pair_rule(mut self, rule: PairRule) -> Self {
        self.config.pair_rule = rule;
        self
    }

    /// Chooses the background grid's resolution (samplers with [`Capabilities::grid`];
    /// default [`GridResolution::Coarse`]). The grid only answers "is a point closer than
    /// r?", so the points are the same for every resolution; only the speed changes. Dart
    /// throwing searches every point without one. A sampler without a grid setting refuses
    /// it at `build` ([`Error::Unsupported`]).
    #[must_use]
    pub fn with_grid(mut self, resolution: GridResolution) -> Self {
        self.config.grid = Some(resolution);
        self
    }

    /// No grid resolution asked for: the sampler's default (dart throwing: its naive search,
    /// every dart against every point).
    #[must_use]
    pub fn without_grid(mut self) -> Self {
        self.config.grid = None;
        self
    }

    /// Advanced: grid tuning that changes speed and memory, never the points (samplers with
    /// [`Capabilities::grid`]; others refuse a tuning other than the default at `build`).
    #[must_use]
    pub fn with_tuning(mut self, tuning: Tuning) -> Self {
        self.config.tuning = tuning;
        self
    }

    /// Calls `hook` as a long run goes on (every [`PROGRESS_EVERY`](crate::sampler::PROGRESS_EVERY)
    /// points, or after every cell of a chunked run), to show its progress or stop it
    /// ([`Watch`]). Samplers that place their points in one pass without a long search
    /// (the count-driven ones) never call it. It changes no point: a run it does not stop
    /// gives the same points.
    #[must_use]
    pub fn with_progress(
        mut self,
        hook: impl Fn(Progress) -> std::ops::ControlFlow<()> + Send + Sync + 'static,
    ) -> Self {
        self.config.watch = Some(Watch::new(hook));
        self
    }

    /// Runs without a progress hook again (the default).
    #[must_use]
    pub fn without_progress(mut self) -> Self {
        self.config.watch = None;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_validated() {
        let domain = Domain::<2>::unit();
        assert_eq!(check_point_limit(0), Err(Error::ZeroCount("max_points")));
        assert!(check_point_limit(MAX_GRID_POINTS + 1).is_err());
        assert!(matches!(
            check_point_budget(&domain, 0.001, 1000),
            Err(Error::TooManyPoints { limit: 1000, .. })
        ));
        assert_eq!(check_point_budget(&domain, 0.1, 1000), Ok(()));
    }
}
