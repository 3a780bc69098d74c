//! Writes the inputs of the example scene `examples/scatter/scene.toml`: a 16-bit heightmap
//! (`height.png`, 256 × 256: hills, a ridge and a valley) and an 8-bit wetness map
//! (`wet.png`, 128 × 128: wet in the valley and low ground). Deterministic; the files are
//! committed, so the example runs without this step.
//!
//! `cargo run --release -p experiments --example scatter_inputs [-- DIR]`

use std::path::{Path, PathBuf};

/// The terrain's height in [0, 1] at (u, v) in [0, 1]² (v = 0 at the south edge).
fn height(u: f64, v: f64) -> f64 {
    let hill = |cu: f64, cv: f64, r: f64| (-((u - cu).powi(2) + (v - cv).powi(2)) / (r * r)).exp();
    let valley = (-(v - 0.35 - 0.1 * (6.0 * u).sin()).powi(2) / 0.004).exp();
    let h = 0.35
        + 0.45 * hill(0.75, 0.75, 0.22)
        + 0.3 * hill(0.2, 0.8, 0.15)
        + 0.05 * (17.0 * u).sin() * (13.0 * v).cos()
        - 0.25 * valley;
    h.clamp(0.0, 1.0)
}

fn main() {
    let dir =
        std::env::args().nth(1).map_or_else(|| PathBuf::from("examples/scatter"), PathBuf::from);
    std::fs::create_dir_all(&dir).expect("output folder");
    let n = 256;
    let mut pixels = Vec::with_capacity(n * n);
    for row in 0..n {
        for col in 0..n {
            let (u, v) = ((col as f64 + 0.5) / n as f64, 1.0 - (row as f64 + 0.5) / n as f64);
            pixels.push((height(u, v) * 65535.0).round() as u16);
        }
    }
    let samples: Vec<u8> = pixels.iter().flat_map(|v| v.to_be_bytes()).collect();
    write_grey(&dir.join("height.png"), n, png::BitDepth::Sixteen, &samples);
    let m = 128;
    let mut wet = Vec::with_capacity(m * m);
    for row in 0..m {
        for col in 0..m {
            let (u, v) = ((col as f64 + 0.5) / m as f64, 1.0 - (row as f64 + 0.5) / m as f64);
            let w = (1.0 - 1.6 * height(u, v)).clamp(0.0, 1.0).powf(0.7);
            wet.push((w * 255.0).round() as u8);
        }
    }
    write_grey(&dir.join("wet.png"), m, png::BitDepth::Eight, &wet);
    println!("wrote {} and {}", dir.join("height.png").display(), dir.join("wet.png").display());
}

/// Writes an `n × n` grey PNG of the given sample depth (16-bit samples big-endian).
fn write_grey(path: &Path, n: usize, depth: png::BitDepth, samples: &[u8]) {
    let file = std::io::BufWriter::new(std::fs::File::create(path).expect("output file"));
    let mut encoder = png::Encoder::new(file, n as u32, n as u32);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(depth);
    let mut writer = encoder.write_header().expect("PNG header");
    writer.write_image_data(samples).expect("PNG data");
}
