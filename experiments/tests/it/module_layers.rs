//! The experiments crate's rooms are layers: every module refers only to modules of its own
//! layer or lower ones, and no modules refer to each other in a circle.

use std::path::Path;

#[test]
fn modules_refer_only_down_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    testkit::layers::assert_layers(
        &src,
        &[
            // Ground: dimensions, number formatting, fits, the library's named choices.
            &["dims", "format", "fit", "choices", "progress"],
            // Files: the input readers, boxes from the command line, point files, the
            // density maps and regions made from input files.
            &["inputs", "domains", "io", "shapes"],
            // The sampler specification and its catalogue, the instruments, the plots, and
            // points on a surface (its flags, mesh files and columns).
            &["spec", "catalogue", "metrics", "plot", "surface"],
            // The commands and the report.
            &["analyze", "inspect", "sample", "world", "scatter", "config", "report"],
        ],
    );
}

/// The Python package's native module keeps layers of its own: conversions, then the shapes
/// and plans its classes share, then one module per family of classes.
#[test]
fn python_modules_refer_only_down_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../python/src");
    testkit::layers::assert_layers(
        &src,
        &[
            // numpy arrays and boxes from Python values.
            &["arrays"],
            // Fields and regions from Python data; the staged plan and its blocks.
            &["shapes", "stages"],
            // The classes.
            &["analysis", "live", "sampling", "scatter", "surface", "world"],
        ],
    );
}
