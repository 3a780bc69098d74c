//! The progress hook: shown as long runs go on, it changes no point, and when it asks to
//! stop, the run ends with `StopReason::Cancelled` and points that keep their distance.

use poisson_nd::field::FnField;
use poisson_nd::region::Ball;
use poisson_nd::sampler::PROGRESS_EVERY;
use poisson_nd::{
    Bridson, Builder, DartThrowing, Domain, FillSampler, GridResolution, Maximal, Progress,
    StopReason,
};
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use testkit::oracle::close_pair;

/// A hook that records every progress it is shown and stops once `stop_at` points are placed.
fn recorder(stop_at: usize) -> (Arc<Mutex<Vec<Progress>>>, impl Fn(Progress) -> ControlFlow<()>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let hook = move |progress: Progress| {
        log.lock().unwrap().push(progress);
        if progress.points >= stop_at { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    };
    (seen, hook)
}

/// Runs `build` with a hook that never stops and one that stops early; checks the points,
/// the progress counts and the stopped run.
fn check<S: FillSampler<2>, O>(
    name: &str,
    builder: impl Fn() -> Builder<2, O>,
    build: impl Fn(Builder<2, O>) -> S,
    r: f64,
) {
    let plain = build(builder()).fill_seeded(3);
    let (seen, hook) = recorder(usize::MAX);
    let watched = build(builder().with_progress(hook)).fill_seeded(3);
    assert_eq!(watched.points, plain.points, "{name}: a hook changes no point");
    assert_eq!(watched.stop, plain.stop, "{name}");
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), plain.len() / PROGRESS_EVERY, "{name}: one call per {PROGRESS_EVERY}");
    assert!(seen.windows(2).all(|w| w[0].points < w[1].points), "{name}: counts grow");

    let stop_at = 2 * PROGRESS_EVERY;
    assert!(plain.len() > 3 * PROGRESS_EVERY, "{name}: the run is long enough");
    let (_, hook) = recorder(stop_at);
    let stopped = build(builder().with_progress(hook)).fill_seeded(3);
    assert_eq!(stopped.stop, StopReason::Cancelled, "{name}");
    assert_eq!(stopped.len(), stop_at, "{name}: stopped at the call that asked");
    assert_eq!(stopped.points[..], plain.points[..stop_at], "{name}: the same run, cut");
    assert_eq!(close_pair(&stopped.domain, &stopped.points, r), None, "{name}");
}

#[test]
fn a_hook_changes_nothing_and_can_stop_the_run() {
    let square = Domain::<2>::unit();
    let r = 0.0025;
    check("bridson", || Bridson::builder(square, r), |b| b.build().unwrap(), r);
    check(
        "bridson in a region",
        || Bridson::builder(square, r).with_region(Ball::new([0.5, 0.5], 0.45).unwrap()),
        |b| b.build().unwrap(),
        r,
    );
    let field = FnField::new(|p: &[f64; 2]| 0.0025 + 0.001 * p[0], 0.0025, 0.0035).unwrap();
    check(
        "bridson with a field",
        || Bridson::builder_with_field(square, field.clone()),
        |b| b.build().unwrap(),
        r,
    );
    check(
        "dart throwing",
        || DartThrowing::builder(square, r).with_grid(GridResolution::Coarse).with_max_misses(300),
        |b| b.build().unwrap(),
        r,
    );
    check("maximal", || Maximal::builder(square.periodic(), r), |b| b.build().unwrap(), r);
}

#[cfg(feature = "chunked")]
#[test]
fn a_chunked_run_shows_its_cells_and_stops_between_them() {
    use poisson_nd::ChunkedBridson;
    let square = Domain::<2>::unit();
    let r = 0.004;
    let build = |hook: Option<Box<dyn Fn(Progress) -> ControlFlow<()> + Send + Sync>>| {
        let builder = ChunkedBridson::builder(square, r).with_chunk_side(0.1).with_threads(2);
        let builder = match hook {
            Some(hook) => builder.with_progress(hook),
            None => builder,
        };
        builder.build().unwrap()
    };
    let plain = build(None).fill_seeded(5);
    let (seen, hook) = recorder(usize::MAX);
    let watched = build(Some(Box::new(hook))).fill_seeded(5);
    assert_eq!(watched.points, plain.points);
    let seen = seen.lock().unwrap().clone();
    let fractions: Vec<f64> = seen.iter().filter_map(|p| p.fraction).collect();
    assert_eq!(fractions.len(), seen.len(), "every cell reports its share");
    assert!(fractions.contains(&1.0), "the last cell is the whole");
    assert!(fractions.iter().all(|&f| f > 0.0 && f <= 1.0));
    let (_, hook) = recorder(plain.len() / 3);
    let stopped = build(Some(Box::new(hook))).fill_seeded(5);
    assert_eq!(stopped.stop, StopReason::Cancelled);
    assert!(stopped.len() < plain.len());
    assert_eq!(close_pair(&stopped.domain, &stopped.points, r), None);
}

#[cfg(feature = "scatter")]
#[test]
fn a_scatter_shows_each_class_and_stops_when_asked() {
    use poisson_nd::Error;
    use poisson_nd::scatter::{Scatter, ScatterClass, Terrain};
    let scatter = |hook: Option<Box<dyn Fn(Progress) -> ControlFlow<()> + Send + Sync>>| {
        let terrain = Terrain::from_image_rows(1, 1, vec![0.0], [1500.0, 1500.0], 1.0).unwrap();
        let mut builder = Scatter::builder(terrain)
            .with_class(ScatterClass::new("tree", 6.0).unwrap())
            .with_class(ScatterClass::new("shrub", 4.0).unwrap());
        if let Some(hook) = hook {
            builder = builder.with_progress(hook);
        }
        builder.build().unwrap()
    };
    let plain = scatter(None).sample(2).unwrap();
    let (seen, hook) = recorder(usize::MAX);
    let watched = scatter(Some(Box::new(hook))).sample(2).unwrap();
    assert_eq!(watched, plain, "a hook changes no point");
    let expected: usize = plain.classes.iter().map(|c| c.points.len() / PROGRESS_EVERY).sum();
    assert!(expected > 0);
    assert_eq!(seen.lock().unwrap().len(), expected, "one call per {PROGRESS_EVERY} of a class");
    let (_, hook) = recorder(PROGRESS_EVERY);
    let stopped = scatter(Some(Box::new(hook))).sample(2);
    assert_eq!(stopped, Err(Error::Cancelled));
}
