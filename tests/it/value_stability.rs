//! Value stability: the first points of every sampler under a fixed seed, pinned to the bit.
//!
//! A failure here means a seed now gives different points: a breaking change that must be
//! deliberate and written in CHANGELOG.md (then update the pins).
//! The literals are Rust's shortest round-trip forms, so `==` compares exact bits.

use poisson_nd::{
    BestCandidate, Bridson, DartThrowing, Domain, FillSampler, Fpo, FrontOrder, GaussianBlueNoise,
    GridResolution, Halton, JitteredGrid, Lloyd, Maximal, Pmj02, Point, SampleElimination, Sampler,
    Sobol, WhiteNoise,
};

fn unit<const D: usize>() -> Domain<D> {
    Domain::unit()
}

fn assert_pinned<const D: usize>(name: &str, got: &[Point<D>], pinned: &[Point<D>]) {
    assert_eq!(got, pinned, "{name}: the first points of seed 42 changed");
}

#[test]
fn bridson_2d() {
    let set = Bridson::new(unit::<2>(), 0.1).expect("valid").sample_seeded(3, 42);
    assert_pinned(
        "bridson 2D",
        &set.points,
        &[
            [0.8143051451229099, 0.3188210400616611],
            [0.6947593843721392, 0.33889068019146573],
            [0.5185751734458449, 0.34210402042175186],
        ],
    );
}

/// A fill of the unit box with the recent front order, whose count and the three points from
/// `from` on are pinned. The first points are Bridson's as long as all active points are
/// among the newest 16, so the pins are taken further on, where the uniform order differs.
fn assert_recent_pinned<const D: usize>(r: f64, count: usize, from: usize, pinned: &[Point<D>]) {
    let name = format!("bridson-recent {D}D");
    let sampler = Bridson::builder(unit::<D>(), r)
        .with_front_order(FrontOrder::Recent)
        .build()
        .expect("valid");
    let set = sampler.fill_seeded(42);
    assert_eq!(set.len(), count, "{name}: the count of seed 42 changed");
    let taken = from..from + pinned.len();
    assert_pinned(&name, &set.points[taken.clone()], pinned);
    let uniform = sampler.to_builder().with_front_order(FrontOrder::Uniform).build();
    assert_ne!(uniform.expect("valid").fill_seeded(42).points[taken.clone()], set.points[taken]);
}

#[test]
fn bridson_recent_2d() {
    assert_recent_pinned(
        0.05,
        257,
        100,
        &[
            [0.3386741110280696, 0.6540878470385307],
            [0.6057660210568998, 0.56116308340373],
            [0.2886952484649215, 0.49650378002355344],
        ],
    );
}

#[test]
fn bridson_recent_3d() {
    assert_recent_pinned(
        0.1,
        658,
        200,
        &[
            [0.4506791753851417, 0.9562801653383161, 0.3976653439568909],
            [0.7366919152595643, 0.783733889633217, 0.040147057605776505],
            [0.2825351970427278, 0.8211106574958051, 0.6267531399259898],
        ],
    );
}

#[test]
fn bridson_3d_periodic_offset_box() {
    let domain = Domain::from_origin_and_extent([-1.0, 0.0, 2.0], [2.0, 1.0, 0.5])
        .expect("valid")
        .periodic();
    let set = Bridson::new(domain, 0.2).expect("valid").sample_seeded(3, 42);
    assert_pinned(
        "bridson 3D periodic",
        &set.points,
        &[
            [0.6286102902458197, 0.3188210400616611, 2.4919470840887445],
            [0.8733474618137962, 0.4191029936870421, 2.0985170101569315],
            [-0.8634981462417954, 0.4747273704832281, 2.2683540910304805],
        ],
    );
}

#[test]
fn bridson_6d_gaussian_shell() {
    let set = Bridson::new(unit::<6>(), 0.4).expect("valid").sample_seeded(2, 42);
    assert_pinned(
        "bridson 6D",
        &set.points,
        &[
            [
                0.8143051451229099,
                0.3188210400616611,
                0.9838941681774888,
                0.7011355981347556,
                0.793504489691729,
                0.5880984664675596,
            ],
            [
                0.9793166478212334,
                0.5135087153417773,
                0.3972860720687349,
                0.6431465916428332,
                0.8453616953716396,
                0.3323382352896041,
            ],
        ],
    );
}

#[test]
fn white_noise_2d() {
    let set = WhiteNoise::new(unit::<2>()).sample_seeded(3, 42);
    assert_pinned(
        "white noise 2D",
        &set.points,
        &[
            [0.8143051451229099, 0.3188210400616611],
            [0.9838941681774888, 0.7011355981347556],
            [0.793504489691729, 0.5880984664675596],
        ],
    );
}

#[test]
fn dart_throwing_2d_naive_and_grid() {
    // r = 0.3: the third dart is rejected, so the pins cover a rejection too.
    let naive = DartThrowing::new(unit::<2>(), 0.3).expect("valid");
    let grid = naive.to_builder().with_grid(GridResolution::Fine).build().expect("valid");
    for sampler in [naive, grid] {
        let set = sampler.sample_seeded(3, 42);
        assert_pinned(
            &sampler.label(),
            &set.points,
            &[
                [0.8143051451229099, 0.3188210400616611],
                [0.9838941681774888, 0.7011355981347556],
                [0.1253524420627421, 0.6051224486571726],
            ],
        );
        assert_eq!(set.attempts, 4, "{}: attempts of seed 42 changed", sampler.label());
    }
}

#[test]
fn best_candidate_2d() {
    let set = BestCandidate::new(unit::<2>()).sample_seeded(3, 42);
    assert_pinned(
        "best candidate 2D",
        &set.points,
        &[
            [0.8143051451229099, 0.3188210400616611],
            [0.2077171716233216, 0.9333471176448307],
            [0.984228889305789, 0.7154256860419084],
        ],
    );
}

#[test]
fn best_candidate_3d_periodic_offset_box() {
    let domain = Domain::from_origin_and_extent([-1.0, 0.0, 2.0], [2.0, 1.0, 0.5])
        .expect("valid")
        .periodic();
    let set = BestCandidate::new(domain).sample_seeded(3, 42);
    assert_pinned(
        "best candidate 3D periodic",
        &set.points,
        &[
            [0.6286102902458197, 0.3188210400616611, 2.4919470840887445],
            [-0.7492951158745158, 0.6051224486571726, 2.1038585858116607],
            [-0.06536337013199556, 0.5917061867514922, 2.0238521077592813],
        ],
    );
}

#[test]
fn halton_2d_plain_and_randomized() {
    let plain = Halton::new(unit::<2>()).expect("valid");
    assert_pinned(
        "halton 2D",
        &plain.sample_seeded(3, 42).points,
        &[[0.5, 0.3333333333333333], [0.25, 0.6666666666666666], [0.75, 0.1111111111111111]],
    );
    assert_pinned(
        "halton-randomized 2D",
        &plain.to_builder().with_randomized(true).build().unwrap().sample_seeded(3, 42).points,
        &[
            [0.7598700752172801, 0.401284660723736],
            [0.009870075217280134, 0.7346179940570694],
            [0.5098700752172801, 0.29017354961262487],
        ],
    );
}

#[test]
fn sobol_3d_plain_and_owen_scrambled() {
    let plain = Sobol::new(unit::<3>()).expect("valid");
    assert_pinned(
        "sobol 3D",
        &plain.sample_seeded(3, 42).points,
        &[[0.0, 0.0, 0.0], [0.5, 0.5, 0.5], [0.25, 0.75, 0.75]],
    );
    assert_pinned(
        "sobol-owen 3D",
        &plain.to_builder().with_owen_scrambling(true).build().unwrap().sample_seeded(3, 42).points,
        &[
            [0.5935440835259553, 0.558860136167499, 0.14492289946838988],
            [0.27465216380773383, 0.11259819916426206, 0.6485608941360774],
            [0.8628467185658457, 0.3472566632289601, 0.8251653538655911],
        ],
    );
}

#[test]
fn pmj02_2d() {
    let set = Pmj02::new(unit::<2>()).expect("valid").sample_seeded(3, 42);
    assert_pinned(
        "pmj02 2D",
        &set.points,
        &[
            [0.8983764882704949, 0.4175759175037408],
            [0.27762087738203567, 0.6495848765294033],
            [0.6878810642916672, 0.8060741178962986],
        ],
    );
}

#[test]
fn jittered_grid_2d() {
    // n = 4: a 2 × 2 grid, first axis fastest.
    let set = JitteredGrid::new(unit::<2>()).sample_seeded(4, 42);
    assert_pinned(
        "jittered grid 2D",
        &set.points[..3],
        &[
            [0.40715257256145493, 0.15941052003083056],
            [0.9919470840887443, 0.3505677990673778],
            [0.3967522448458645, 0.7940492332337798],
        ],
    );
}

#[test]
fn seed_derivation_is_fixed() {
    use poisson_nd::rng::{derive_seed, rng_from_seed};
    use rand::Rng;
    assert_eq!(rng_from_seed(0).next_u64(), PINNED_FIRST_WORD_OF_SEED_0);
    assert_eq!(derive_seed(1, 2), PINNED_DERIVED_SEED_1_2);
}

const PINNED_FIRST_WORD_OF_SEED_0: u64 = 5987356902031041503;
const PINNED_DERIVED_SEED_1_2: u64 = 3379748236207159976;

#[test]
fn maximal_2d_and_3d_periodic_offset_box() {
    let set = Maximal::new(unit::<2>(), 0.1).expect("valid").sample_seeded(3, 42);
    assert_pinned(
        "maximal 2D",
        &set.points,
        &[
            [0.8143051451229099, 0.3188210400616611],
            [0.9838941681774888, 0.7011355981347556],
            [0.793504489691729, 0.5880984664675596],
        ],
    );
    let domain = Domain::from_origin_and_extent([-1.0, 0.0, 2.0], [2.0, 1.0, 0.5])
        .expect("valid")
        .periodic();
    let set = Maximal::new(domain, 0.2).expect("valid").sample_seeded(3, 42);
    assert_pinned(
        "maximal 3D periodic",
        &set.points,
        &[
            [0.6286102902458197, 0.3188210400616611, 2.4919470840887445],
            [0.40227119626951113, 0.793504489691729, 2.2940492332337796],
            [-0.7492951158745158, 0.6051224486571726, 2.1038585858116607],
        ],
    );
}

#[test]
fn sample_elimination_2d_plain_and_progressive() {
    let sampler = SampleElimination::new(unit::<2>());
    assert_pinned(
        "sample elimination 2D",
        &sampler.sample_seeded(100, 42).points[..3],
        &[
            [0.8143051451229099, 0.3188210400616611],
            [0.793504489691729, 0.5880984664675596],
            [0.8158415486602526, 0.1427218583620048],
        ],
    );
    assert_pinned(
        "sample elimination 2D progressive",
        &sampler.to_builder().with_progressive(true).build().unwrap().sample_seeded(100, 42).points
            [..3],
        &[
            [0.08804425098162183, 0.004418508470341753],
            [0.6545350761380998, 0.9666248747653896],
            [0.959752623098511, 0.20364237957189957],
        ],
    );
}

#[test]
fn bridson_2d_density_image_inverse_max() {
    // A 2×2 image (rows from the top: 1, 0.5 / 0.25, 0), inverse mapping to [0.05, 0.15],
    // pair rule max: the first points, their radii, and the filled count and attempts.
    use poisson_nd::FillSampler;
    use poisson_nd::field::{DensityField, DensityMapping, GriddedField, PairRule};
    let domain = unit::<2>();
    let image =
        GriddedField::from_image_rows(&domain, 2, 2, vec![1.0, 0.5, 0.25, 0.0]).expect("valid");
    let field = DensityField::from_image(image, DensityMapping::Inverse, 0.05, 0.15).expect("ok");
    let sampler = Bridson::builder_with_field(domain, field)
        .with_pair_rule(PairRule::Max)
        .build()
        .expect("valid");
    let set = sampler.sample_seeded(3, 42);
    assert_pinned(
        "bridson 2D density field",
        &set.points,
        &[
            [0.8143051451229099, 0.3188210400616611],
            [0.634986503996754, 0.34892550025636804],
            [0.41994214693586857, 0.35284759225432144],
        ],
    );
    assert_eq!(set.radii, Some(vec![0.15, 0.12205654293894025, 0.09101111449724164]));
    let filled = sampler.fill_seeded(42);
    assert_eq!((filled.len(), filled.attempts), (110, 4239));
}

#[cfg(feature = "chunked")]
#[test]
fn chunked_bridson_2d() {
    use poisson_nd::ChunkedBridson;
    // A closed 0.5 × 0.4 box at r = 0.02 in chunks of 0.1 (5 × 4), on two threads: the first
    // three points (the first cell's, in key order), the filled count and the attempts.
    use poisson_nd::FillSampler;
    let domain = Domain::from_origin_and_extent([0.0, 0.0], [0.5, 0.4]).expect("valid");
    let sampler = ChunkedBridson::builder(domain, 0.02)
        .with_chunk_side(0.1)
        .with_threads(2)
        .build()
        .expect("valid");
    let set = sampler.fill_seeded(42);
    assert_pinned(
        "chunked bridson 2D",
        &set.points[..3],
        &[
            [0.007658821834587139, 0.0017851677431063202],
            [0.004064355796538872, 0.0248538778616385],
            [0.005583040366285125, 0.06433380129619404],
        ],
    );
    assert_eq!((set.len(), set.attempts), (330, 36303));
}

#[cfg(feature = "scatter")]
#[test]
fn scatter_three_classes() {
    use poisson_nd::field::PairRule;
    // Trees from a wetness gradient with a slope limit, rocks in a disc with a cross distance
    // from trees, shrubs growing with slope in a height band, on a hilly 16-bit-like map: per
    // class the count, the first point, and a hash of every point and radius (FNV-1a over
    // their bits), so that a shortcut in the sampler that changed any point shows here.
    use poisson_nd::field::{DensityField, DensityMapping, GriddedField};
    use poisson_nd::region::Ball;
    use poisson_nd::scatter::{PlacementRules, Scatter, ScatterClass, Terrain};
    let size = 150.0;
    let (w, h) = (64, 48);
    let heights: Vec<f64> = (0..w * h)
        .map(|k| {
            let (x, y) = ((k % w) as f64 / w as f64, (k / w) as f64 / h as f64);
            let v =
                0.5 + 0.25 * (6.0 * x).sin() * (5.0 * y).cos() + 0.2 * (3.0 * x + 2.0 * y).sin();
            (v.clamp(0.0, 1.0) * 65535.0).round() / 65535.0
        })
        .collect();
    let terrain = Terrain::from_image_rows(w, h, heights, [size, size], 40.0).expect("valid");
    let domain = Domain::from_origin_and_extent([0.0, 0.0], [size, size]).expect("valid");
    let wet: Vec<f64> = (0..16 * 16).map(|i| (i % 16) as f64 / 15.0).collect();
    let image = GriddedField::from_image_rows(&domain, 16, 16, wet).expect("valid");
    let trees = DensityField::from_image(image, DensityMapping::Lerp, 3.0, 6.0).expect("valid");
    let scatter = Scatter::builder(terrain)
        .with_class(
            ScatterClass::from_field("tree", trees)
                .expect("valid")
                .with_rules(PlacementRules::new().with_slope(0.0, 30.0).expect("valid")),
        )
        .with_class(
            ScatterClass::new("rock", 1.2)
                .expect("valid")
                .with_region(Ball::new([75.0, 75.0], 50.0).expect("valid")),
        )
        .with_class(
            ScatterClass::new("shrub", 0.8).expect("valid").with_rules(
                PlacementRules::new()
                    .with_slope_radius(0.5)
                    .expect("valid")
                    .with_height(5.0, 35.0)
                    .expect("valid"),
            ),
        )
        .with_distance("tree", "rock", 1.8)
        // Pinned with the mean rule (the scatter's default then; the library's one default
        // is max).
        .with_pair_rule(PairRule::Mean)
        .build()
        .expect("valid");
    let points = scatter.sample(42).expect("valid");
    let summary: Vec<(usize, [f64; 2], u64)> = points
        .classes
        .iter()
        .map(|class| {
            let mut hash = 0xcbf2_9ce4_8422_2325u64;
            for (p, r) in class.points.iter().zip(&class.radii) {
                for value in [p[0], p[1], *r] {
                    hash = (hash ^ value.to_bits()).wrapping_mul(0x0100_0000_01b3);
                }
            }
            (class.points.len(), class.points.first().copied().unwrap_or([0.0; 2]), hash)
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            (797, [1.2726577317927215, 1.6363946764760666], 13938850144531470590),
            (974, [73.41101699756356, 25.10593220349576], 10731830950452262404),
            (7833, [4.521036935592351, 0.13763842009810698], 13654018212092697879),
        ],
        "the scatter of seed 42 changed"
    );
}

/// The optimisers: the first three of 64 points after a few iterations, so that the pins
/// cover the moves and not only the white-noise start.
#[test]
fn optimisers_2d_and_3d() {
    let fpo = Fpo::builder(unit::<2>().periodic()).with_iterations(5).build().expect("valid");
    assert_pinned(
        "fpo 2D periodic",
        &fpo.sample_seeded(64, 42).points[..3],
        &[
            [0.8939098393196219, 0.45138774060112064],
            [0.3293522658718684, 0.71635254138668],
            [0.8377597540248163, 0.7936678581564891],
        ],
    );
    let lloyd = Lloyd::builder(unit::<2>()).with_iterations(5).build().expect("valid");
    assert_pinned(
        "lloyd 2D",
        &lloyd.sample_seeded(64, 42).points[..3],
        &[
            [0.8838574800815883, 0.3096430087177148],
            [0.9514084386845991, 0.7148867294475246],
            [0.8313631447282203, 0.645810065308216],
        ],
    );
    let gbn = GaussianBlueNoise::builder(unit::<2>().periodic())
        .with_iterations(20)
        .build()
        .expect("valid");
    assert_pinned(
        "gaussian blue noise 2D periodic",
        &gbn.sample_seeded(64, 42).points[..3],
        &[
            [0.8878256192956786, 0.33425073400131927],
            [0.025984738325423785, 0.7340872486706415],
            [0.8403507095874422, 0.6979376275969185],
        ],
    );
    let gbn = GaussianBlueNoise::builder(unit::<3>()).with_iterations(20).build().expect("valid");
    assert_pinned(
        "gaussian blue noise 3D",
        &gbn.sample_seeded(64, 42).points[..3],
        &[
            [0.6968933720454159, 0.41608525330561674, 0.920023963703421],
            [0.7289767042494111, 0.6920362915171464, 0.6542162488635711],
            [0.19443714310759946, 0.5750226341527334, 0.15591770854056916],
        ],
    );
}
