//! The active front of Bridson's algorithm: the one loop every Poisson-disk fill runs.
//!
//! A front is a list of active points. A step picks one (uniformly, or among the newest:
//! [`FrontOrder`]), draws up to `k` candidates in the shell around it ([`ShellDraw`]) and
//! asks the [`Space`] about each; the first the space accepts is stored and becomes active,
//! and when all `k` fail the point retires. What "accepted" means — inside the region, no
//! stored point too close under the conflict rule, the radius the field gives there — is the
//! space's business: a grid with its rule for [`Bridson`](crate::Bridson) and the chunk cells,
//! the class grids of a scatter, the removable grid of a live set, the samples of a surface
//! (whose points are places on the mesh, [`Space::Point`]). The front owns only the
//! order of draws, which is what makes a run reproducible.

use super::shell::ShellDraw;
use crate::rng::uniform_index;
use crate::sampler::Watch;
use rand::Rng;

/// What a space says of a candidate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Verdict<P> {
    /// Store it: the point as stored (wrapped into a periodic box) and its radius.
    Accept(P, f64),
    /// A stored point is too close.
    Reject,
    /// It lies outside the area being filled.
    Outside,
}

/// Where a front grows: the stored points, and what decides whether a candidate may join them.
pub(crate) trait Space {
    /// A stored point and what a candidate is: a position, or a place on a surface.
    type Point: Copy;
    /// How a stored point is named in the active list.
    type Id: Copy;
    /// What the tests around one active point share, prepared once per step.
    type Around;
    /// What can stop a test (a radius field's invalid value); `Infallible` where nothing can.
    type Error;

    /// Number of stored points.
    fn len(&self) -> usize;

    /// The stored point `id` and its radius; `None` once it is gone (a live set's removed
    /// point), which drops it from the front.
    fn get(&self, id: Self::Id) -> Option<(Self::Point, f64)>;

    /// Prepares the tests of the candidates around `centre` (whether its whole shell lies
    /// inside the region, reading the grid cells the candidates will read).
    fn around(&self, centre: &Self::Point) -> Self::Around;

    /// Whether `candidate`, drawn around an active point, may be stored.
    fn test(
        &self,
        around: &Self::Around,
        candidate: &Self::Point,
    ) -> Result<Verdict<Self::Point>, Self::Error>;

    /// Whether every candidate of the step `around` was prepared for lies inside the area as
    /// drawn, so that [`test_inside`](Self::test_inside) answers for it.
    #[inline(always)]
    fn shell_inside(_: &Self::Around) -> bool {
        false
    }

    /// [`test`](Self::test) for a candidate known to lie inside the area as drawn (the step's
    /// [`shell_inside`](Self::shell_inside) said so): the same verdict, without the region.
    #[inline(always)]
    fn test_inside(
        &self,
        around: &Self::Around,
        candidate: &Self::Point,
    ) -> Result<Verdict<Self::Point>, Self::Error> {
        self.test(around, candidate)
    }

    /// Stores an accepted point with its radius.
    fn store(&mut self, p: Self::Point, radius: f64) -> Self::Id;

    /// Hears that `id` retired: all its candidates failed, and `outside` says whether one of
    /// them failed only for lying outside the area (a live set keeps such a point for a fill
    /// elsewhere).
    #[inline(always)]
    fn retire(&mut self, id: Self::Id, outside: bool) {
        let _ = (id, outside);
    }
}

/// Which active point a step of the front works around.
///
/// Both orders keep every guarantee of the fill (no pair closer than the radius, the same
/// stopping rule); they give different points for a seed, of the same quality within the
/// noise (docs/algorithms.md, "The front's order").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FrontOrder {
    /// Any active point, uniformly: Bridson's rule, and the order the value pins rest on.
    #[default]
    Uniform,
    /// One of the 16 newest active points, uniformly. Consecutive steps then
    /// work in one neighbourhood, whose grid cells and points are still in the caches: about
    /// 1.3× faster in 3D at 10⁶ points and 1.05× in 2D (docs/performance.md).
    Recent,
}

/// The newest active points among which [`FrontOrder::Recent`] picks: 4 and 64 were as fast
/// at 10⁶ points in 3D; 1 (always the newest) was slower.
pub const RECENT_WINDOW: usize = 16;

impl FrontOrder {
    /// The slot of the active point a step works around, in an active list of `len > 0`
    /// points that join at its end (a retired point's slot takes the last one). Under
    /// `Recent` only the last `RECENT_WINDOW` slots ever retire, so they always hold the
    /// newest active points.
    #[inline(always)]
    fn pick<R: Rng + ?Sized>(self, len: usize, rng: &mut R) -> usize {
        match self {
            FrontOrder::Uniform => uniform_index(rng, len),
            FrontOrder::Recent => len - 1 - uniform_index(rng, len.min(RECENT_WINDOW)),
        }
    }
}

/// How a front draws: the candidates per active point, the shell they come from and the
/// order in which active points are worked.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rules<S> {
    /// Candidates tried around an active point before it retires (`k`, at least 1).
    pub(crate) attempts: u32,
    /// The shell draw.
    pub(crate) shell: S,
    /// Which active point a step picks.
    pub(crate) order: FrontOrder,
}

/// What one step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// A candidate was stored and is active.
    Added,
    /// The chosen point retired.
    Retired,
    /// The chosen point was gone and left the front.
    Gone,
}

/// One step around an active point chosen by the rules' order (there must be one). `count`
/// grows by the
/// candidates drawn. An error leaves the chosen point active and stores nothing.
#[inline(always)]
pub(crate) fn step<S, H, R>(
    space: &mut S,
    active: &mut Vec<S::Id>,
    rules: &Rules<H>,
    count: &mut u64,
    rng: &mut R,
) -> Result<Step, S::Error>
where
    S: Space,
    H: ShellDraw<S::Point>,
    R: Rng + ?Sized,
{
    let slot = rules.order.pick(active.len(), rng);
    let id = active[slot];
    let Some((centre, r)) = space.get(id) else {
        active.swap_remove(slot);
        return Ok(Step::Gone);
    };
    let around = space.around(&centre);
    // The attempts compiled twice: with the region's test where some candidate may fall
    // outside, without it where none can (one branch a step instead of one a candidate, which
    // also kept the candidate out of registers: 3% more instructions in 3D).
    let accepted = if S::shell_inside(&around) {
        attempts(space, &centre, r, rules, count, rng, |space, c| space.test_inside(&around, c))
    } else {
        attempts(space, &centre, r, rules, count, rng, |space, c| space.test(&around, c))
    };
    match accepted? {
        Attempts::Accepted(p, radius) => {
            active.push(space.store(p, radius));
            Ok(Step::Added)
        }
        Attempts::Failed { outside } => {
            active.swap_remove(slot);
            space.retire(id, outside);
            Ok(Step::Retired)
        }
    }
}

/// How a step's attempts ended.
enum Attempts<P> {
    /// This candidate is to be stored, with this radius.
    Accepted(P, f64),
    /// All failed; `outside` says whether one of them only for lying outside the area.
    Failed { outside: bool },
}

/// Up to `k` candidates around `centre` (radius `r`), each tested by `test`, until one is
/// accepted. `count` grows by the candidates drawn.
#[inline(always)]
fn attempts<S, H, R>(
    space: &S,
    centre: &S::Point,
    r: f64,
    rules: &Rules<H>,
    count: &mut u64,
    rng: &mut R,
    test: impl Fn(&S, &S::Point) -> Result<Verdict<S::Point>, S::Error>,
) -> Result<Attempts<S::Point>, S::Error>
where
    S: Space,
    H: ShellDraw<S::Point>,
    R: Rng + ?Sized,
{
    let k = rules.attempts;
    let mut outside = false;
    let mut next = rules.shell.draw(centre, r, rng);
    // `0..k` and a flag for the last attempt: an inclusive range costs a check of its own.
    for attempt in 0..k {
        *count += 1;
        let candidate = next;
        let last = attempt + 1 == k;
        // Drawn ahead (before this candidate is tested) or after it, as the shell says; the
        // draws never depend on the tests, so the distribution is the same either way.
        if H::AHEAD && !last {
            next = rules.shell.draw(centre, r, rng);
        }
        match test(space, &candidate)? {
            Verdict::Accept(p, radius) => return Ok(Attempts::Accepted(p, radius)),
            Verdict::Outside => outside = true,
            Verdict::Reject => {}
        }
        if !H::AHEAD && !last {
            next = rules.shell.draw(centre, r, rng);
        }
    }
    Ok(Attempts::Failed { outside })
}

/// How growing a front ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Grown {
    /// The space holds the number of points asked for.
    AtLimit,
    /// No point is active: the front died.
    FrontDied,
    /// The progress hook stopped it.
    Cancelled,
}

/// Steps until the space holds `limit` points, no point is active, or the progress hook
/// (shown every [`PROGRESS_EVERY`](crate::sampler::PROGRESS_EVERY) points) stops it. `count`
/// grows by the candidates drawn.
#[inline]
pub(crate) fn grow<S, H, R>(
    space: &mut S,
    active: &mut Vec<S::Id>,
    rules: &Rules<H>,
    limit: usize,
    watch: Option<&Watch>,
    count: &mut u64,
    rng: &mut R,
) -> Result<Grown, S::Error>
where
    S: Space,
    H: ShellDraw<S::Point>,
    R: Rng + ?Sized,
{
    // Counted in a local, so that it stays in a register.
    let mut drawn = *count;
    let mut outcome = Ok(Grown::AtLimit);
    while space.len() < limit {
        if active.is_empty() {
            outcome = Ok(Grown::FrontDied);
            break;
        }
        match step(space, active, rules, &mut drawn, rng) {
            Ok(Step::Added) if Watch::every(watch, space.len()) => {
                outcome = Ok(Grown::Cancelled);
                break;
            }
            Ok(_) => {}
            Err(error) => {
                outcome = Err(error);
                break;
            }
        }
    }
    *count = drawn;
    outcome
}

/// Up to `tries` darts from `draw`; the first the space accepts as a seed is stored and
/// active (`Ok(true)`). Each dart counts one in `count`. `accept` tests a dart: `Some(radius)`
/// to store it.
pub(crate) fn seed_by_darts<S, R, E>(
    space: &mut S,
    active: &mut Vec<S::Id>,
    tries: usize,
    count: &mut u64,
    rng: &mut R,
    mut draw: impl FnMut(&mut R) -> S::Point,
    accept: impl Fn(&S, &S::Point) -> Result<Option<f64>, E>,
) -> Result<bool, E>
where
    S: Space,
    R: Rng + ?Sized,
{
    for _ in 0..tries {
        let dart = draw(rng);
        *count += 1;
        if let Some(radius) = accept(space, &dart)? {
            active.push(space.store(dart, radius));
            return Ok(true);
        }
    }
    Ok(false)
}
