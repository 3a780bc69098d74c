//! Fuzzing by structured mutation, on the stable toolchain: every reader (PNG, NPY, NPZ,
//! GeoJSON, OBJ, STL, PLY, JSON, CSV, scene TOML) and the command line's numeric arguments.
//!
//! Each reader target starts from valid inputs made here, mutates them (bytes: flips,
//! interesting integers and floats, cuts, copies, splices; text: numbers swapped for extreme
//! ones, lines dropped or doubled, brackets; PNG: header fields with their CRC fixed) and
//! feeds the result to what the command line does with such a file: read it, summarise it
//! (`inspect`), build the region or density field, and sample in it with a point limit. The
//! promise checked: no panic, every refusal one line, no hang (a watchdog), no huge
//! allocation (the cases run in a child process whose address space is capped at 8 GiB, so
//! that a reader that allocates what a file claims aborts on any machine), and a sampled set
//! that keeps its radius and stays in its region. The command-line target runs
//! the binary with extreme numbers and checks exit code 0 or 2, one line, no partial file,
//! and the sampled points' guarantee.
//!
//! Every input that ever failed is kept in `tests/fuzz-corpus/<target>/` and replayed first.
//! The run is deterministic: `POISSON_ND_FUZZ_SEED` (default 1) and `POISSON_ND_FUZZ_CASES`
//! (cases per reader target, default 250) and `POISSON_ND_FUZZ_CLI_CASES` (default 40) set
//! it; docs/fuzzing.md has the longer run. A failing input is saved under
//! `target/tmp/fuzz/failures/<target>/` for the corpus.

use experiments::io::{Attribute, PointData, PointFormat};
use experiments::shapes;
use poisson_nd::field::DensityMapping;
use poisson_nd::region::Region;
use poisson_nd::{Bridson, Domain, Point};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A case that runs longer than this is a hang: the watchdog saves it and aborts.
const HANG: Duration = Duration::from_secs(60);

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// SplitMix64: a small generator of our own, so that a seed means the same cases forever.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "0.5",
    "2",
    "255",
    "1e-300",
    "5e-324",
    "2.2250738585072014e-308",
    "1e300",
    "1.7976931348623157e308",
    "1e309",
    "-1e309",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "1e-100",
    "1e100",
    "1e-101",
    "1e101",
    "9007199254740993",
    "18446744073709551616",
    "4294967295",
    "4294967296",
    "2147483648",
    "-2147483649",
    "1e16",
    "0x10",
    "1e",
    ".",
    "",
    "99999999999999999999999",
    "1e-12",
    "3.3e-13",
    "65536",
    "20000",
];

const U32S: &[u32] =
    &[0, 1, 2, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0xFFFF, 0x1_0000, 20_000, 1 << 26, 8193];

const F64S: &[f64] = &[
    0.0,
    -0.0,
    1.0,
    -1.0,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    5e-324,
    1e-300,
    1e300,
    f64::MAX,
    f64::MIN_POSITIVE,
    1e-100,
    1e100,
    0.5,
];

const TOKENS: &[&str] =
    &["[", "]", "{", "}", "\"", ",", "\n", "-", "e", ":", "=", "[[[[[[[[[[[[[[[[", "#", "\\", "\0"];

/// The byte range of a number in `text` near `at`, if any.
fn number_near(text: &[u8], at: usize) -> Option<(usize, usize)> {
    let is_num = |b: u8| b.is_ascii_digit() || b"+-.eE".contains(&b);
    let start = (at..text.len()).find(|&i| text[i].is_ascii_digit())?;
    let mut lo = start;
    while lo > 0 && is_num(text[lo - 1]) {
        lo -= 1;
    }
    let mut hi = start;
    while hi < text.len() && is_num(text[hi]) {
        hi += 1;
    }
    Some((lo, hi))
}

/// One to four mutations of `bytes`; text-aware ones for text formats, chunk-aware ones for
/// PNG; `others` are seeds to splice from.
fn mutate(bytes: &mut Vec<u8>, rng: &mut Rng, kind: Kind, others: &[Vec<u8>]) {
    for _ in 0..1 + rng.below(4) {
        let len = bytes.len();
        let at = rng.below(len + 1);
        let choices = match kind {
            Kind::Text => 12,
            Kind::Binary => 9,
            Kind::Png => 10,
        };
        match rng.below(choices) {
            0 if len > 0 => bytes[at.min(len - 1)] ^= 1 << rng.below(8),
            1 if len > 0 => bytes[at.min(len - 1)] = *rng.pick(&[0, 0xFF, 0x7F, 0x80, b'0']),
            2 if len >= 4 => {
                let v = *rng.pick(U32S);
                let word = if rng.below(2) == 0 { v.to_le_bytes() } else { v.to_be_bytes() };
                let at = at.min(len - 4);
                bytes[at..at + 4].copy_from_slice(&word);
            }
            3 if len >= 8 => {
                let at = at.min(len - 8);
                bytes[at..at + 8].copy_from_slice(&rng.pick(F64S).to_le_bytes());
            }
            4 => {
                let end = (at + 1 + rng.below(16)).min(len);
                bytes.drain(at.min(end)..end);
            }
            5 => {
                let end = (at + 1 + rng.below(64)).min(len);
                let copy = bytes[at.min(end)..end].to_vec();
                let to = rng.below(len + 1);
                bytes.splice(to..to, copy);
            }
            6 => {
                let noise: Vec<u8> = (0..1 + rng.below(8)).map(|_| rng.next() as u8).collect();
                bytes.splice(at..at, noise);
            }
            7 => bytes.truncate(at),
            8 => {
                let other = rng.pick(others);
                let from = rng.below(other.len() + 1);
                bytes.truncate(at);
                bytes.extend_from_slice(&other[from..]);
            }
            9 if kind == Kind::Png => png_header_mutation(bytes, rng),
            9 => {
                if let Some((lo, hi)) = number_near(bytes, at) {
                    bytes.splice(lo..hi, rng.pick(NUMBERS).bytes());
                }
            }
            10 => {
                let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
                let k = rng.below(lines.len());
                let mut out: Vec<Vec<u8>> = lines.iter().map(|l| l.to_vec()).collect();
                if rng.below(2) == 0 {
                    out.remove(k);
                } else {
                    out.insert(k, lines[k].to_vec());
                }
                *bytes = out.join(&b'\n');
            }
            11 => {
                bytes.splice(at..at, rng.pick(TOKENS).bytes());
            }
            _ => {}
        }
    }
}

/// Sets a field of the PNG header (width, height, bit depth, colour type) to an extreme value
/// and fixes the chunk's CRC, so that the decoder reads past the checksum.
fn png_header_mutation(bytes: &mut [u8], rng: &mut Rng) {
    if bytes.len() < 33 || &bytes[12..16] != b"IHDR" {
        return;
    }
    match rng.below(3) {
        0 => bytes[16..20].copy_from_slice(&rng.pick(U32S).to_be_bytes()),
        1 => bytes[20..24].copy_from_slice(&rng.pick(U32S).to_be_bytes()),
        _ => bytes[24 + rng.below(3)] = *rng.pick(&[0, 1, 2, 3, 4, 6, 8, 16, 255]),
    }
    let crc = crate::input_readers::crc32(&bytes[12..29]);
    bytes[29..33].copy_from_slice(&crc.to_be_bytes());
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text,
    Binary,
    Png,
}

/// A reader target: its corpus folder, file extension, seeds and what the command line does
/// with such a file. `check` returns the refusals met (each must be one line) and panics
/// (caught) or returns a broken guarantee as `Err`.
struct Target {
    name: &'static str,
    ext: &'static str,
    kind: Kind,
    seeds: fn() -> Vec<Vec<u8>>,
    check: fn(&Path) -> Result<Vec<String>, String>,
}

const TARGETS: &[Target] = &[
    Target { name: "png", ext: "png", kind: Kind::Png, seeds: png_seeds, check: check_picture },
    Target { name: "npy", ext: "npy", kind: Kind::Binary, seeds: npy_seeds, check: check_array },
    Target { name: "npz", ext: "npz", kind: Kind::Binary, seeds: npz_seeds, check: check_points },
    Target { name: "ply", ext: "ply", kind: Kind::Binary, seeds: ply_seeds, check: check_points },
    Target { name: "json", ext: "json", kind: Kind::Text, seeds: json_seeds, check: check_points },
    Target { name: "csv", ext: "csv", kind: Kind::Text, seeds: csv_seeds, check: check_points },
    Target {
        name: "geojson",
        ext: "geojson",
        kind: Kind::Text,
        seeds: geojson_seeds,
        check: check_polygons,
    },
    Target { name: "obj", ext: "obj", kind: Kind::Text, seeds: obj_seeds, check: check_mesh },
    Target { name: "stl", ext: "stl", kind: Kind::Binary, seeds: stl_seeds, check: check_mesh },
    Target { name: "scene", ext: "toml", kind: Kind::Text, seeds: scene_seeds, check: check_scene },
];

// ---------------------------------------------------------------------------------------
// Seeds: small valid inputs of every kind.

/// Points in 2D (one coordinate subnormal) and 3D with a radius column, in `format` (NPY
/// holds the points only).
fn encoded(format: PointFormat) -> Vec<Vec<u8>> {
    let radii = vec![0.05, 0.1, 0.07, 0.02];
    let mut d2 = PointData::new(vec![[0.1, 0.2], [0.7, 0.4], [0.35, 0.9], [0.5, 5e-324]]);
    let mut d3 = PointData::new(vec![[0.1, 0.2, 0.3], [0.7, 0.4, 0.1], [0.35, 0.9, 0.6]]);
    if format != PointFormat::Npy {
        d2.attributes.push(Attribute { name: "radius".into(), values: radii.clone() });
        d3.attributes.push(Attribute { name: "radius".into(), values: radii[..3].to_vec() });
    }
    let mut two = Vec::new();
    experiments::io::encode(format, &mut two, &d2).unwrap();
    let mut three = Vec::new();
    experiments::io::encode(format, &mut three, &d3).unwrap();
    vec![two, three]
}

fn npz_seeds() -> Vec<Vec<u8>> {
    encoded(PointFormat::Npz)
}
fn ply_seeds() -> Vec<Vec<u8>> {
    encoded(PointFormat::Ply)
}
fn json_seeds() -> Vec<Vec<u8>> {
    encoded(PointFormat::Json)
}
fn csv_seeds() -> Vec<Vec<u8>> {
    let mut seeds = encoded(PointFormat::Csv);
    seeds.push(b"0.1 0.2\n0.3\t0.4\n".to_vec());
    seeds
}

fn png_seeds() -> Vec<Vec<u8>> {
    use crate::pictures::{grey8, png8, png16};
    let grey16: Vec<u16> =
        (0..7u32).flat_map(|y| (0..9u32).map(move |x| (x * 7000 + y * 300) as u16)).collect();
    let rgb: Vec<u8> = (0..5u32)
        .flat_map(|y| (0..5u32).flat_map(move |x| [(x * 50) as u8, (y * 50) as u8, 255]))
        .collect();
    vec![
        grey8(16, 12, |x, y| (x * 13 + y * 7) as u8),
        png16(9, 7, png::ColorType::Grayscale, &grey16),
        png8(5, 5, png::ColorType::Rgb, &rgb),
    ]
}

/// An NPY file: `descr`, `shape`, raw data.
fn npy(descr: &str, shape: &[usize], data: &[u8]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
    let shape = if shape.len() == 1 { format!("{},", dims[0]) } else { dims.join(", ") };
    let mut header =
        format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': ({shape}), }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

fn npy_seeds() -> Vec<Vec<u8>> {
    let f64s = |n: usize| -> Vec<u8> {
        (0..n).flat_map(|i| ((i % 7) as f64 / 6.0).to_le_bytes()).collect()
    };
    vec![
        npy("<f8", &[8, 6], &f64s(48)),
        npy("<f8", &[4, 3, 5], &f64s(60)),
        npy("|b1", &[5, 4], &[1, 0, 1, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1]),
        npy("|u1", &[3, 3], &[0, 1, 1, 1, 1, 0, 1, 1, 1]),
        npy("<f8", &[4, 2], &f64s(8)),
    ]
}

fn geojson_seeds() -> Vec<Vec<u8>> {
    let lake =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/data/lake.geojson"))
            .unwrap();
    vec![
        lake,
        br#"{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,3],[0,3],[0,0]],[[1,1],[2,1],[2,2],[1,1]]]}"#
            .to_vec(),
        br#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[0,1],[0,0]]],[[[2,2],[3,2],[3,3],[2,2]]]]}}]}"#
            .to_vec(),
    ]
}

fn obj_seeds() -> Vec<Vec<u8>> {
    let octahedron = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/data/octahedron.obj"),
    )
    .unwrap();
    let tetra = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
    vec![octahedron, tetra.to_vec()]
}

/// A tetrahedron, outward faces, as ASCII and binary STL.
fn stl_seeds() -> Vec<Vec<u8>> {
    let v = [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let faces = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
    let mut ascii = String::from("solid t\n");
    let mut binary = vec![0u8; 80];
    binary.extend_from_slice(&(faces.len() as u32).to_le_bytes());
    for f in faces {
        ascii.push_str(" facet normal 0 0 0\n  outer loop\n");
        binary.extend_from_slice(&[0u8; 12]);
        for k in f {
            let [x, y, z] = v[k];
            ascii.push_str(&format!("   vertex {x} {y} {z}\n"));
            for c in v[k] {
                binary.extend_from_slice(&c.to_le_bytes());
            }
        }
        ascii.push_str("  endloop\n endfacet\n");
        binary.extend_from_slice(&[0, 0]);
    }
    ascii.push_str("endsolid t\n");
    vec![ascii.into_bytes(), binary]
}

fn scene_seeds() -> Vec<Vec<u8>> {
    // The command line tests' scene, with and without its heightmap.
    let scene = crate::scatter_cli::SCENE;
    vec![scene.as_bytes().to_vec(), scene.replace("heightmap = \"height.png\"\n", "").into_bytes()]
}

// ---------------------------------------------------------------------------------------
// Checks: what the command line does with each kind of file.

fn refusals(results: impl IntoIterator<Item = Result<(), String>>) -> Vec<String> {
    results.into_iter().filter_map(Result::err).collect()
}

/// The region in the file at `path`, as the command line reads it, sampled with a point
/// limit: the points must keep the radius and lie inside (else the outer `Err`). The inner
/// result is the refusal, if any.
fn sampled_region<const D: usize>(
    path: &Path,
    domain: Option<&Domain<D>>,
) -> Result<Result<(), String>, String> {
    let input = match shapes::region::<D>(path, domain) {
        Ok(input) => input,
        Err(refusal) => return Ok(Err(refusal)),
    };
    let domain = input.domain;
    let side = domain.extent().iter().copied().fold(f64::INFINITY, f64::min);
    let r = 0.05 * side;
    let region = input.region;
    let sampler = match Bridson::builder(domain, r)
        .with_region(region.clone())
        .with_max_points(400)
        .build()
    {
        Ok(sampler) => sampler,
        Err(e) => return Ok(Err(e.to_string())),
    };
    let set = poisson_nd::FillSampler::fill_seeded(&sampler, 3);
    kept(&set.points, &domain, r, |p| region.contains(p))?;
    Ok(Ok(()))
}

/// The guarantee of a radius-driven set: inside, and no pair closer than `r`.
fn kept<const D: usize>(
    points: &[Point<D>],
    domain: &Domain<D>,
    r: f64,
    inside: impl Fn(&Point<D>) -> bool,
) -> Result<(), String> {
    if let Some(p) = points.iter().find(|p| !domain.contains(p) || !inside(p)) {
        return Err(format!("a sampled point lies outside: {p:?}"));
    }
    let closest = testkit::oracle::min_pair_distance(domain, points);
    if closest < r * (1.0 - 1e-12) {
        return Err(format!("closest pair {closest:e} < radius {r:e}"));
    }
    Ok(())
}

fn check_picture(path: &Path) -> Result<Vec<String>, String> {
    let unit = Domain::<2>::unit();
    let summary = experiments::inspect::summarise(path).map(|_| ());
    let region = sampled_region::<2>(path, Some(&unit))?;
    let density =
        shapes::density_field::<2>(path, &unit, 0.03, 0.1, DensityMapping::Lerp).map(|_| ());
    Ok(refusals([summary, region, density]))
}

fn check_array(path: &Path) -> Result<Vec<String>, String> {
    let unit2 = Domain::<2>::unit();
    let unit3 = Domain::<3>::unit();
    let summary = experiments::inspect::summarise(path).map(|_| ());
    let region2 = sampled_region::<2>(path, Some(&unit2))?;
    let region3 = sampled_region::<3>(path, Some(&unit3))?;
    let density =
        shapes::density_field::<2>(path, &unit2, 0.03, 0.1, DensityMapping::Inverse).map(|_| ());
    let mut out = refusals([summary, region2, region3, density]);
    out.extend(check_points(path)?);
    Ok(out)
}

fn check_points(path: &Path) -> Result<Vec<String>, String> {
    let format = PointFormat::from_path(path).map_err(|e| format!("no format: {e}"))?;
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let two = experiments::io::decode::<2>(format, bytes.as_slice(), &["radius"]).map(|_| ());
    let three = experiments::io::decode::<3>(format, bytes.as_slice(), &["radius"]).map(|_| ());
    Ok(refusals([two, three].map(|r| r.map_err(|e| e.to_string()))))
}

fn check_polygons(path: &Path) -> Result<Vec<String>, String> {
    let summary = experiments::inspect::summarise(path).map(|_| ());
    let region = sampled_region::<2>(path, None)?;
    Ok(refusals([summary, region]))
}

fn check_mesh(path: &Path) -> Result<Vec<String>, String> {
    let summary = experiments::inspect::summarise(path).map(|_| ());
    let region = sampled_region::<3>(path, None)?;
    Ok(refusals([summary, region]))
}

fn check_scene(path: &Path) -> Result<Vec<String>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(_) => return Ok(Vec::new()), // not UTF-8: the command says so, as the reader
    };
    let base = path.parent().unwrap();
    Ok(refusals([experiments::scatter::scene::parse(&text, "scene.toml", base, None).map(|_| ())]))
}

// ---------------------------------------------------------------------------------------
// The harness.

fn fuzz_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fuzz")
}

/// The case each running target is on, for the watchdog.
static RUNNING: Mutex<Vec<(Instant, PathBuf)>> = Mutex::new(Vec::new());

/// Starts the watchdog once: a case running past [`HANG`] is copied to the failures and the
/// process aborts, since a hung thread cannot be stopped.
fn watchdog() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        std::thread::spawn(|| {
            loop {
                std::thread::sleep(Duration::from_millis(500));
                let running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
                for (start, path) in running.iter() {
                    if start.elapsed() > HANG {
                        let saved = save_failure(path);
                        eprintln!(
                            "fuzz: {} ran past {HANG:?} (a hang); saved as {}",
                            path.display(),
                            saved.display()
                        );
                        std::process::abort();
                    }
                }
            }
        });
    });
}

/// Copies a failing input to `target/tmp/fuzz/failures/<target>/<hash>.<ext>`.
fn save_failure(path: &Path) -> PathBuf {
    let bytes = std::fs::read(path).unwrap_or_default();
    let target = path.parent().and_then(|p| p.file_name()).unwrap_or_default();
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("bin");
    let dir = fuzz_dir().join("failures").join(target);
    let _ = std::fs::create_dir_all(&dir);
    let saved = dir.join(format!("{:016x}.{ext}", fnv(&bytes)));
    let _ = std::fs::write(&saved, &bytes);
    saved
}

/// Runs one input; `Some(problem)` when it breaks the promise. The input is written to
/// `current.<ext>` first, so that an abort leaves it behind.
fn run_case(target: &Target, bytes: &[u8]) -> Option<String> {
    let dir = fuzz_dir().join(target.name);
    std::fs::create_dir_all(&dir).unwrap();
    if target.name == "scene" {
        write_scene_inputs(&dir);
    }
    let path = dir.join(format!("current.{}", target.ext));
    std::fs::write(&path, bytes).unwrap();
    watchdog();
    RUNNING.lock().unwrap().push((Instant::now(), path.clone()));
    let result = catch_unwind(AssertUnwindSafe(|| (target.check)(&path)));
    RUNNING.lock().unwrap().retain(|(_, p)| p != &path);
    let problem = match result {
        Err(panic) => {
            let text = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Some(format!("panicked: {text}"))
        }
        Ok(Err(broken)) => Some(broken),
        Ok(Ok(messages)) => messages
            .into_iter()
            .find(|m| m.trim().is_empty() || m.contains('\n'))
            .map(|m| format!("a refusal that is not one line: {m:?}")),
    };
    problem.map(|p| format!("{}: {p} (saved as {})", target.name, save_failure(&path).display()))
}

/// The scene's pictures, beside it (the command line tests' own).
fn write_scene_inputs(dir: &Path) {
    if !dir.join("height.png").exists() {
        crate::scatter_cli::write_inputs(dir);
    }
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-corpus")
}

/// Address space of the child processes that run the cases, in KiB (8 GiB).
const ADDRESS_SPACE_KIB: u64 = 8 << 20;

/// Runs `test`, a test of this binary, in a child process whose address space is capped (a
/// huge allocation then fails and aborts it), and fails with the child's output if it fails.
fn in_capped_child(test: &str) {
    let exe = std::env::current_exe().unwrap();
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {ADDRESS_SPACE_KIB} && exec \"$0\" \"$@\""))
        .arg(exe)
        .args([test, "--exact", "--include-ignored", "--nocapture", "--test-threads", "1"])
        .output()
        .unwrap();
    let text = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes).into_owned();
        let tail: Vec<&str> = text.lines().rev().take(40).collect();
        tail.into_iter().rev().collect::<Vec<_>>().join("\n")
    };
    assert!(
        output.status.success() && String::from_utf8_lossy(&output.stdout).contains("1 passed"),
        "{test} failed in its child ({:?}); the input it was on is target/tmp/fuzz/<target>/current.*\n{}\n{}",
        output.status,
        text(&output.stdout),
        text(&output.stderr)
    );
}

/// Every input that ever failed, replayed (in a child with capped memory).
#[test]
fn fuzz_corpus_replays() {
    in_capped_child("fuzz::corpus_in_child");
}

/// The bounded run: every reader target, `POISSON_ND_FUZZ_CASES` mutated inputs each (in a
/// child with capped memory).
#[test]
fn fuzz_readers() {
    in_capped_child("fuzz::readers_in_child");
}

#[test]
#[ignore = "run by fuzz_corpus_replays, in a child process with capped memory"]
fn corpus_in_child() {
    let mut problems = Vec::new();
    let mut replayed = 0;
    for target in TARGETS {
        let Ok(entries) = std::fs::read_dir(corpus_dir().join(target.name)) else { continue };
        let mut files: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        files.sort();
        for file in files {
            replayed += 1;
            problems.extend(run_case(target, &std::fs::read(&file).unwrap()));
        }
    }
    assert!(replayed >= 10, "the corpus holds {replayed} inputs");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
#[ignore = "run by fuzz_readers, in a child process with capped memory"]
fn readers_in_child() {
    let seed = env_number("POISSON_ND_FUZZ_SEED", 1);
    let cases = env_number("POISSON_ND_FUZZ_CASES", 250) as usize;
    let mut problems = Vec::new();
    for target in TARGETS {
        let seeds = (target.seeds)();
        for bytes in &seeds {
            problems.extend(run_case(target, bytes));
        }
        let mut rng = Rng(seed ^ fnv(target.name.as_bytes()));
        for _ in 0..cases {
            let mut bytes = rng.pick(&seeds).clone();
            mutate(&mut bytes, &mut rng, target.kind, &seeds);
            problems.extend(run_case(target, &bytes));
        }
    }
    assert!(problems.is_empty(), "{} failing inputs:\n{}", problems.len(), problems.join("\n"));
}

/// A command line with extreme numbers: `sample` (every sampler), `world` and `analyze`.
/// Returns the arguments, the output file, and for `sample`, what its points promise.
fn command_line(rng: &mut Rng, dir: &Path) -> (Vec<String>, PathBuf, Option<Promise>) {
    const LENGTHS: &[&str] = &[
        "1", "0.05", "0.01", "1e-5", "1e-100", "1e-101", "1e100", "1e101", "5e-324", "1e-300",
        "1e300", "1e308", "inf", "nan", "0", "-0", "-1", "2.5e-13", "1e16", "1e-12", "3",
    ];
    const COUNTS: &[&str] =
        &["0", "1", "2", "100", "1000", "4294967296", "18446744073709551615", "-1", "1e3", "3000"];
    const SAMPLERS: &[(&str, bool)] = &[
        ("bridson", true),
        ("dart-throwing", true),
        ("maximal", true),
        ("chunked-bridson", true),
        ("sample-elimination", false),
        ("best-candidate", false),
        ("halton", false),
        ("jittered-grid", false),
        ("white-noise", false),
    ];
    let dim = 1 + rng.below(3);
    let list = |rng: &mut Rng, values: &[&str]| {
        (0..dim).map(|_| rng.pick(values).to_string()).collect::<Vec<_>>().join(",")
    };
    let out = dir.join(format!("out-{}.csv", rng.next() % 1_000_000));
    let mut args: Vec<String> = Vec::new();
    let mut promise = None;
    match rng.below(5) {
        0..=2 => {
            let (sampler, radius_driven) = *rng.pick(SAMPLERS);
            args.extend(["sample".into(), sampler.into(), "--dim".into(), dim.to_string()]);
            let extent =
                if rng.below(3) == 0 { list(rng, LENGTHS) } else { vec!["1"; dim].join(",") };
            args.extend(["--box".into(), extent.clone()]);
            let origin = if rng.below(3) == 0 { Some(list(rng, LENGTHS)) } else { None };
            if let Some(origin) = &origin {
                args.extend(["--origin".into(), format!("-{}", origin.replace(',', ",-"))]);
            }
            let periodic = rng.below(4) == 0;
            if periodic {
                args.push("--periodic".into());
            }
            let value = if radius_driven { rng.pick(LENGTHS) } else { rng.pick(COUNTS) };
            args.extend([if radius_driven { "--radius" } else { "--n" }.into(), value.to_string()]);
            args.extend(["--max-points".into(), rng.pick(&["3000", "1", "0"]).to_string()]);
            args.extend(["--seed".into(), rng.pick(COUNTS).to_string()]);
            // A jittered grid makes the largest grid of at most n cells.
            let exact = sampler != "jittered-grid";
            promise =
                Some(Promise { dim, radius_driven, periodic, exact, value: value.to_string() });
        }
        3 => {
            args.extend(["world".into(), "--dim".into(), dim.to_string()]);
            args.extend(["--radius".into(), rng.pick(LENGTHS).to_string()]);
            if rng.below(2) == 0 {
                args.extend(["--chunk-side".into(), rng.pick(LENGTHS).to_string()]);
            }
            let lo = list(rng, &["0", "-1", "-9223372036854775808", "4294967296"]);
            let hi = list(rng, &["1", "2", "9223372036854775807", "-5"]);
            args.extend(["--range".into(), format!("{lo}:{hi}")]);
            args.extend(["--max-points".into(), rng.pick(&["2000", "1"]).to_string()]);
            args.extend(["--max-chunks".into(), "64".into()]);
        }
        _ => {
            let points = dir.join("points.csv");
            if !points.exists() {
                std::fs::write(&points, "0.1,0.2\n0.5,0.5\n0.5,0.5\n0.9,0.3\n").unwrap();
            }
            args.extend([
                "analyze".into(),
                points.display().to_string(),
                "--dim".into(),
                "2".into(),
            ]);
            args.extend(["--radius".into(), rng.pick(LENGTHS).to_string()]);
            args.extend(["--box".into(), format!("{},{}", rng.pick(LENGTHS), rng.pick(LENGTHS))]);
            args.extend(["--probes".into(), rng.pick(&["1000", "0", "4294967296"]).to_string()]);
            let references = rng.pick(&["2", "0", "4294967296"]).to_string();
            args.extend(["--reference-realisations".into(), references]);
            args.extend([
                "--bins".into(),
                rng.pick(&["20", "0", "18446744073709551615"]).to_string(),
            ]);
            if rng.below(3) == 0 {
                args.extend(["--spectrum-out".into(), out.display().to_string()]);
            }
            return (args, out, None);
        }
    }
    args.extend(["--out".into(), out.display().to_string()]);
    (args, out, promise)
}

/// Command lines that once failed (see [`fuzz_cli_numbers`]).
const CLI_REGRESSIONS: &[&str] = &[
    "sample bridson --dim 2 --box 1,1 --periodic --radius 1e16 --max-points 3000",
    "sample maximal --dim 1 --box 1 --radius 1e16 --max-points 1",
    "sample maximal --dim 2 --box 1,1 --radius 1e16 --max-points 3000",
    "sample sample-elimination --dim 3 --box 2.5e-13,1e16,1e100 --n 1000 --max-points 3000",
    "sample best-candidate --dim 1 --box 1 --n 4294967296 --max-points 1",
    "sample white-noise --dim 2 --box 1,1 --n 1000 --max-points 1",
    "analyze POINTS --dim 2 --radius 1 --box 1e100,1e16 --probes 4294967296",
];

/// What a `sample` run that exits 0 promises of its file.
struct Promise {
    dim: usize,
    radius_driven: bool,
    periodic: bool,
    /// Exactly n points (else at most n) for a count-driven sampler.
    exact: bool,
    value: String,
}

/// Runs the binary with `args` under the address-space cap, killed past [`HANG`].
fn run_capped(args: &[String]) -> Result<(i32, String), String> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {ADDRESS_SPACE_KIB} && exec \"$0\" \"$@\""))
        .arg(crate::EXE)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut stderr = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
            return Ok((status.code().unwrap_or(-1), stderr));
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            return Err(format!("ran past {HANG:?} (a hang)"));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Checks the points a `sample` run wrote against what it promised.
fn check_promise(out: &Path, promise: &Promise, args: &[String]) -> Result<(), String> {
    let text = std::fs::read_to_string(out).map_err(|e| format!("no output file: {e}"))?;
    let points = testkit::csv::csv_points(&text, promise.dim);
    let arg = |flag: &str| args.iter().position(|a| a == flag).map(|i| args[i + 1].clone());
    let numbers = |flag: &str| -> Vec<f64> {
        arg(flag).map_or(vec![], |v| v.split(',').map(|x| x.parse().unwrap()).collect())
    };
    let extent = numbers("--box");
    let origin = numbers("--origin");
    let origin = if origin.is_empty() { vec![0.0; promise.dim] } else { origin };
    fn check<const D: usize>(
        points: &[Vec<f64>],
        origin: &[f64],
        extent: &[f64],
        promise: &Promise,
    ) -> Result<(), String> {
        let domain = Domain::<D>::from_origin_and_extent(
            std::array::from_fn(|i| origin[i]),
            std::array::from_fn(|i| extent[i]),
        )
        .map_err(|e| format!("exit 0 for a box the library refuses: {e}"))?;
        let domain = if promise.periodic { domain.periodic() } else { domain };
        let points: Vec<Point<D>> = points.iter().map(|p| std::array::from_fn(|i| p[i])).collect();
        if promise.radius_driven {
            let r: f64 = promise.value.parse().unwrap();
            kept(&points, &domain, r, |_| true)
        } else {
            let n: usize = promise.value.parse().unwrap();
            if points.len() > n || (promise.exact && points.len() != n) {
                return Err(format!("{} points for --n {n}", points.len()));
            }
            kept(&points, &domain, 0.0, |_| true)
        }
    }
    match promise.dim {
        1 => check::<1>(&points, &origin, &extent, promise),
        2 => check::<2>(&points, &origin, &extent, promise),
        _ => check::<3>(&points, &origin, &extent, promise),
    }
}

/// The command line's numbers: exit 0 or 2, a refusal on one line with no file left behind,
/// no hang and no huge allocation, and a sampled file that keeps its promise.
#[test]
fn fuzz_cli_numbers() {
    let seed = env_number("POISSON_ND_FUZZ_SEED", 1);
    let cases = env_number("POISSON_ND_FUZZ_CLI_CASES", 40);
    let dir = fuzz_dir().join("cli");
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(seed ^ fnv(b"cli"));
    let mut problems = Vec::new();
    // Command lines that once failed, first: an allocation of 8-12 GiB for a radius far
    // beyond the box (Bridson on a torus, maximal sampling, sample elimination's lookup grid),
    // fewer points than --n, hours of coverage probes.
    let out = dir.join("regression.csv");
    let regressions: Vec<(Vec<String>, Option<Promise>)> = CLI_REGRESSIONS
        .iter()
        .map(|line| {
            let mut args: Vec<String> = line.split(' ').map(String::from).collect();
            let promise = (args[0] == "sample").then(|| {
                let radius_driven = ["bridson", "maximal"].contains(&args[1].as_str());
                let flag = if radius_driven { "--radius" } else { "--n" };
                let at = args.iter().position(|a| a == flag).unwrap();
                let dim =
                    args[args.iter().position(|a| a == "--dim").unwrap() + 1].parse().unwrap();
                let periodic = args.iter().any(|a| a == "--periodic");
                Promise { dim, radius_driven, periodic, exact: true, value: args[at + 1].clone() }
            });
            if args[0] == "analyze" {
                args[1] = dir.join("points.csv").display().to_string();
                std::fs::write(&args[1], "0.1,0.2\n0.5,0.5\n").unwrap();
            } else {
                args.extend(["--out".into(), out.display().to_string()]);
            }
            (args, promise)
        })
        .collect();
    let random = (0..cases).map(|_| {
        let (args, _, promise) = command_line(&mut rng, &dir);
        (args, promise)
    });
    for (args, promise) in regressions.into_iter().chain(random) {
        let out = args
            .iter()
            .position(|a| a == "--out")
            .map_or(out.clone(), |i| PathBuf::from(&args[i + 1]));
        let _ = std::fs::remove_file(&out);
        let problem = match run_capped(&args) {
            Err(hang) => Some(hang),
            Ok((2, stderr)) if stderr.lines().count() == 1 && stderr.starts_with("error: ") => {
                out.exists().then(|| "a refused run left its output file".to_string())
            }
            Ok((2, stderr)) => Some(format!("a refusal that is not one line: {stderr:?}")),
            Ok((0, _)) => promise.as_ref().and_then(|p| check_promise(&out, p, &args).err()),
            Ok((code, stderr)) => Some(format!("exit code {code}: {stderr}")),
        };
        let _ = std::fs::remove_file(&out);
        if let Some(problem) = problem {
            problems.push(format!("experiments {}: {problem}", args.join(" ")));
        }
    }
    assert!(
        problems.is_empty(),
        "{} failing command lines:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
