//! A sampler's name is its algorithm's and never changes with the configuration; its label
//! adds what sets the configuration apart, and is what results files show.

use poisson_nd::{
    BestCandidate, Bridson, DartThrowing, Domain, DynSampler, Fpo, GaussianBlueNoise,
    GridResolution, Halton, JitteredGrid, Lloyd, Pmj02, Sampler, Sobol, WhiteNoise,
};

#[test]
fn names_are_fixed_and_labels_carry_the_configuration() {
    let domain = Domain::<2>::unit();
    let darts = DartThrowing::new(domain, 0.1).expect("valid");
    let darts_grid =
        darts.to_builder().with_grid(GridResolution::Fine).build().expect("valid grid");
    let halton = Halton::new(domain).expect("valid");
    let samplers: Vec<(Box<dyn DynSampler<2>>, &str, &str)> = vec![
        (Box::new(Bridson::new(domain, 0.1).expect("valid")), "bridson", "bridson"),
        (Box::new(darts), "dart-throwing", "dart-throwing"),
        (Box::new(darts_grid), "dart-throwing", "dart-throwing-grid"),
        (Box::new(BestCandidate::new(domain)), "best-candidate", "best-candidate"),
        (Box::new(halton.clone()), "halton", "halton"),
        (
            Box::new(halton.to_builder().with_randomized(true).build().unwrap()),
            "halton",
            "halton-randomized",
        ),
        (Box::new(Sobol::new(domain).unwrap()), "sobol", "sobol"),
        (
            Box::new(Sobol::builder(domain).with_owen_scrambling(true).build().unwrap()),
            "sobol",
            "sobol-owen",
        ),
        (Box::new(Pmj02::new(domain).unwrap()), "pmj02", "pmj02"),
        (Box::new(JitteredGrid::new(domain)), "jittered-grid", "jittered-grid"),
        (Box::new(WhiteNoise::new(domain)), "white-noise", "white-noise"),
        (Box::new(Fpo::new(domain).unwrap()), "fpo", "fpo"),
        (Box::new(Lloyd::new(domain).unwrap()), "lloyd", "lloyd"),
        (Box::new(GaussianBlueNoise::new(domain)), "gaussian-blue-noise", "gaussian-blue-noise"),
    ];
    for (sampler, name, label) in &samplers {
        assert_eq!(sampler.name(), *name);
        assert_eq!(sampler.label(), *label);
        assert_eq!(sampler.dyn_label(), *label);
        // Radius-driven samplers fill by themselves; the others need a count.
        let filled = sampler.try_fill_seeded(3);
        assert_eq!(filled.is_some(), sampler.min_distance().is_some(), "{label}");
        if let Some(set) = filled {
            assert_eq!(set.points, sampler.sample_seeded(usize::MAX, 3).points, "{label}");
        }
    }
}
