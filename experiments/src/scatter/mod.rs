//! `experiments scatter SCENE.toml --out DIR`: a world scatter from a scene file.
//!
//! Writes `DIR/instances.json`, `DIR/instances.gltf` with `DIR/instances.bin`, and
//! `DIR/preview.svg`, and prints one summary line per class on standard error (count, mean
//! nearest-neighbour distance, closest pair against the distance its rule asks) and the time
//! split (sampling, lifting, writing). Everything is checked and computed before the folder is
//! touched: a bad scene writes nothing; each file appears whole (written beside its name and
//! renamed).

pub mod meshes;
pub mod preview;
pub mod scene;

use crate::io::gltf::{self, InstancedMesh, StaticMesh};
use crate::io::write_atomically;
use crate::metrics::NeighbourIndex;
use poisson_nd::scatter::{Instance, Scatter, ScatterPoints};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `experiments scatter`.
#[derive(clap::Args, Debug, Clone)]
pub struct ScatterArgs {
    /// The scene file (TOML; see docs/formats.md, "Scatter scenes").
    pub scene: PathBuf,
    /// The folder the outputs go to (created if missing).
    #[arg(long = "out", id = "scatter_out")]
    pub out: PathBuf,
}

/// The file names written in the output folder.
pub const OUTPUTS: [&str; 4] = ["instances.json", "instances.gltf", "instances.bin", "preview.svg"];

/// Runs the command.
pub fn run(args: &ScatterArgs) -> Result<(), String> {
    crate::io::check_output_folder(&args.out, "--out")?;
    let bar = crate::progress::spinner("scatter");
    let scene = scene::load(&args.scene, Some(Box::new(crate::progress::hook(&bar))))?;
    let scatter = &scene.scatter;
    let start = Instant::now();
    let points =
        scatter.sample(scene.seed).map_err(|e| format!("{}: {e}", args.scene.display()))?;
    let sampled = start.elapsed();
    bar.finish_and_clear();
    let start = Instant::now();
    let instances = scatter.lift(&points, scene.seed);
    let lifted = start.elapsed();
    let start = Instant::now();
    let files = render(&scene, &instances)?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    for (name, bytes) in OUTPUTS.iter().zip(&files) {
        let path = args.out.join(name);
        write_atomically(&path, bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let written = start.elapsed();
    for line in summary(scatter, &points) {
        eprintln!("{line}");
    }
    eprintln!(
        "{} instances in {}: sampled in {:.3} s, lifted in {:.3} s, written in {:.3} s",
        instances.len(),
        args.out.display(),
        sampled.as_secs_f64(),
        lifted.as_secs_f64(),
        written.as_secs_f64()
    );
    Ok(())
}

/// The bytes of every output file, in the order of [`OUTPUTS`].
pub fn render(scene: &scene::Scene, instances: &[Instance]) -> Result<Vec<Vec<u8>>, String> {
    let scatter = &scene.scatter;
    let names: Vec<String> = scatter.classes().iter().map(|c| c.name().to_string()).collect();
    let json = instances_json(&names, instances);
    let (gltf_text, bin) = gltf_scene(scene, instances)?;
    let svg = preview::render(scatter.terrain(), &names, instances)?;
    Ok(vec![json.into_bytes(), gltf_text.into_bytes(), bin, svg.into_bytes()])
}

/// `{"classes": [...], "instances": [{"class", "position", "rotation", "scale", "radius"}, ...]}`,
/// one instance per line, numbers in their shortest round-trip form.
pub fn instances_json(names: &[String], instances: &[Instance]) -> String {
    let mut out = String::with_capacity(64 + instances.len() * 160);
    out.push_str("{\"classes\": ");
    out.push_str(&serde_json::to_string(names).unwrap_or_default());
    out.push_str(",\n\"instances\": [");
    for (i, inst) in instances.iter().enumerate() {
        let value = serde_json::json!({
            "class": names.get(inst.class).map_or("", String::as_str),
            "position": inst.position,
            "rotation": inst.rotation,
            "scale": inst.scale,
            "radius": inst.radius,
        });
        out.push_str(if i == 0 { "\n" } else { ",\n" });
        out.push_str(&value.to_string());
    }
    out.push_str("\n]}\n");
    out
}

/// The glTF text and its buffer (see [`meshes`] for the frame).
pub fn gltf_scene(
    scene: &scene::Scene,
    instances: &[Instance],
) -> Result<(String, Vec<u8>), String> {
    let scatter = &scene.scatter;
    let terrain = StaticMesh {
        name: "terrain".into(),
        color: [0.45, 0.42, 0.33],
        mesh: meshes::terrain_mesh(scatter.terrain()),
    };
    let mut classes: Vec<InstancedMesh> = scatter
        .classes()
        .iter()
        .zip(&scene.meshes)
        .enumerate()
        .map(|(i, (class, &kind))| {
            let [r, g, b] = preview::colour(i).map(srgb_to_linear);
            InstancedMesh {
                name: class.name().to_string(),
                color: [r, g, b],
                mesh: meshes::placeholder(kind, class.radius_bounds().0),
                translations: Vec::new(),
                rotations: Vec::new(),
                scales: Vec::new(),
            }
        })
        .collect();
    for inst in instances {
        let class = &mut classes[inst.class];
        class.translations.push(meshes::to_gltf_point(inst.position));
        class.rotations.push(meshes::to_gltf_rotation(inst.rotation));
        class.scales.push([inst.scale as f32; 3]);
    }
    gltf::encode(&[terrain], &classes, "instances.bin").map_err(|e| format!("glTF: {e}"))
}

fn srgb_to_linear(c: u8) -> f32 {
    let c = f32::from(c) / 255.0;
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

/// One line per class: count, mean nearest-neighbour distance within the class, and the
/// closest pair of the class against the distance its rule asks of that pair.
pub fn summary(scatter: &Scatter, points: &ScatterPoints) -> Vec<String> {
    let domain = scatter.domain();
    points
        .classes
        .iter()
        .enumerate()
        .map(|(c, set)| {
            let n = set.points.len();
            if n < 2 {
                return format!("{}: {n} instance{}", set.name, if n == 1 { "" } else { "s" });
            }
            let index = NeighbourIndex::new(&set.points, domain);
            let mut sum = 0.0;
            let (mut closest, mut rule_there, mut worst) = (f64::INFINITY, 0.0, f64::INFINITY);
            // Past the largest radius, so that the closest pair is found even where the rule
            // holds with room to spare.
            let rmax = 1.5 * set.radii.iter().copied().fold(0.0, f64::max);
            for i in 0..n {
                if let Some((_, d)) = index.nearest_other(i) {
                    sum += d;
                }
                // Every pair closer than the largest radius, against its own rule.
                index.for_each_within(&set.points[i], rmax, |j, d2| {
                    if j != i {
                        let d = d2.sqrt();
                        let need = scatter.required_distance(c, set.radii[i], c, set.radii[j]);
                        if d / need < worst {
                            worst = d / need;
                        }
                        if d < closest {
                            closest = d;
                            rule_there = need;
                        }
                    }
                });
            }
            let (closest, ratio) = if closest.is_finite() {
                (format!("{closest:.3} m (its rule {rule_there:.3} m)"), format!("{worst:.4}"))
            } else {
                (format!("> {rmax:.3} m"), "> 1".to_string())
            };
            format!(
                "{}: {n} instances, mean NN distance {:.3} m, closest pair {closest}, smallest distance/rule {ratio}",
                set.name,
                sum / n as f64,
            )
        })
        .collect()
}

/// The output files of a folder, for tests: which of [`OUTPUTS`] exist.
pub fn existing_outputs(dir: &Path) -> Vec<&'static str> {
    OUTPUTS.iter().copied().filter(|name| dir.join(name).exists()).collect()
}
