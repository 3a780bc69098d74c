//! Writes the mesh of the example scene `examples/scatter/island.toml`: `island.obj`, an island
//! 180 m across as a triangle grid (+y up, north = −z, as glTF and most OBJ files; the sea
//! around it is not part of the mesh), with a lagoon (a hole in the mesh), a flat underside
//! facing down, and UVs over its square (so the wetness map reaches the trees through them). Deterministic; the file is committed, so the
//! example runs without this step.
//!
//! `cargo run --release -p experiments --example island_inputs [-- DIR]`

use std::fmt::Write as _;
use std::path::PathBuf;

/// The island's height at the ground point `(x, n)` (`n` north), in metres.
fn height(x: f64, n: f64) -> f64 {
    let r = (x * x + n * n).sqrt() / 90.0;
    let cone = 28.0 * (1.0 - r * r).max(0.0);
    let ridges = 3.0 * (0.07 * x).sin() * (0.05 * n).cos() + 2.0 * (0.11 * (x + n)).sin();
    (cone + ridges * (1.0 - r).max(0.0)).max(0.0)
}

/// Whether the grid cell centred at `(x, n)` is left out of the mesh: the lagoon, and the sea
/// (no height within the cell's reach).
fn water(x: f64, n: f64) -> bool {
    (x - 35.0).hypot(n + 20.0) < 14.0 || x.hypot(n) > 92.0
}

fn main() {
    let dir =
        std::env::args().nth(1).map_or_else(|| PathBuf::from("examples/scatter"), PathBuf::from);
    std::fs::create_dir_all(&dir).expect("output folder");
    let k = 40;
    let at = |i: usize| -100.0 + 200.0 * i as f64 / k as f64;
    let mut obj =
        String::from("# The example island of examples/scatter/island.toml (+y up, north = -z)\n");
    for j in 0..=k {
        for i in 0..=k {
            let (x, n) = (at(i), at(j));
            let _ = writeln!(obj, "v {x} {:.3} {}", height(x, n), -n);
            let _ = writeln!(obj, "vt {:.4} {:.4}", i as f64 / k as f64, j as f64 / k as f64);
        }
    }
    let base = (k + 1) * (k + 1);
    for (x, n) in [(-100.0, -100.0), (100.0, -100.0), (100.0, 100.0), (-100.0, 100.0)] {
        let _ = writeln!(obj, "v {x} -4 {}", -n);
    }
    // OBJ counts from 1; the underside's corners have no UV (so they reuse the first one).
    let v = |i: usize, j: usize| j * (k + 1) + i + 1;
    for j in 0..k {
        for i in 0..k {
            if water(0.5 * (at(i) + at(i + 1)), 0.5 * (at(j) + at(j + 1))) {
                continue;
            }
            // Counter-clockwise seen from above (x east, −z north): the faces point up.
            for [a, b, c] in
                [[v(i, j), v(i + 1, j), v(i + 1, j + 1)], [v(i, j), v(i + 1, j + 1), v(i, j + 1)]]
            {
                let _ = writeln!(obj, "f {a}/{a} {b}/{b} {c}/{c}");
            }
        }
    }
    let u = |m: usize| base + m + 1;
    let _ = writeln!(obj, "f {}/1 {}/1 {}/1", u(0), u(2), u(1));
    let _ = writeln!(obj, "f {}/1 {}/1 {}/1", u(0), u(3), u(2));
    std::fs::write(dir.join("island.obj"), obj).expect("island.obj");
}
