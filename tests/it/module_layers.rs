//! The library's rooms are layers: every module refers only to modules of its own layer or
//! lower ones, and no modules refer to each other in a circle (docs/design.md, "Layers").

use std::path::Path;

#[test]
fn modules_refer_only_down_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    testkit::layers::assert_layers(
        &src,
        &[
            // Ground: points, boxes, the generator, errors, packing facts, defaults, the
            // sampler traits, large scratch arrays, the shared geometry.
            &[
                "point", "error", "limits", "rng", "domain", "packing", "choice", "defaults",
                "sampler", "scratch", "geometry",
            ],
            // Concepts: radius fields and regions.
            &["field", "region"],
            // The engine: the grid, the front and the scan, the configuration.
            &["grid", "engine", "config"],
            // The samplers, each a client of the engine.
            &["samplers"],
            // Features built on the engine: live sets, chunked worlds, world scatter.
            &["live", "chunked", "scatter", "surface"],
        ],
    );
}
