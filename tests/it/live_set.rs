//! The live set (`PoissonSet`): random sequences of insert, remove and fill checked by brute
//! force after every operation (never a close pair, nothing moved, the right conflicting id,
//! filled areas covered within the stated bound), queries against brute force, save/load
//! round trips, determinism and a value pin.

use poisson_nd::field::{FnField, PairRule};
#[cfg(feature = "serde")]
use poisson_nd::live::Snapshot;
use poisson_nd::live::{InsertError, PoissonSet};
use poisson_nd::region::{Ball, BoxRegion};
use poisson_nd::rng::{PortableRng, rng_from_seed};
use poisson_nd::{Domain, Error, Point, PointId, StopReason};
use proptest::prelude::*;
use testkit::domains::{awkward_box, radius_for_about};

/// How the set's radii are given.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Radii {
    Constant,
    Field(PairRule),
}

/// A smooth field between `r` and `2r` (clamped, so rounding never leaves the bounds).
fn field<const D: usize>(r: f64) -> FnField<impl Fn(&[f64; D]) -> f64 + Send + Sync + Clone> {
    FnField::new(
        move |p: &[f64; D]| {
            let s: f64 = p.iter().enumerate().map(|(i, x)| x * (3.0 + i as f64)).sum();
            (r * (1.5 + 0.5 * s.sin())).clamp(r, 2.0 * r)
        },
        r,
        2.0 * r,
    )
    .expect("valid bounds")
}

fn domain<const D: usize>(periodic: bool) -> Domain<D> {
    let d = awkward_box::<D>();
    if periodic { d.periodic() } else { d }
}

/// A set holding about `points` points when full.
fn make_set<const D: usize>(periodic: bool, radii: Radii, points: f64) -> PoissonSet<D> {
    let domain = domain::<D>(periodic);
    let r = radius_for_about(&domain, points);
    match radii {
        Radii::Constant => PoissonSet::new(domain, r).expect("valid"),
        // rmin = 0.7 r, rmax = 1.4 r: about as many points.
        Radii::Field(rule) => PoissonSet::builder_with_field(domain, field::<D>(0.7 * r))
            .with_pair_rule(rule)
            .build()
            .expect("valid"),
    }
}

/// Restores a set from a snapshot, attaching the field it was built with.
#[cfg(feature = "serde")]
fn restore<const D: usize>(snapshot: Snapshot, like: &PoissonSet<D>) -> PoissonSet<D> {
    if snapshot.has_field() {
        let rmin = like.radius_bounds().0;
        PoissonSet::from_snapshot_with_field(snapshot, field::<D>(rmin)).expect("restores")
    } else {
        PoissonSet::from_snapshot(snapshot).expect("restores")
    }
}

/// The distance stored points with radii `ri`, `rj` must keep.
fn pair<const D: usize>(set: &PoissonSet<D>, ri: f64, rj: f64) -> f64 {
    match set.radius_field() {
        None => set.radius(),
        Some(_) => set.pair_rule().distance(ri, rj),
    }
}

type Stored<const D: usize> = Vec<(PointId, Point<D>, f64)>;

fn stored<const D: usize>(set: &PoissonSet<D>) -> Stored<D> {
    set.iter().map(|(id, p)| (id, *p, set.radius_of(id).expect("stored"))).collect()
}

/// Brute force: every point in the box, no pair closer than the rule allows, ids increasing.
fn check_invariant<const D: usize>(set: &PoissonSet<D>) {
    let domain = set.domain();
    let points = stored(set);
    assert_eq!(points.len(), set.len());
    for w in points.windows(2) {
        assert!(w[0].0 < w[1].0, "iteration by increasing id");
    }
    for (i, (a, p, ra)) in points.iter().enumerate() {
        assert!(domain.contains(p), "{a} {p:?} outside the box");
        let (lo, hi) = set.radius_bounds();
        assert!((lo..=hi).contains(ra));
        for (b, q, rb) in &points[i + 1..] {
            let need = pair(set, *ra, *rb);
            let d2 = domain.distance_squared(p, q);
            assert!(d2 >= need * need, "{a} and {b} are {} apart, need {need}", d2.sqrt());
        }
    }
}

/// Brute force: the nearest stored point (smaller id on a tie) and its distance.
fn brute_nearest<const D: usize>(set: &PoissonSet<D>, p: &Point<D>) -> Option<(PointId, f64)> {
    let p = set.domain().wrap(p)?;
    let mut best: Option<(PointId, f64)> = None;
    for (id, q) in set.iter() {
        let d2 = set.domain().distance_squared(&p, q);
        if best.is_none_or(|(bid, b)| (d2, id) < (b, bid)) {
            best = Some((id, d2));
        }
    }
    best.map(|(id, d2)| (id, d2.sqrt()))
}

/// Probes per axis of the restart scan's lattice.
fn probes_per_axis(d: usize) -> f64 {
    match d {
        0..=2 => 4.0,
        3 => 3.0,
        _ => 2.0,
    }
}

/// The coverage bound of a filled area for probes at depth at least `margin`.
fn coverage<const D: usize>(set: &PoissonSet<D>) -> (f64, f64) {
    let (rmin, rmax) = set.radius_bounds();
    let margin = rmin / (2.0 * probes_per_axis(D));
    (margin, rmin + margin + rmax)
}

/// An area: a box or a ball, in box fractions.
#[derive(Debug, Clone, Copy)]
enum Area {
    Box([f64; 4], [f64; 4]),
    Ball([f64; 4], f64),
}

fn at<const D: usize>(domain: &Domain<D>, f: &[f64; 4]) -> Point<D> {
    std::array::from_fn(|i| domain.origin()[i] + f[i % 4] * domain.extent()[i])
}

impl Area {
    /// Whether `x` lies at depth at least `margin` inside the area and the box.
    fn deep<const D: usize>(&self, domain: &Domain<D>, x: &Point<D>, margin: f64) -> bool {
        let in_box = (0..D).all(|i| {
            x[i] >= domain.origin()[i] + margin
                && x[i] <= domain.origin()[i] + domain.extent()[i] - margin
        });
        in_box
            && match self {
                Area::Box(a, b) => {
                    let (lo, hi) = corners::<D>(domain, a, b);
                    (0..D).all(|i| x[i] >= lo[i] + margin && x[i] <= hi[i] - margin)
                }
                Area::Ball(c, r) => {
                    let c = at(domain, c);
                    let d2: f64 = (0..D).map(|i| (x[i] - c[i]).powi(2)).sum();
                    d2.sqrt() <= r - margin
                }
            }
    }

    fn fill<const D: usize>(
        &self,
        set: &mut PoissonSet<D>,
        rng: &mut PortableRng,
    ) -> poisson_nd::live::FillReport {
        let domain = *set.domain();
        match self {
            Area::Box(a, b) => {
                let (lo, hi) = corners::<D>(&domain, a, b);
                set.fill(&BoxRegion::new(lo, hi).expect("box"), rng).expect("fills")
            }
            Area::Ball(c, r) => {
                set.fill(&Ball::new(at(&domain, c), *r).expect("ball"), rng).expect("fills")
            }
        }
    }
}

/// The box spanned by two corners given as box fractions (at least a sliver wide).
fn corners<const D: usize>(domain: &Domain<D>, a: &[f64; 4], b: &[f64; 4]) -> (Point<D>, Point<D>) {
    let (p, q) = (at(domain, a), at(domain, b));
    let lo: Point<D> = std::array::from_fn(|i| p[i].min(q[i]));
    let hi: Point<D> = std::array::from_fn(|i| p[i].max(q[i]) + 1e-3);
    (lo, hi)
}

/// Brute force: `probes` random points deep in the area are all within the bound of a
/// stored point.
fn check_covered<const D: usize>(set: &PoissonSet<D>, area: &Area, probes: usize, seed: u64) {
    let domain = *set.domain();
    let (margin, bound) = coverage(set);
    let mut rng = rng_from_seed(seed);
    let mut checked = 0;
    let mut tries = 0;
    while checked < probes && tries < probes * 200 {
        tries += 1;
        let x = domain.uniform_point(&mut rng);
        if !area.deep(&domain, &x, margin) {
            continue;
        }
        checked += 1;
        let (_, d) = brute_nearest(set, &x).expect("a filled area holds points");
        assert!(d < bound, "probe {x:?} is {d} from the nearest point, bound {bound}");
    }
}

#[derive(Debug, Clone)]
enum Op {
    Insert([f64; 4]),
    Remove(u64),
    RemoveArea(Area),
    Fill(Area, u64),
    FillAll(u64),
}

fn area_strategy() -> impl Strategy<Value = Area> {
    let fractions = || prop::array::uniform4(0.0f64..1.0);
    prop_oneof![
        (fractions(), fractions()).prop_map(|(a, b)| Area::Box(a, b)),
        (fractions(), 0.1f64..0.6).prop_map(|(c, r)| Area::Ball(c, r)),
    ]
}

fn op_strategy() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => prop::array::uniform4(-0.2f64..1.2).prop_map(Op::Insert),
        2 => (0u64..400).prop_map(Op::Remove),
        2 => area_strategy().prop_map(Op::RemoveArea),
        3 => (area_strategy(), 0u64..1000).prop_map(|(a, s)| Op::Fill(a, s)),
        1 => (0u64..1000).prop_map(Op::FillAll),
    ]
}

fn radii_strategy() -> impl Strategy<Value = Radii> {
    prop_oneof![
        2 => Just(Radii::Constant),
        1 => Just(Radii::Field(PairRule::Max)),
        1 => Just(Radii::Field(PairRule::Min)),
        1 => Just(Radii::Field(PairRule::Mean)),
    ]
}

/// Applies `op`, checking by brute force what it promised.
fn apply<const D: usize>(set: &mut PoissonSet<D>, op: &Op) {
    let before = stored(set);
    let domain = *set.domain();
    match op {
        Op::Insert(f) => {
            let p = at(&domain, f);
            // `check` says what `insert` then does (the point limit is far).
            let verdict = set.check(&p);
            let inserted = set.insert(p);
            assert_eq!(verdict, inserted.as_ref().map(|_| ()).map_err(Clone::clone));
            match inserted {
                Ok(id) => {
                    let q = domain.wrap(&p).expect("finite");
                    assert_eq!(set.get(id), Some(&q));
                    assert!(set.is_active(id));
                }
                Err(InsertError::OutsideDomain) => {
                    assert!(!domain.is_periodic() && !domain.contains(&p));
                }
                Err(InsertError::Conflict { id, distance }) => {
                    // The nearest conflicting point, smaller id on a tie.
                    let p = domain.wrap(&p).expect("finite");
                    let r = set.radius_field().map_or(set.radius(), |f| f.radius(&p));
                    let mut best: Option<(f64, PointId)> = None;
                    for (bid, q, rq) in &before {
                        let d2 = domain.distance_squared(&p, q);
                        let need = pair(set, r, *rq);
                        if d2 < need * need && best.is_none_or(|b| (d2, *bid) < b) {
                            best = Some((d2, *bid));
                        }
                    }
                    let (d2, bid) = best.expect("a conflict exists");
                    assert_eq!(id, bid);
                    assert_eq!(distance, d2.sqrt());
                }
                Err(other) => panic!("unexpected {other:?}"),
            }
        }
        Op::Remove(k) => {
            let id = before.get(*k as usize % before.len().max(1)).map(|e| e.0);
            let unknown = set.next_id();
            assert_eq!(set.remove(unknown), None, "an id never handed out");
            assert_eq!(set.id(unknown.get()), None);
            if let Some(id) = id {
                // An id's number names it again while the point is stored, never after.
                assert_eq!(set.id(id.get()), Some(id));
                let p = *set.get(id).expect("stored");
                assert_eq!(set.remove(id), Some(p));
                assert_eq!(set.remove(id), None, "a removed id stays unknown");
                assert_eq!(set.get(id), None);
                assert_eq!(set.id(id.get()), None);
            }
        }
        Op::RemoveArea(area) => {
            for (id, p, _) in &before {
                if area.deep(&domain, p, 0.0) {
                    assert!(set.remove(*id).is_some());
                }
            }
        }
        Op::Fill(area, seed) => {
            let mut rng = rng_from_seed(*seed);
            let report = area.fill(set, &mut rng);
            assert_eq!(report.stop, StopReason::Exhausted);
            assert_eq!(set.len(), before.len() + report.added);
            check_covered(set, area, 60, *seed);
        }
        Op::FillAll(seed) => {
            let mut rng = rng_from_seed(*seed);
            let report = set.fill_all(&mut rng).expect("fills");
            assert_eq!(report.stop, StopReason::Exhausted);
            check_covered(set, &Area::Box([0.0; 4], [1.0; 4]), 60, *seed);
        }
    }
    // Nothing moved: every point kept its id, position and radius.
    for (id, p, r) in &before {
        if let Some(q) = set.get(*id) {
            assert_eq!(q, p);
            assert_eq!(set.radius_of(*id), Some(*r));
        }
    }
    check_invariant(set);
}

fn run_ops<const D: usize>(periodic: bool, radii: Radii, ops: &[Op]) {
    let mut set = make_set::<D>(periodic, radii, 80.0);
    for op in ops {
        apply(&mut set, op);
    }
    // The same operations again give the same set (ids, points, order, front).
    let mut again = make_set::<D>(periodic, radii, 80.0);
    for op in ops {
        apply(&mut again, op);
    }
    assert_eq!(again.snapshot(), set.snapshot());
    // Saved and restored, the set goes on as if it had never been saved.
    #[cfg(feature = "serde")]
    {
        let json = serde_json::to_string(&set.snapshot()).expect("serialises");
        let loaded: Snapshot = serde_json::from_str(&json).expect("deserialises");
        let mut restored = restore(loaded, &set);
        assert_eq!(restored.snapshot(), set.snapshot());
        let (mut a, mut b) = (rng_from_seed(77), rng_from_seed(77));
        let ra = set.fill_all(&mut a).expect("fills");
        let rb = restored.fill_all(&mut b).expect("fills");
        assert_eq!(ra, rb);
        assert_eq!(restored.snapshot(), set.snapshot());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn never_a_close_pair_1d(periodic: bool, radii in radii_strategy(), ops in prop::collection::vec(op_strategy(), 1..10)) {
        run_ops::<1>(periodic, radii, &ops);
    }

    #[test]
    fn never_a_close_pair_2d(periodic: bool, radii in radii_strategy(), ops in prop::collection::vec(op_strategy(), 1..10)) {
        run_ops::<2>(periodic, radii, &ops);
    }

    #[test]
    fn never_a_close_pair_3d(periodic: bool, radii in radii_strategy(), ops in prop::collection::vec(op_strategy(), 1..10)) {
        run_ops::<3>(periodic, radii, &ops);
    }

    #[test]
    fn never_a_close_pair_4d(periodic: bool, radii in radii_strategy(), ops in prop::collection::vec(op_strategy(), 1..8)) {
        run_ops::<4>(periodic, radii, &ops);
    }
}

/// Fill the box, empty a ball and a box, fill each again: every dense probe of the area is
/// within the bound, the other points are untouched, and the hole holds points again.
fn filled_holes<const D: usize>(periodic: bool, radii: Radii, seed: u64) {
    let mut set = make_set::<D>(periodic, radii, 300.0);
    let mut rng = rng_from_seed(seed);
    assert_eq!(set.fill_all(&mut rng).expect("fills").stop, StopReason::Exhausted);
    for area in [Area::Ball([0.5, 0.4, 0.6, 0.5], 0.35), Area::Box([0.1; 4], [0.45; 4])] {
        let domain = *set.domain();
        let mut removed = 0;
        for (id, p, _) in stored(&set) {
            if area.deep(&domain, &p, 0.0) {
                set.remove(id).expect("stored");
                removed += 1;
            }
        }
        assert!(removed > 0, "{D}D: the area held points");
        let kept = stored(&set);
        let next = set.next_id();
        let report = area.fill(&mut set, &mut rng);
        assert_eq!(report.stop, StopReason::Exhausted);
        assert!(report.added > 0, "{D}D: the hole is filled again");
        for (id, p, r) in &kept {
            assert_eq!(set.get(*id), Some(p), "{D}D: point {id} moved");
            assert_eq!(set.radius_of(*id), Some(*r));
        }
        // New points lie in the area.
        for (id, p, _) in stored(&set) {
            if id >= next {
                assert!(area.deep(&domain, &p, -1e-9), "{D}D: {p:?} outside the area");
            }
        }
        check_invariant(&set);
        check_covered(&set, &area, 2000, seed + 1);
    }
}

#[test]
fn filled_holes_leave_no_gap() {
    for periodic in [false, true] {
        for (k, radii) in [
            Radii::Constant,
            Radii::Field(PairRule::Max),
            Radii::Field(PairRule::Min),
            Radii::Field(PairRule::Mean),
        ]
        .into_iter()
        .enumerate()
        {
            let seed = 10 + k as u64;
            filled_holes::<1>(periodic, radii, seed);
            filled_holes::<2>(periodic, radii, seed);
            filled_holes::<3>(periodic, radii, seed);
            filled_holes::<4>(periodic, radii, seed);
        }
    }
}

/// With one radius the bound is `2r + r/(2m)`; checked on a tight 2D hole with many probes.
#[test]
fn a_constant_radius_hole_is_covered_within_two_r() {
    let domain = Domain::<2>::unit();
    let r = 0.03;
    let mut set = PoissonSet::new(domain, r).unwrap();
    let mut rng = rng_from_seed(4);
    set.fill_all(&mut rng).unwrap();
    let hole = Ball::new([0.5, 0.5], 0.2).unwrap();
    for id in set.within(&[0.5, 0.5], 0.2) {
        set.remove(id);
    }
    set.fill(&hole, &mut rng).unwrap();
    let mut probe_rng = rng_from_seed(5);
    for _ in 0..5000 {
        let x = domain.uniform_point(&mut probe_rng);
        let (_, d) = brute_nearest(&set, &x).unwrap();
        assert!(d < 2.0 * r + r / 8.0, "{x:?}: {d}");
    }
}

fn queries<const D: usize>(periodic: bool, radii: Radii) {
    let mut set = make_set::<D>(periodic, radii, 250.0);
    let mut rng = rng_from_seed(21);
    set.fill_all(&mut rng).unwrap();
    // Punch holes so that the set is uneven.
    let all = stored(&set);
    for (id, _, _) in all.iter().step_by(3) {
        set.remove(*id);
    }
    let domain = *set.domain();
    let r = set.radius();
    let mut probe = rng_from_seed(22);
    for k in 0..300 {
        // Some probes outside the box (wrapped on a torus, measured as is otherwise).
        let f: [f64; 4] =
            std::array::from_fn(|_| -0.3 + 1.6 * poisson_nd::rng::uniform01(&mut probe));
        let p = at(&domain, &f);
        assert_eq!(set.nearest(&p), brute_nearest(&set, &p), "{D}D nearest at {p:?}");
        let d = r * (0.5 + 4.0 * (k % 7) as f64 / 6.0);
        let q = domain.wrap(&p).unwrap();
        let expected: Vec<PointId> = set
            .iter()
            .filter(|(_, x)| domain.distance_squared(&q, x) <= d * d)
            .map(|(id, _)| id)
            .collect();
        assert_eq!(set.within(&p, d), expected, "{D}D within {d} of {p:?}");
    }
    // Exactly at a stored point, at distance 0.
    let (id, p) = set.iter().next().map(|(id, p)| (id, *p)).unwrap();
    assert_eq!(set.nearest(&p), Some((id, 0.0)));
    assert_eq!(set.within(&p, 0.0), vec![id]);
    assert!(set.within(&p, -1.0).is_empty());
    assert!(set.within(&p, f64::NAN).is_empty());
    assert_eq!(set.nearest(&[f64::NAN; D]), None);
}

#[test]
fn queries_match_brute_force() {
    for periodic in [false, true] {
        for radii in [Radii::Constant, Radii::Field(PairRule::Mean)] {
            queries::<1>(periodic, radii);
            queries::<2>(periodic, radii);
            queries::<3>(periodic, radii);
            queries::<4>(periodic, radii);
        }
    }
    let empty = PoissonSet::new(Domain::<2>::unit(), 0.1).unwrap();
    assert_eq!(empty.nearest(&[0.5, 0.5]), None);
    assert!(empty.within(&[0.5, 0.5], 10.0).is_empty());
}

/// A sparse set: the nearest point is far from the query (the reach must grow).
#[test]
fn nearest_finds_far_points() {
    let domain = Domain::from_origin_and_extent([0.0; 2], [100.0, 3.0]).unwrap();
    let mut set = PoissonSet::new(domain, 0.01).unwrap();
    let far = set.insert([99.0, 2.5]).unwrap();
    assert_eq!(set.nearest(&[0.0, 0.0]).map(|n| n.0), Some(far));
    let near = set.insert([50.0, 1.0]).unwrap();
    assert_eq!(set.nearest(&[0.0, 0.0]).map(|n| n.0), Some(near));
    assert_eq!(brute_nearest(&set, &[0.0, 0.0]).map(|n| n.0), Some(near));
    // Far outside a closed box.
    for p in [[-1e6, 0.0], [1e12, 1e12], [0.0, -1e300]] {
        assert_eq!(set.nearest(&p), brute_nearest(&set, &p), "{p:?}");
    }
}

#[test]
fn insert_reports_outside_and_conflicts() {
    let mut set = PoissonSet::new(Domain::<2>::unit(), 0.1).unwrap();
    assert_eq!(set.insert([1.0, 0.5]), Err(InsertError::OutsideDomain));
    assert_eq!(set.insert([f64::NAN, 0.5]), Err(InsertError::OutsideDomain));
    let a = set.insert([0.5, 0.5]).unwrap();
    let b = set.insert([0.65, 0.5]).unwrap();
    // Closer to b than to a, and within 0.1 of both.
    match set.insert([0.58, 0.5]) {
        Err(InsertError::Conflict { id, .. }) => assert_eq!(id, b),
        other => panic!("{other:?}"),
    }
    // Exactly between: the tie goes to the smaller id.
    match set.insert([0.575, 0.5]) {
        Err(e) => assert_eq!(e.conflicting(), Some(a)),
        other => panic!("{other:?}"),
    }
    // Exactly r away is allowed.
    let mut exact = PoissonSet::new(Domain::<2>::unit(), 0.125).unwrap();
    assert!(exact.insert([0.25, 0.5]).is_ok());
    assert!(exact.insert([0.375, 0.5]).is_ok());
    assert!(exact.insert([0.25, 0.625]).is_ok());
    // Periodic: wrapped, and conflicts across the seam.
    let mut torus = PoissonSet::new(Domain::<2>::unit().periodic(), 0.1).unwrap();
    let c = torus.insert([1.02, 0.5]).unwrap();
    assert_eq!(torus.get(c).map(|p| (p[0] * 1e6).round()), Some(20_000.0));
    assert_eq!(torus.insert([0.97, 0.5]).unwrap_err().conflicting(), Some(c));
    // The point limit.
    let mut small =
        PoissonSet::builder(Domain::<1>::unit(), 0.1).with_max_points(2).build().unwrap();
    small.insert([0.1]).unwrap();
    small.insert([0.5]).unwrap();
    assert_eq!(small.insert([0.9]), Err(InsertError::PointLimit));
    let report = small.fill_all(&mut rng_from_seed(1)).unwrap();
    assert_eq!(report.stop, StopReason::PointLimit);
    assert_eq!(small.len(), 2);
}

#[test]
fn remove_reactivates_the_neighbours_that_can_reach_the_hole() {
    let domain = Domain::<2>::unit();
    let r = 0.05;
    let mut set = PoissonSet::new(domain, r).unwrap();
    set.fill_all(&mut rng_from_seed(2)).unwrap();
    assert_eq!(set.active_len(), 0, "a full set has no active point");
    let (id, x) = set.iter().nth(40).map(|(id, p)| (id, *p)).unwrap();
    set.remove(id);
    for (q, p) in set.iter() {
        let d = domain.distance_squared(&x, p).sqrt();
        if d < 3.0 * r * (1.0 - 1e-6) {
            assert!(set.is_active(q), "{q} at {d} should be active");
        }
        if d > 3.0 * r * (1.0 + 1e-5) {
            assert!(!set.is_active(q), "{q} at {d} should not be active");
        }
    }
    // Unknown ids are None, never a panic.
    assert_eq!(set.remove(id), None);
    assert_eq!(set.remove(set.next_id()), None);
}

#[test]
fn fill_grows_from_the_front_into_an_empty_area() {
    // A fresh set: the scan seeds it. A set with one point: it grows from it.
    let mut set = PoissonSet::new(Domain::<3>::unit().periodic(), 0.15).unwrap();
    let first = set.insert([0.2, 0.2, 0.2]).unwrap();
    let report = set.fill_all(&mut rng_from_seed(3)).unwrap();
    assert!(report.added > 50);
    assert!(report.attempts >= report.added as u64);
    assert_eq!(set.iter().next().map(|(id, _)| id), Some(first));
    check_invariant(&set);
    // A full set gains nothing from another fill.
    let again = set.fill_all(&mut rng_from_seed(4)).unwrap();
    assert_eq!(again.added, 0);
    // An area outside the box adds nothing.
    let outside = BoxRegion::new([2.0; 3], [3.0; 3]).unwrap();
    assert_eq!(set.fill(&outside, &mut rng_from_seed(5)).unwrap().added, 0);
}

/// Points of an area, and no other, are added; active points outside it wait for their
/// area.
#[test]
fn fill_adds_only_inside_the_area_and_keeps_the_rest_of_the_front() {
    let domain = Domain::<2>::unit();
    let mut set = PoissonSet::new(domain, 0.04).unwrap();
    let mut rng = rng_from_seed(6);
    let left = BoxRegion::new([0.0, 0.0], [0.5, 1.0]).unwrap();
    set.fill(&left, &mut rng).unwrap();
    assert!(set.iter().all(|(_, p)| p[0] < 0.5));
    // The points near the cut stay active for the right half.
    assert!(set.active_len() > 0);
    assert!(
        set.iter()
            .filter(|(id, _)| set.is_active(*id))
            .all(|(_, p)| p[0] > 0.5 - 2.0 * 0.04 - 1e-9)
    );
    let right = BoxRegion::new([0.5, 0.0], [1.0, 1.0]).unwrap();
    set.fill(&right, &mut rng).unwrap();
    check_invariant(&set);
    check_covered(&set, &Area::Box([0.0; 4], [1.0; 4]), 3000, 9);
}

/// Dimensions 5 to 8: a fill keeps the distance and covers the box.
#[test]
fn high_dimensions_fill_and_keep_the_distance() {
    fn check<const D: usize>(r: f64) {
        let mut set = PoissonSet::new(Domain::<D>::unit(), r).unwrap();
        let report = set.fill_all(&mut rng_from_seed(D as u64)).unwrap();
        assert_eq!(report.stop, StopReason::Exhausted);
        assert!(set.len() > 10, "{D}D: {}", set.len());
        check_invariant(&set);
        let first = set.iter().next().map(|(id, _)| id).unwrap();
        set.remove(first);
        set.fill_all(&mut rng_from_seed(1)).unwrap();
        check_invariant(&set);
        check_covered(&set, &Area::Box([0.0; 4], [1.0; 4]), 200, 3);
    }
    check::<5>(0.35);
    check::<6>(0.45);
    check::<7>(0.55);
    check::<8>(0.65);
}

#[cfg(feature = "serde")]
#[test]
fn save_and_load_continue_identically() {
    // One radius, through the set's own serde.
    let domain = Domain::from_origin_and_extent([-1.0, 2.0], [1.5, 1.0]).unwrap().periodic();
    let mut set = PoissonSet::new(domain, 0.05).unwrap();
    let mut rng = rng_from_seed(30);
    set.fill(&BoxRegion::new([-1.0, 2.0], [0.0, 3.0]).unwrap(), &mut rng).unwrap();
    for id in set.within(&[-0.5, 2.5], 0.2) {
        set.remove(id);
    }
    let json = serde_json::to_string(&set).unwrap();
    let mut loaded: PoissonSet<2> = serde_json::from_str(&json).unwrap();
    assert!(loaded.iter().eq(set.iter()));
    assert_eq!(loaded.active_len(), set.active_len());
    let mut rng_loaded = rng.clone();
    let a = set.fill_all(&mut rng).unwrap();
    let b = loaded.fill_all(&mut rng_loaded).unwrap();
    assert_eq!(a, b);
    assert_eq!(loaded.snapshot(), set.snapshot());
    assert_eq!(
        loaded.insert([0.3, 2.1]).map_err(|e| e.conflicting()),
        set.insert([0.3, 2.1]).map_err(|e| e.conflicting())
    );

    // A field: the snapshot, with the field attached again.
    let domain = Domain::<3>::unit();
    let mut set = PoissonSet::builder_with_field(domain, field::<3>(0.08))
        .with_pair_rule(PairRule::Min)
        .build()
        .unwrap();
    let mut rng = rng_from_seed(31);
    set.fill(&Ball::new([0.5; 3], 0.4).unwrap(), &mut rng).unwrap();
    let json = serde_json::to_string(&set.snapshot()).unwrap();
    let snapshot: Snapshot = serde_json::from_str(&json).unwrap();
    assert!(snapshot.has_field());
    // The set's own Deserialize refuses a field set: it needs the field.
    assert!(serde_json::from_str::<PoissonSet<3>>(&json).is_err());
    let mut loaded =
        PoissonSet::from_snapshot_with_field(snapshot.clone(), field::<3>(0.08)).unwrap();
    assert_eq!(loaded.pair_rule(), PairRule::Min);
    let mut rng_loaded = rng.clone();
    assert_eq!(set.fill_all(&mut rng).unwrap(), loaded.fill_all(&mut rng_loaded).unwrap());
    assert_eq!(loaded.snapshot(), set.snapshot());

    // Another field is refused: other bounds, or other radii at the stored points.
    let err = PoissonSet::from_snapshot_with_field(snapshot.clone(), field::<3>(0.09)).unwrap_err();
    assert!(matches!(err, Error::InvalidSnapshot(_)), "{err}");
    let other = FnField::new(|_: &[f64; 3]| 0.1, 0.08, 0.16).unwrap();
    let err = PoissonSet::from_snapshot_with_field(snapshot.clone(), other).unwrap_err();
    assert!(err.to_string().contains("radius"), "{err}");
    assert!(PoissonSet::<3>::from_snapshot(snapshot.clone()).is_err());
    assert!(matches!(
        PoissonSet::<2>::from_snapshot_with_field(snapshot, field::<2>(0.08)),
        Err(Error::DimensionMismatch { .. })
    ));
}

/// A damaged file is an error naming the problem, never a set that breaks its invariant.
#[cfg(feature = "serde")]
#[test]
fn damaged_snapshots_are_refused() {
    let mut set = PoissonSet::new(Domain::<2>::unit(), 0.1).unwrap();
    set.insert([0.1, 0.1]).unwrap();
    set.insert([0.5, 0.5]).unwrap();
    let json = serde_json::to_string(&set.snapshot()).unwrap();
    let load = |text: String| -> Result<PoissonSet<2>, String> {
        let snapshot: Snapshot = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        PoissonSet::from_snapshot(snapshot).map_err(|e| e.to_string())
    };
    assert!(load(json.clone()).is_ok());
    let cases = [
        (json.replace("\"0.5\",\"0.5\"", "\"0.15\",\"0.1\""), "closer"),
        (json.replace("\"0.5\",\"0.5\"", "\"0.5\",\"1.5\""), "outside"),
        (json.replace("\"ids\":[0,1]", "\"ids\":[1,0]"), "increasing"),
        (json.replace("\"ids\":[0,1]", "\"ids\":[0,7]"), "increasing"),
        (json.replace("\"active\":[0,1]", "\"active\":[0,0]"), "twice"),
        (json.replace("\"active\":[0,1]", "\"active\":[0,9]"), "never"),
        (json.replace("\"radius\":\"0.1\"", "\"radius\":\"-0.1\""), "radius"),
        (json.replace("\"attempts\":30", "\"attempts\":0"), "at least 1"),
        (
            json.replace("\"coordinates\":[\"0.1\",\"0.1\",", "\"coordinates\":[\"0.1\","),
            "coordinates",
        ),
        (json.replace("\"coordinates\":[\"0.1\",", "\"coordinates\":[\"zero\","), "not a number"),
        // One ulp off, as a format that does not carry floats exactly gives it back: every
        // check passes but the checksum of the numbers' bits.
        (
            json.replace("\"coordinates\":[\"0.1\",", "\"coordinates\":[0.10000000000000002,"),
            "checksum",
        ),
        (json.replace("\"next_id\":2", "\"next_id\":3"), "checksum"),
    ];
    for (text, expected) in cases {
        assert_ne!(text, json, "the damage applies");
        let err = load(text).unwrap_err();
        assert!(err.contains(expected), "{err}: expected {expected:?}");
    }
}

/// Every real number of a snapshot is written as text that reads back to its bits, so any
/// human-readable format carries it exactly whatever its float parser does; a snapshot with
/// the format's own numbers (as saved before) loads as before.
#[cfg(feature = "serde")]
#[test]
fn snapshots_keep_their_numbers_in_any_format() {
    let mut set = PoissonSet::new(Domain::<2>::unit(), 0.1).unwrap();
    // Numbers whose shortest forms need all 17 digits, and a subnormal-scale one.
    set.insert([0.1 + 0.2, 1.0 / 3.0]).unwrap();
    set.insert([0.7000000000000001, 0.9]).unwrap();
    let json = serde_json::to_string(&set.snapshot()).unwrap();
    assert!(
        json.contains("\"coordinates\":[\"0.30000000000000004\",\"0.3333333333333333\","),
        "{json}"
    );
    // Read back through a generic value, as a format without exact floats hands it over.
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let snapshot: Snapshot = serde_json::from_value(value).unwrap();
    assert_eq!(PoissonSet::<2>::from_snapshot(snapshot).unwrap().snapshot(), set.snapshot());
    // The numbers as JSON numbers (the earlier form) load as before.
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let number = |v: &serde_json::Value| {
        serde_json::Value::from(v.as_str().unwrap().parse::<f64>().unwrap())
    };
    for key in ["origin", "extent", "coordinates", "radii"] {
        let list: Vec<_> = value[key].as_array().unwrap().iter().map(number).collect();
        value[key] = serde_json::Value::from(list);
    }
    value["radius"] = number(&value["radius"]);
    let numbers = serde_json::to_string(&value).unwrap();
    assert!(
        numbers.contains("\"coordinates\":[0.30000000000000004,0.3333333333333333,"),
        "{numbers}"
    );
    let old: Snapshot = serde_json::from_str(&numbers).unwrap();
    assert_eq!(PoissonSet::<2>::from_snapshot(old).unwrap().snapshot(), set.snapshot());
    // Extreme magnitudes (the smallest lengths, a subnormal origin) keep their bits too.
    let tiny = Domain::from_origin_and_extent([1e-95, -5e-324], [3e-95, 1e-95]).unwrap();
    let mut small = PoissonSet::new(tiny, 1e-97).unwrap();
    small.insert([2.000000000000001e-95, 1e-97]).unwrap();
    let json = serde_json::to_string(&small.snapshot()).unwrap();
    let back: Snapshot = serde_json::from_str(&json).unwrap();
    assert_eq!(PoissonSet::<2>::from_snapshot(back).unwrap().snapshot(), small.snapshot());
}

#[test]
fn bad_settings_are_errors() {
    let unit = Domain::<2>::unit();
    for r in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(PoissonSet::new(unit, r), Err(Error::InvalidRadius(_))), "{r}");
    }
    assert!(matches!(
        PoissonSet::builder(unit, 0.1).with_attempts(0).build(),
        Err(Error::ZeroCount(_))
    ));
    assert!(matches!(
        PoissonSet::builder(unit, 0.1).with_max_points(0).build(),
        Err(Error::ZeroCount(_))
    ));
    let bad = FnField::new(|_: &[f64; 2]| 0.1, 0.1, 0.1).unwrap();
    let set = PoissonSet::builder_with_field(unit, bad).build().unwrap();
    assert_eq!(set.radius_bounds(), (0.1, 0.1));
    let wide = FnField::new(|_: &[f64; 2]| 1.0, 1e-7, 1.0).unwrap();
    assert!(matches!(
        PoissonSet::builder_with_field(unit, wide).build(),
        Err(Error::RadiusRatioTooLarge { .. })
    ));
    assert!(matches!(PoissonSet::new(Domain::<3>::unit(), 1e-30), Err(Error::OutOfRange { .. })));
    let fine = PoissonSet::new(Domain::<3>::unit(), 1e-12);
    assert!(
        matches!(fine, Err(Error::GridTooLarge { .. } | Error::TooManyPoints { .. })),
        "{fine:?}"
    );
    // A constant field is one radius.
    let constant = poisson_nd::field::ConstantField::new(0.1).unwrap();
    let set = PoissonSet::builder_with_field(unit, constant).build().unwrap();
    assert!(set.radius_field().is_none());
    assert_eq!(set.radius(), 0.1);
    // An area whose bounding box has a NaN corner is an error, not a silent no-op.
    #[derive(Debug)]
    struct Broken;
    impl poisson_nd::Region<2> for Broken {
        fn contains(&self, _: &Point<2>) -> bool {
            true
        }
        fn bounding_box(&self) -> (Point<2>, Point<2>) {
            ([0.0, f64::NAN], [1.0, 1.0])
        }
    }
    let mut set = PoissonSet::new(unit, 0.1).unwrap();
    assert!(matches!(set.fill(&Broken, &mut rng_from_seed(1)), Err(Error::NonFinite { .. })));
    assert!(set.is_empty());
    // A field value outside its bounds stops a fill and is reported; an insert refuses it.
    let liar = FnField::new(|p: &[f64; 2]| if p[0] < 0.5 { 0.05 } else { 0.5 }, 0.05, 0.1).unwrap();
    let mut set = PoissonSet::builder_with_field(unit, liar).build().unwrap();
    assert!(matches!(set.insert([0.7, 0.5]), Err(InsertError::InvalidField(_))));
    let report = set.fill_all(&mut rng_from_seed(1)).unwrap();
    assert_eq!(report.stop, StopReason::InvalidField);
    assert!(matches!(report.field_error, Some(Error::FieldValueOutOfBounds { .. })));
    check_invariant(&set);
    assert!(set.iter().all(|(_, p)| p[0] < 0.5));
}

/// The same scenario twice gives the same set; its count and first points are pinned
/// (a change here changes the points a seed gives).
#[test]
fn value_pin() {
    let scenario = || {
        let mut set = PoissonSet::new(Domain::<2>::unit(), 0.1).unwrap();
        let mut rng = rng_from_seed(2026);
        set.insert([0.5, 0.5]).unwrap();
        set.fill_all(&mut rng).unwrap();
        for id in set.within(&[0.25, 0.75], 0.2) {
            set.remove(id);
        }
        set.fill(&Ball::new([0.25, 0.75], 0.2).unwrap(), &mut rng).unwrap();
        set
    };
    let set = scenario();
    assert_eq!(set.snapshot(), scenario().snapshot());
    let first: Vec<(u64, Point<2>)> = set.iter().take(3).map(|(id, p)| (id.get(), *p)).collect();
    println!("{} points, next id {}, first {first:?}", set.len(), set.next_id());
    assert_eq!(set.len(), PINNED_LEN);
    assert_eq!(set.next_id().get(), PINNED_NEXT_ID);
    assert_eq!(first, PINNED_FIRST.to_vec());
}

const PINNED_LEN: usize = 67;
const PINNED_NEXT_ID: u64 = 73;
const PINNED_FIRST: [(u64, Point<2>); 3] = [
    (0, [0.5, 0.5]),
    (1, [0.4896060827838734, 0.6636680545151661]),
    (2, [0.348330275875937, 0.5569076510254569]),
];

#[test]
fn a_fill_stops_when_its_progress_hook_asks_and_keeps_its_points() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let domain = Domain::<2>::unit();
    let seen = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&seen);
    let mut set = PoissonSet::new(domain, 0.002).unwrap();
    set.set_progress(move |progress| {
        count.fetch_add(1, Ordering::Relaxed);
        if progress.points >= 2 * poisson_nd::sampler::PROGRESS_EVERY {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    });
    let report = set.fill_all(&mut rng_from_seed(5)).unwrap();
    assert_eq!(report.stop, StopReason::Cancelled);
    assert_eq!(set.len(), report.added);
    assert_eq!(set.len(), 2 * poisson_nd::sampler::PROGRESS_EVERY);
    assert_eq!(seen.load(Ordering::Relaxed), 2);
    check_invariant(&set);
    // The builder's hook is the same hook; a fill it never stops gives the points of a set
    // without one.
    let mut watched = PoissonSet::builder(domain, 0.01)
        .with_progress(|_| std::ops::ControlFlow::Continue(()))
        .build()
        .unwrap();
    let mut plain = PoissonSet::new(domain, 0.01).unwrap();
    watched.fill_all(&mut rng_from_seed(3)).unwrap();
    plain.fill_all(&mut rng_from_seed(3)).unwrap();
    assert_eq!(watched.points(), plain.points());
    // The stopped fill goes on where it stopped.
    let more = set.fill_all(&mut rng_from_seed(6)).unwrap();
    assert_eq!(more.stop, StopReason::Cancelled);
}
