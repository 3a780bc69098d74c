//! Jittered grid: the cell-count rule, one point per cell in the documented order, and the
//! periodic box giving the closed box's points.

use poisson_nd::{Domain, Error, JitteredGrid, Sampler, StopReason};
use proptest::prelude::*;
use testkit::domains::awkward_box;

#[test]
fn counts_follow_the_rule() {
    let square = JitteredGrid::new(Domain::<2>::unit());
    assert_eq!(square.sample_seeded(0, 1).len(), 0);
    assert_eq!(square.grid_shape(0), [0, 0]);
    assert_eq!(square.grid_shape(1), [1, 1]);
    assert_eq!(square.grid_shape(3), [3, 1]);
    assert_eq!(square.grid_shape(100), [10, 10]);
    assert_eq!(square.grid_shape(300), [17, 17]);
    let cube = JitteredGrid::new(Domain::<3>::unit());
    assert_eq!(cube.grid_shape(1000), [10, 10, 10]);
    let wide =
        JitteredGrid::new(Domain::from_origin_and_extent([0.0, 0.0], [2.0, 1.0]).expect("valid"));
    assert_eq!(wide.grid_shape(200), [20, 10]);
    // A thin slab: the short axis keeps one cell.
    let slab = JitteredGrid::new(
        Domain::from_origin_and_extent([0.0, 0.0, 0.0], [4.0, 4.0, 0.01]).expect("valid"),
    );
    assert_eq!(slab.grid_shape(16), [4, 4, 1]);
}

#[test]
fn n_one_gives_one_point_in_any_box() {
    let domain =
        Domain::from_origin_and_extent([-3.0, 0.0, 0.0], [100.0, 0.001, 1.0]).expect("valid");
    let set = JitteredGrid::new(domain).sample_seeded(1, 7);
    assert_eq!(set.len(), 1);
    assert!(domain.contains(&set.points[0]));
}

#[test]
fn one_point_per_cell_first_axis_fastest() {
    let domain = awkward_box::<3>();
    let sampler = JitteredGrid::new(domain);
    let cells = sampler.grid_shape(500);
    let set = sampler.sample_seeded(500, 3);
    assert_eq!(set.len(), cells.iter().product::<usize>());
    assert!(set.len() <= 500);
    let (origin, extent) = (domain.origin(), domain.extent());
    for (index, p) in set.points.iter().enumerate() {
        // The index in the documented order: axis 0 varies fastest.
        let mut rest = index;
        for axis in 0..3 {
            let cell = rest % cells[axis];
            rest /= cells[axis];
            let side = extent[axis] / cells[axis] as f64;
            let lower = origin[axis] + cell as f64 * side;
            assert!(
                p[axis] >= lower - 1e-12 && p[axis] <= lower + side + 1e-12,
                "point {index} {p:?} not in cell {cell} of axis {axis}"
            );
        }
        assert!(domain.contains(p));
    }
}

#[test]
fn periodic_box_gives_the_closed_boxs_points() {
    let domain = awkward_box::<4>();
    let closed = JitteredGrid::new(domain).sample_seeded(777, 5);
    let periodic = JitteredGrid::new(domain.periodic()).sample_seeded(777, 5);
    assert_eq!(closed.points, periodic.points);
}

#[test]
fn limits() {
    let sampler = JitteredGrid::new(Domain::<2>::unit());
    let zero = sampler.to_builder().with_max_points(0).build();
    assert_eq!(zero.err(), Some(Error::ZeroCount("max_points")));
    let capped = sampler.to_builder().with_max_points(50).build().expect("valid");
    let capped = capped.sample_seeded(1000, 1);
    assert_eq!(capped.stop, StopReason::PointLimit);
    assert_eq!(capped.len(), 49); // 7 × 7, the grid for 50
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// No axis can take another cell without passing n, so the count is above n/2: with
    /// count·(m_i + 1)/m_i > n for every axis, count > n·m_i/(m_i + 1) ≥ n/2.
    #[test]
    fn count_is_at_most_n_and_more_than_half(
        n in 1usize..5000,
        sides in proptest::array::uniform3(0.01f64..100.0),
    ) {
        let sampler = JitteredGrid::new(Domain::from_origin_and_extent([0.0; 3], sides).expect("valid"));
        let count: usize = sampler.grid_shape(n).iter().product();
        prop_assert!(count <= n, "{count} > {n}");
        prop_assert!(2 * count > n, "{count} ≤ {n}/2");
    }
}
