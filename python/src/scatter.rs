//! `scatter`: a scene (a TOML file, or its table as a dict) run as `experiments scatter` runs
//! it, with the instances as arrays.

use crate::arrays::points_array;
use crate::{Interrupt, value_error};
use experiments::scatter::{self as cli, scene};
use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::{Path, PathBuf};

/// Runs the scene at `path`, or the scene `table` (JSON text of the TOML table, its paths
/// relative to `base`), and returns a dict of arrays: `class` (int64, the class's index),
/// `position` (n, 3), `rotation` (n, 4; x, y, z, w), `scale`, `radius`, and `class_names`.
/// With `out`, also writes the command line's files into that folder.
#[pyfunction]
#[pyo3(signature = (path = None, table = None, base = None, out = None))]
pub(crate) fn scatter<'py>(
    py: Python<'py>,
    path: Option<PathBuf>,
    table: Option<&str>,
    base: Option<PathBuf>,
    out: Option<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let interrupt = Interrupt::default();
    let hook: scene::Hook = Box::new(interrupt.hook());
    let (scene, name) = match (path, table) {
        (Some(path), None) => {
            (scene::load(&path, Some(hook)).map_err(value_error)?, path.display().to_string())
        }
        (None, Some(json)) => {
            let table: toml::Table = serde_json::from_str(json)
                .map_err(|e| value_error(format!("the scene is not a TOML table: {e}")))?;
            let text =
                toml::to_string(&table).map_err(|e| value_error(format!("the scene: {e}")))?;
            let base = base.unwrap_or_default();
            (
                scene::parse(&text, "the scene", &base, Some(hook)).map_err(value_error)?,
                "the scene".into(),
            )
        }
        _ => return Err(value_error("give a scene's path or its table")),
    };
    let scatter = &scene.scatter;
    let points = crate::interruptible(py, &[&interrupt], || scatter.sample(scene.seed))?
        .map_err(|e| value_error(format!("{name}: {e}")))?;
    let instances = py.detach(|| scatter.lift(&points, scene.seed));
    if let Some(dir) = out {
        write_outputs(&scene, &instances, &dir)?;
    }
    let n = instances.len();
    let class: Vec<i64> = instances.iter().map(|i| i.class as i64).collect();
    let position: Vec<[f64; 3]> = instances.iter().map(|i| i.position).collect();
    let rotation: Vec<[f64; 4]> = instances.iter().map(|i| i.rotation).collect();
    let scale: Vec<f64> = instances.iter().map(|i| i.scale).collect();
    let radius: Vec<f64> = instances.iter().map(|i| i.radius).collect();
    let names: Vec<String> = scatter.classes().iter().map(|c| c.name().to_string()).collect();
    let result = PyDict::new(py);
    result.set_item("class", class.into_pyarray(py))?;
    result.set_item("position", points_array(py, position)?)?;
    result.set_item("rotation", rotation.into_flattened().into_pyarray(py).reshape([n, 4])?)?;
    result.set_item("scale", scale.into_pyarray(py))?;
    result.set_item("radius", radius.into_pyarray(py))?;
    result.set_item("class_names", names)?;
    Ok(result)
}

/// The command line's output files, each whole or not at all.
fn write_outputs(
    scene: &scene::Scene,
    instances: &[poisson_nd::scatter::Instance],
    dir: &Path,
) -> PyResult<()> {
    let files = cli::render(scene, instances).map_err(value_error)?;
    std::fs::create_dir_all(dir)
        .map_err(|e| value_error(format!("cannot create {}: {e}", dir.display())))?;
    for (name, bytes) in cli::OUTPUTS.iter().zip(&files) {
        let path = dir.join(name);
        experiments::io::write_atomically(&path, bytes)
            .map_err(|e| value_error(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}
