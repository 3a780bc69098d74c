//! `experiments scatter` through the binary: the outputs (JSON keys, glTF structure and a
//! round trip through the `gltf` reader, preview), byte-identical files for one seed, and
//! every scene error: exit code 2, one line, nothing written.

use npyz::WriterBuilder;
use std::path::{Path, PathBuf};
use std::process::Output;

fn run(args: &[&str]) -> Output {
    crate::experiments(&[&["scatter"], args].concat())
}

/// A 16-bit heightmap (a ramp north-east plus a bump) and an 8-bit wetness map.
pub(crate) fn write_inputs(dir: &Path) {
    let n = 32u32;
    let height: Vec<u16> = (0..n * n)
        .map(|i| {
            let (c, r) = ((i % n) as f64 / n as f64, (i / n) as f64 / n as f64);
            let v = 0.3 + 0.3 * c + 0.2 * (1.0 - r) + 0.15 * (6.0 * c).sin() * (4.0 * r).cos();
            (v.clamp(0.0, 1.0) * 65535.0) as u16
        })
        .collect();
    let height = crate::pictures::png16(n, n, png::ColorType::Grayscale, &height);
    std::fs::write(dir.join("height.png"), height).unwrap();
    let wet: Vec<u8> = (0..16 * 16).map(|i| ((i % 16) * 17) as u8).collect();
    std::fs::write(
        dir.join("wet.png"),
        crate::pictures::png8(16, 16, png::ColorType::Grayscale, &wet),
    )
    .unwrap();
}

pub(crate) const SCENE: &str = r#"
seed = 7
[terrain]
heightmap = "height.png"
size = [200.0, 150.0]
height_scale = 40.0
[[class]]
name = "tree"
radius = [5.0, 10.0]
density = "wet.png"
max_slope = 30.0
align = 0.0
scale = [0.8, 1.3]
[[class]]
name = "rock"
radius = 4.0
align = 1.0
min_slope = 5.0
scale = [0.5, 1.5]
mesh = "box"
[[class]]
name = "shrub"
radius = 2.0
max_height = 35.0
slope_radius = 0.5
align = 0.5
[distances]
"tree-rock" = 6.0
"#;

/// A folder with the inputs and `scene.toml` holding `scene`.
fn setup(scene: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    write_inputs(dir.path());
    let path = dir.path().join("scene.toml");
    std::fs::write(&path, scene).unwrap();
    (dir, path)
}

#[test]
fn a_scene_gives_json_gltf_and_preview() {
    let (dir, scene) = setup(SCENE);
    let out = dir.path().join("out");
    let output = run(&[scene.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    // One summary line per class, then the time split.
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 4, "{stderr}");
    for (line, name) in lines.iter().zip(["tree", "rock", "shrub"]) {
        assert!(
            line.starts_with(&format!("{name}: ")) && line.contains("mean NN distance"),
            "{line}"
        );
    }
    assert!(lines[3].contains("sampled in") && lines[3].contains("written in"));

    // JSON: exactly the keys of the format.
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("instances.json")).unwrap()).unwrap();
    assert_eq!(json["classes"], serde_json::json!(["tree", "rock", "shrub"]));
    let instances = json["instances"].as_array().unwrap();
    let mut counts = [0usize; 3];
    for inst in instances {
        let keys: Vec<&String> = inst.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["class", "position", "radius", "rotation", "scale"]);
        let class = ["tree", "rock", "shrub"].iter().position(|c| inst["class"] == *c).unwrap();
        counts[class] += 1;
        assert_eq!(inst["position"].as_array().unwrap().len(), 3);
        let q: Vec<f64> =
            inst["rotation"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        assert!((q.iter().map(|v| v * v).sum::<f64>().sqrt() - 1.0).abs() < 1e-12);
        let s = inst["scale"].as_f64().unwrap();
        match class {
            0 => assert!((0.8..=1.3).contains(&s)),
            1 => assert!((0.5..=1.5).contains(&s)),
            _ => assert_eq!(s, 1.0),
        }
    }
    assert!(counts.iter().all(|&n| n > 3), "{counts:?}");

    // glTF: structure checked by hand on the JSON.
    let gltf_text = std::fs::read(out.join("instances.gltf")).unwrap();
    let bin = std::fs::read(out.join("instances.bin")).unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&gltf_text).unwrap();
    assert_eq!(doc["asset"]["version"], "2.0");
    assert_eq!(doc["extensionsUsed"], serde_json::json!(["EXT_mesh_gpu_instancing"]));
    assert_eq!(doc["buffers"][0]["byteLength"].as_u64().unwrap() as usize, bin.len());
    assert_eq!(doc["buffers"][0]["uri"], "instances.bin");
    for view in doc["bufferViews"].as_array().unwrap() {
        let (offset, length) =
            (view["byteOffset"].as_u64().unwrap(), view["byteLength"].as_u64().unwrap());
        assert!(offset % 4 == 0 && (offset + length) as usize <= bin.len());
    }
    let accessors = doc["accessors"].as_array().unwrap();
    for accessor in accessors {
        let view = &doc["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
        let width = match accessor["type"].as_str().unwrap() {
            "SCALAR" => 1,
            "VEC3" => 3,
            "VEC4" => 4,
            other => panic!("{other}"),
        };
        let needed = accessor["count"].as_u64().unwrap() * width * 4;
        assert_eq!(view["byteLength"].as_u64().unwrap(), needed);
    }
    let nodes = doc["nodes"].as_array().unwrap();
    assert_eq!(nodes[0]["name"], "terrain");
    for (c, name) in ["tree", "rock", "shrub"].iter().enumerate() {
        let node = nodes.iter().find(|n| n["name"] == *name).unwrap();
        let attributes = &node["extensions"]["EXT_mesh_gpu_instancing"]["attributes"];
        for (key, kind) in [("TRANSLATION", "VEC3"), ("ROTATION", "VEC4"), ("SCALE", "VEC3")] {
            let accessor = &accessors[attributes[key].as_u64().unwrap() as usize];
            assert_eq!(accessor["count"].as_u64().unwrap() as usize, counts[c], "{name} {key}");
            assert_eq!(accessor["type"], kind);
            assert_eq!(accessor["componentType"], 5126);
        }
        assert!(node["mesh"].is_u64());
    }

    // Round trip through the gltf crate: the same nodes, and the translations read back from
    // the buffer are the JSON positions in glTF's frame (x, y, -z), to f32 precision.
    let gltf = gltf::Gltf::from_slice(&gltf_text).unwrap();
    let document = &gltf.document;
    assert!(document.extensions_used().any(|e| e == "EXT_mesh_gpu_instancing"));
    assert_eq!(document.buffers().next().unwrap().length(), bin.len());
    let read_f32s = |index: usize| -> Vec<f32> {
        let accessor = document.accessors().nth(index).unwrap();
        let view = accessor.view().unwrap();
        let start = view.offset() + accessor.offset();
        let len = accessor.count() * accessor.size();
        bin[start..start + len]
            .chunks(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect()
    };
    for (c, name) in ["tree", "rock", "shrub"].iter().enumerate() {
        let node = document.nodes().find(|n| n.name() == Some(name)).unwrap();
        assert!(node.mesh().is_some());
        let ext = node.extension_value("EXT_mesh_gpu_instancing").unwrap();
        let index = |key: &str| ext["attributes"][key].as_u64().unwrap() as usize;
        let translations = read_f32s(index("TRANSLATION"));
        let rotations = read_f32s(index("ROTATION"));
        let of_class: Vec<&serde_json::Value> =
            instances.iter().filter(|i| i["class"] == *name).collect();
        assert_eq!(translations.len(), 3 * of_class.len());
        for (k, inst) in of_class.iter().enumerate() {
            let p: Vec<f64> =
                inst["position"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
            let q: Vec<f64> =
                inst["rotation"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
            let expected = [p[0], p[1], -p[2]];
            let rotation = [-q[0], -q[1], q[2], q[3]];
            for a in 0..3 {
                assert!(
                    (translations[3 * k + a] as f64 - expected[a]).abs()
                        < 1e-4 * (1.0 + expected[a].abs())
                );
            }
            for a in 0..4 {
                assert!((rotations[4 * k + a] as f64 - rotation[a]).abs() < 1e-6, "{c} {k}");
            }
        }
    }
    // The terrain mesh has positions, normals and indices within its vertices.
    let terrain = document.meshes().find(|m| m.name() == Some("terrain")).unwrap();
    let primitive = terrain.primitives().next().unwrap();
    assert!(primitive.get(&gltf::Semantic::Normals).is_some());
    assert!(primitive.indices().unwrap().count() % 3 == 0);

    // The preview: an SVG with the raster and every class in the legend.
    let svg = std::fs::read_to_string(out.join("preview.svg")).unwrap();
    let tree = roxmltree::Document::parse(&svg).unwrap();
    assert!(tree.descendants().any(|n| n.has_tag_name("image")));
    for name in ["tree", "rock", "shrub"] {
        assert!(
            tree.descendants().any(|n| n.text().is_some_and(|t| t.starts_with(name))),
            "{name}"
        );
    }
}

#[test]
fn the_same_seed_writes_identical_files() {
    let (dir, scene) = setup(SCENE);
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    for out in [&a, &b] {
        assert!(run(&[scene.to_str().unwrap(), "--out", out.to_str().unwrap()]).status.success());
    }
    for name in ["instances.json", "instances.gltf", "instances.bin", "preview.svg"] {
        assert_eq!(
            std::fs::read(a.join(name)).unwrap(),
            std::fs::read(b.join(name)).unwrap(),
            "{name}"
        );
    }
    // Another seed, other instances.
    std::fs::write(&scene, SCENE.replace("seed = 7", "seed = 8")).unwrap();
    let c = dir.path().join("c");
    assert!(run(&[scene.to_str().unwrap(), "--out", c.to_str().unwrap()]).status.success());
    assert_ne!(
        std::fs::read(a.join("instances.json")).unwrap(),
        std::fs::read(c.join("instances.json")).unwrap()
    );
}

/// A terrain a thousand metres long and a millimetre wide (its heightmap's 32 rows squeezed
/// into it) scatters like any other: the rocks along it keep their distance.
#[test]
fn a_thin_terrain_scatters() {
    let thin = SCENE.replace("size = [200.0, 150.0]", "size = [1000.0, 0.001]");
    let (dir, scene) = setup(&thin);
    let out = dir.path().join("out");
    let output = run(&[scene.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("instances.json")).unwrap()).unwrap();
    let mut xs: Vec<f64> = json["instances"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|inst| inst["class"] == "rock")
        .map(|inst| inst["position"][0].as_f64().unwrap())
        .collect();
    assert!(xs.len() > 20, "{} rocks", xs.len());
    xs.sort_by(f64::total_cmp);
    // Along a line a millimetre wide, x alone keeps the rocks' 4 m apart (up to that width).
    assert!(xs.windows(2).all(|w| w[1] - w[0] >= 4.0 - 0.001), "{xs:?}");
}

#[test]
fn an_npy_heightmap_is_read_along_x_then_z() {
    let (dir, _) = setup(SCENE);
    // Shape (n_x, n_z) = (4, 3): height grows along z only.
    let values: Vec<f64> = (0..4).flat_map(|_| [0.0, 0.5, 1.0]).collect();
    let mut bytes = Vec::new();
    let mut w = npyz::WriteOptions::new()
        .default_dtype()
        .shape(&[4, 3])
        .writer(&mut bytes)
        .begin_nd()
        .unwrap();
    w.extend(values.iter().copied()).unwrap();
    w.finish().unwrap();
    std::fs::write(dir.path().join("h.npy"), bytes).unwrap();
    let scene = "[terrain]\nheightmap = \"h.npy\"\nsize = [40.0, 30.0]\nheight_scale = 10.0\n\
                 [[class]]\nname = \"a\"\nradius = 3.0\n";
    let path = dir.path().join("npy.toml");
    std::fs::write(&path, scene).unwrap();
    let out = dir.path().join("npy-out");
    let output = run(&[path.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("instances.json")).unwrap()).unwrap();
    for inst in json["instances"].as_array().unwrap() {
        let p: Vec<f64> =
            inst["position"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        // Centres of the z cells at 5, 15, 25 m with heights 0, 5, 10; clamped outside.
        let expected = ((p[2] - 5.0) / 10.0 * 5.0).clamp(0.0, 10.0);
        assert!((p[1] - expected).abs() < 1e-9, "{p:?}");
    }
}

/// Runs a broken scene: exit code 2, one line naming `needle`, no output folder.
fn refused(scene: &str, needle: &str) {
    refused_with(scene, "", needle);
}

/// As [`refused`], with `island.obj` holding `obj` beside the scene.
fn refused_with(scene: &str, obj: &str, needle: &str) {
    let (dir, path) = setup(scene);
    std::fs::write(dir.path().join("island.obj"), obj).unwrap();
    let out = dir.path().join("out");
    let output = run(&[path.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
    assert!(!out.exists(), "{needle}: the output folder was created");
}

#[test]
fn every_scene_error_exits_2_with_one_line_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let missing =
        run(&[dir.path().join("none.toml").to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read"));
    assert!(!out.exists());
    // An output folder that is a file, refused before sampling.
    let (dir, path) = setup(SCENE);
    let file = dir.path().join("taken");
    std::fs::write(&file, "x").unwrap();
    let output = run(&[path.to_str().unwrap(), "--out", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("taken: exists and is not a folder"));

    refused(&SCENE.replace("seed = 7", "seed = 7\ncolour = 1"), "unknown field `colour`");
    refused(
        &SCENE.replace("size = [200.0, 150.0]", "size = [200.0, 150.0, 5.0]"),
        "terrain.size: needs 2 values (x and z), got 3",
    );
    refused(&SCENE.replace("size = [200.0, 150.0]", "size = [200.0]"), "needs 2 values");
    // Values whose 32-bit output would not be finite.
    refused(&SCENE.replace("scale = [0.8, 1.3]", "scale = [0.8, 1e308]"), "between 1e-30 and 1e30");
    refused(
        &SCENE.replace("height_scale = 40.0", "height_scale = 1e308"),
        "between 1e-30 and 1e30",
    );
    refused(&SCENE.replace("radius = 4.0", "radius = 1e160"), "between 1e-30 and 1e30");
    refused(&SCENE.replace("align = 0.0", "align = 0.0\nwidth = 3"), "unknown field `width`");
    refused(
        &SCENE.replace("heightmap = \"height.png\"", "heightmap = \"nope.png\""),
        "terrain.heightmap",
    );
    refused(
        &SCENE.replace("radius = 4.0", "radius = -4.0"),
        "class[1].radius: must be finite and > 0",
    );
    refused(
        &SCENE.replace("radius = [5.0, 10.0]", "radius = [10.0, 5.0]"),
        "class[0].radius: needs rmin <= rmax",
    );
    refused(
        &SCENE.replace("radius = [5.0, 10.0]", "radius = 5.0"),
        "a density map needs radius = [rmin, rmax]",
    );
    refused(&SCENE.replace("radius = 2.0", "radius = [1.0, 2.0]"), "needs a density map");
    refused(
        &SCENE.replace("max_slope = 30.0", "max_slope = 95.0"),
        "class[0].max_slope: must be in [0, 90]",
    );
    refused(&SCENE.replace("min_slope = 5.0", "min_slope = -5.0"), "class[1].min_slope");
    refused(
        &SCENE.replace("min_slope = 5.0", "min_slope = 5.0\nmax_slope = 2.0"),
        "is above max_slope",
    );
    refused(
        &SCENE.replace("max_height = 35.0", "max_height = 35.0\nmin_height = 40.0"),
        "is above max_height",
    );
    refused(&SCENE.replace("align = 1.0", "align = 1.5"), "class[1].align: must be in [0, 1]");
    refused(
        &SCENE.replace("scale = [0.8, 1.3]", "scale = [1.3, 0.8]"),
        "class[0].scale: needs min <= max",
    );
    refused(&SCENE.replace("scale = [0.8, 1.3]", "scale = 0.0"), "class[0].scale");
    refused(
        &SCENE.replace("scale = [0.8, 1.3]", "scale = [0.8, 1e-300]"),
        "class[0].scale: needs min <= max, got [0.8, 1e-300]",
    );
    refused(&SCENE.replace("scale = [0.8, 1.3]", "scale = 1e-300"), "class[0].scale: scale_min");
    refused(
        &SCENE.replace("slope_radius = 0.5", "slope_radius = 1e300"),
        "class[2].slope_radius: the largest radius the slope grows to must be between",
    );
    refused(&SCENE.replace("\"tree-rock\" = 6.0", "\"tree-rok\" = 6.0"), "no class named 'rok'");
    refused(
        &SCENE.replace("\"tree-rock\" = 6.0", "\"tree-rock\" = -6.0"),
        "distances.\"tree-rock\": must be finite and > 0",
    );
    refused(
        &SCENE.replace("\"tree-rock\" = 6.0", "\"tree-rock\" = 6.0\n\"rock-tree\" = 2.0"),
        "given twice",
    );
    refused(&SCENE.replace("\"tree-rock\" = 6.0", "treerock = 6.0"), "must name two classes");
    refused(
        &SCENE.replace("\"tree-rock\" = 6.0", "\"tree-rock\" = 1e-300"),
        "distances.\"tree-rock\": the distance must be between 1e-30 and 1e30",
    );
    // More instances than a scene may hold (its memory bounded), shared by its classes.
    refused(
        &SCENE.replace("radius = 4.0", "radius = 0.03"),
        "class 'rock': radius 0.03 could place about 3.850e7 instances on the terrain, over the \
         3333333 a class may have (a scene's 10000000 shared by its 3 classes",
    );
    refused(&SCENE.replace("name = \"shrub\"", "name = \"tree\""), "'tree' names two classes");
    refused(&SCENE.replace("name = \"shrub\"", "name = \"low-shrub\""), "class[2].name");
    refused(&SCENE.replace("slope_radius = 0.5", "slope_radius = -1.0"), "class[2].slope_radius");
    refused(&SCENE.replace("size = [200.0, 150.0]", "size = [200.0, 0.0]"), "terrain.size");
    refused(&SCENE.replace("mesh = \"box\"", "mesh = \"cube\""), "unknown variant `cube`");
    refused(
        "[terrain]\nheightmap = \"height.png\"\nsize = [1.0, 1.0]\nheight_scale = 1.0\n",
        "no [[class]]",
    );
    // A heightmap that is not a picture, and an array of the wrong shape.
    let (dir, path) = setup(SCENE);
    std::fs::write(dir.path().join("height.png"), b"not a picture").unwrap();
    let out = dir.path().join("out");
    let output = run(&[path.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a decodable PNG"));
    assert!(!out.exists());
    let (dir, path) = setup(&SCENE.replace("height.png", "h.npy"));
    let mut bytes = Vec::new();
    let mut w = npyz::WriteOptions::new()
        .default_dtype()
        .shape(&[2, 2, 2])
        .writer(&mut bytes)
        .begin_nd()
        .unwrap();
    w.extend([0.0f64; 8].iter().copied()).unwrap();
    w.finish().unwrap();
    std::fs::write(dir.path().join("h.npy"), bytes).unwrap();
    let out = dir.path().join("out");
    let output = run(&[path.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("needs 2 axes") && stderr.lines().count() == 1, "{stderr}");
    assert!(!out.exists());
}

/// An island as OBJ text: a `k × k` grid over `[−40, 40]²` (x east, north = −z, +y up), a
/// dome 15 high, counter-clockwise seen from above; with `vt` (u east, v north) when `uvs`.
/// In z-up form (`z_up`) the same island with `(x, y, z) = (east, north, up)`. Returns the
/// text and the triangles in world coordinates (x, height, north).
fn island_obj(k: usize, uvs: bool, z_up: bool) -> (String, Vec<[[f64; 3]; 3]>) {
    let at = |i: usize| -40.0 + 80.0 * i as f64 / k as f64;
    let height = |x: f64, n: f64| (15.0 * (1.0 - (x * x + n * n) / 1600.0)).max(0.0);
    let mut text = String::new();
    let mut world = Vec::new();
    for j in 0..=k {
        for i in 0..=k {
            let (x, n) = (at(i), at(j));
            let y = height(x, n);
            if z_up {
                text.push_str(&format!("v {x} {n} {y}\n"));
            } else {
                text.push_str(&format!("v {x} {y} {}\n", -n));
            }
            if uvs {
                text.push_str(&format!("vt {} {}\n", (x + 40.0) / 80.0, (n + 40.0) / 80.0));
            }
        }
    }
    let v = |i: usize, j: usize| j * (k + 1) + i + 1;
    let corner = |i: usize, j: usize| {
        let (x, n) = (at(i), at(j));
        [x, height(x, n), n]
    };
    for j in 0..k {
        for i in 0..k {
            for tri in [[(i, j), (i + 1, j), (i + 1, j + 1)], [(i, j), (i + 1, j + 1), (i, j + 1)]]
            {
                let ids = tri.map(|(a, b)| v(a, b));
                let f = if uvs {
                    format!("f {0}/{0} {1}/{1} {2}/{2}\n", ids[0], ids[1], ids[2])
                } else {
                    format!("f {} {} {}\n", ids[0], ids[1], ids[2])
                };
                text.push_str(&f);
                world.push(tri.map(|(a, b)| corner(a, b)));
            }
        }
    }
    (text, world)
}

const MESH_SCENE: &str = r#"
seed = 3
pair_rule = "mean"
[terrain]
mesh = "island.obj"
[[class]]
name = "tree"
radius = [3.0, 6.0]
density = "wet.png"
max_slope = 20.0
[[class]]
name = "rock"
radius = 2.0
min_height = 8.0
align = 1.0
"#;

/// The highest triangle over `(x, n)`: its height.
fn top_height(world: &[[[f64; 3]; 3]], x: f64, n: f64) -> Option<f64> {
    let mut best: Option<f64> = None;
    for [a, b, c] in world {
        let (e1, e2, d) =
            ([b[0] - a[0], b[2] - a[2]], [c[0] - a[0], c[2] - a[2]], [x - a[0], n - a[2]]);
        let det = e1[0] * e2[1] - e1[1] * e2[0];
        let (s, t) = ((d[0] * e2[1] - d[1] * e2[0]) / det, (e1[0] * d[1] - e1[1] * d[0]) / det);
        if s >= -1e-12 && t >= -1e-12 && s + t <= 1.0 + 1e-12 {
            let h = a[1] + s * (b[1] - a[1]) + t * (c[1] - a[1]);
            best = Some(best.map_or(h, |top| top.max(h)));
        }
    }
    best
}

#[test]
fn a_mesh_terrain_scatters_on_its_surface_in_the_file_s_frame() {
    let (text, world) = island_obj(24, true, false);
    let (dir, scene) = setup(MESH_SCENE);
    std::fs::write(dir.path().join("island.obj"), &text).unwrap();
    let out = dir.path().join("out");
    let output = run(&[scene.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("smallest distance/rule"), "{stderr}");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("instances.json")).unwrap()).unwrap();
    let instances = json["instances"].as_array().unwrap();
    let mut counts = [0; 2];
    for inst in instances {
        let p: Vec<f64> =
            inst["position"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        let h = top_height(&world, p[0], p[2]).expect("every instance stands on the mesh");
        assert!((p[1] - h).abs() < 1e-9, "{p:?} vs {h}");
        if inst["class"] == "rock" {
            counts[1] += 1;
            assert!(p[1] >= 8.0);
        } else {
            counts[0] += 1;
            let r = inst["radius"].as_f64().unwrap();
            assert!((3.0..=6.0).contains(&r));
        }
    }
    assert!(counts.iter().all(|&c| c > 10), "{counts:?}");

    // The glTF's terrain is the file's mesh where the file has it, facing the same way.
    let gltf_text = std::fs::read(out.join("instances.gltf")).unwrap();
    let bin = std::fs::read(out.join("instances.bin")).unwrap();
    let gltf = gltf::Gltf::from_slice(&gltf_text).unwrap();
    let terrain = gltf.document.meshes().find(|m| m.name() == Some("terrain")).unwrap();
    let primitive = terrain.primitives().next().unwrap();
    // Every accessor here holds 4-byte components (f32 vectors, u32 indices).
    let words = |accessor: gltf::Accessor| -> Vec<[u8; 4]> {
        let view = accessor.view().unwrap();
        let start = view.offset() + accessor.offset();
        let len = accessor.count() * accessor.size();
        bin[start..start + len].chunks(4).map(|b| b.try_into().unwrap()).collect()
    };
    let vectors = |semantic: gltf::Semantic| -> Vec<[f32; 3]> {
        let values: Vec<f32> =
            words(primitive.get(&semantic).unwrap()).into_iter().map(f32::from_le_bytes).collect();
        values.chunks(3).map(|v| [v[0], v[1], v[2]]).collect()
    };
    let positions = vectors(gltf::Semantic::Positions);
    let normals = vectors(gltf::Semantic::Normals);
    let indices: Vec<u32> =
        words(primitive.indices().unwrap()).into_iter().map(u32::from_le_bytes).collect();
    assert_eq!(indices.len(), 3 * world.len());
    let file_vertices: Vec<[f32; 3]> = text
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            let v: Vec<f32> = l.split(' ').map(|x| x.parse().unwrap()).collect();
            [v[0], v[1], v[2]]
        })
        .collect();
    for p in &positions {
        assert!(file_vertices.contains(p), "{p:?} is not a vertex of the file");
    }
    for t in indices.chunks(3) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| positions[i as usize].map(f64::from));
        let (u, v) =
            ([b[0] - a[0], b[1] - a[1], b[2] - a[2]], [c[0] - a[0], c[1] - a[1], c[2] - a[2]]);
        let cross =
            [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
        // Counter-clockwise seen from above in glTF's frame, as in the file, and the normal
        // on the same side.
        assert!(cross[1] > 0.0);
        let n = normals[t[0] as usize];
        assert!(n[1] > 0.0);
    }

    // The same island written z-up, read with up = "z": the same instances, to the bit.
    let (z_text, _) = island_obj(24, true, true);
    std::fs::write(dir.path().join("island_z.obj"), z_text).unwrap();
    let z_scene = dir.path().join("z.toml");
    std::fs::write(
        &z_scene,
        MESH_SCENE.replace("mesh = \"island.obj\"", "mesh = \"island_z.obj\"\nup = \"z\""),
    )
    .unwrap();
    let z_out = dir.path().join("z_out");
    let output = run(&[z_scene.to_str().unwrap(), "--out", z_out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(
        std::fs::read(out.join("instances.json")).unwrap(),
        std::fs::read(z_out.join("instances.json")).unwrap()
    );
}

#[test]
fn mesh_terrain_errors_exit_2_with_one_line() {
    let with_mesh = refused_with;
    let (good, _) = island_obj(6, true, false);
    let (bare, _) = island_obj(6, false, false);
    let terrain = "mesh = \"island.obj\"";
    with_mesh(
        &MESH_SCENE.replace(terrain, "mesh = \"island.obj\"\nheightmap = \"height.png\""),
        &good,
        "terrain.mesh: give a heightmap or a mesh, not both",
    );
    with_mesh(
        &MESH_SCENE.replace(terrain, "mesh = \"island.obj\"\nsize = [10.0, 10.0]"),
        &good,
        "terrain.size: a mesh terrain takes its size and heights from the mesh",
    );
    with_mesh(
        &MESH_SCENE.replace(terrain, "mesh = \"island.obj\"\nup = \"x\""),
        &good,
        "unknown variant `x`",
    );
    with_mesh(MESH_SCENE, &bare, "class[0].density: the terrain mesh has no texture coordinates");
    with_mesh(&MESH_SCENE.replace(terrain, "mesh = \"none.obj\""), &good, "terrain.mesh");
    // Faces wound clockwise seen from above: nothing faces up.
    let flipped: String = good
        .lines()
        .map(|l| match l.strip_prefix("f ") {
            Some(rest) => {
                let c: Vec<&str> = rest.split(' ').collect();
                format!("f {} {} {}\n", c[0], c[2], c[1])
            }
            None => format!("{l}\n"),
        })
        .collect();
    with_mesh(MESH_SCENE, &flipped, "upward-facing triangles");
    with_mesh(
        &SCENE.replace("heightmap = \"height.png\"", "heightmap = \"height.png\"\nup = \"z\""),
        &good,
        "terrain.up: applies only to a mesh terrain",
    );
    with_mesh(
        &SCENE.replace("heightmap = \"height.png\"", ""),
        &good,
        "terrain.heightmap: the terrain needs a heightmap or a mesh",
    );
}
