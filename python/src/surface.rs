//! `sample_surface`: points on the surface of a triangle mesh, made as `experiments sample
//! surface` makes them (the same function behind both), with each point's face, barycentric
//! coordinates and normal as arrays.

use crate::arrays::{index_triples, points_array, read_points};
use crate::shapes::choice;
use crate::{Interrupt, value_error, whole};
use experiments::surface::{self as cli, Settings, SurfaceArgs};
use numpy::{IntoPyArray, PyArrayMethods};
use poisson_nd::field::{DensityMapping, PairRule};
use poisson_nd::surface::{SurfaceFill, SurfaceMesh};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::sync::Arc;

/// Samples the mesh read from `path` (OBJ, STL, PLY, glTF/GLB, as the command line reads
/// them) or given as `vertices` (m, 3) and `faces` (t, 3) with optional per-vertex `normals`
/// and `uvs`: exactly `n` points by sample elimination, or a maximal fill at `radius` (or
/// over a `density_texture` between `rmin` and `rmax`). Returns a dict: `points` (n, 3),
/// `faces` (int64), `barycentrics` (n, 3), `normals` (n, 3), `uvs` (n, 2) or None, `radii`
/// or None, `stop`, `attempts`, `unresolved`.
#[pyfunction]
#[pyo3(signature = (path = None, vertices = None, faces = None, normals = None, uvs = None,
    radius = None, n = None, seed = 0, fill = None, ratio = None, progressive = false,
    density_texture = None, rmin = None, rmax = None, mapping = None, radius_rule = None,
    max_points = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn sample_surface<'py>(
    py: Python<'py>,
    path: Option<PathBuf>,
    vertices: Option<&Bound<'py, PyAny>>,
    faces: Option<&Bound<'py, PyAny>>,
    normals: Option<&Bound<'py, PyAny>>,
    uvs: Option<&Bound<'py, PyAny>>,
    radius: Option<f64>,
    n: Option<i128>,
    seed: u64,
    fill: Option<&str>,
    ratio: Option<f64>,
    progressive: bool,
    density_texture: Option<PathBuf>,
    rmin: Option<f64>,
    rmax: Option<f64>,
    mapping: Option<&str>,
    radius_rule: Option<&str>,
    max_points: Option<i128>,
) -> PyResult<Bound<'py, PyDict>> {
    let fill = fill.map(|name| choice::<SurfaceFill>(name, "fill")).transpose()?;
    let settings = Settings {
        radius,
        n: n.map(|n| whole(n, "n")).transpose()?,
        max_points: max_points.map(|m| whole(m, "max_points")).transpose()?,
        seed,
        rmin,
        rmax,
        mapping: mapping.map(|name| choice::<DensityMapping>(name, "mapping")).transpose()?,
        radius_rule: radius_rule.map(|name| choice::<PairRule>(name, "radius_rule")).transpose()?,
        ..Settings::default()
    };
    let (mesh, name) = mesh_from(path, vertices, faces, normals, uvs)?;
    let args = SurfaceArgs { mesh: name.clone(), density_texture, progressive, ratio, fill };
    let mesh = Arc::new(mesh);
    let interrupt = Interrupt::default();
    let sampled = Arc::clone(&mesh);
    let (set, _) = crate::interruptible_owned(py, &[&interrupt], move || {
        cli::sample(&sampled, &name.display().to_string(), &args, &settings)
    })?
    .map_err(|message| value_error(python_names(&message)))?;
    let count = set.len();
    let result = PyDict::new(py);
    result.set_item("normals", points_array(py, set.normals(&mesh))?)?;
    let uvs = set.uvs(&mesh);
    result.set_item(
        "uvs",
        uvs.map(|uvs| uvs.into_flattened().into_pyarray(py).reshape([count, 2])).transpose()?,
    )?;
    let faces: Vec<i64> = set.faces.iter().map(|&f| i64::from(f)).collect();
    result.set_item("faces", faces.into_pyarray(py))?;
    result.set_item("barycentrics", points_array(py, set.barycentrics)?)?;
    result.set_item("radii", set.radii.map(|radii| radii.into_pyarray(py)))?;
    result.set_item("points", points_array(py, set.points)?)?;
    result.set_item("stop", set.stop.to_string())?;
    result.set_item("attempts", set.attempts)?;
    result.set_item("unresolved", set.unresolved)?;
    Ok(result)
}

/// The point of the surface nearest to each of `points` (n, 3) of the mesh read from `path`
/// or given as `vertices` and `faces` (as [`sample_surface`] takes them). Returns a dict:
/// `points` (n, 3) the nearest points, `faces` (int64), `barycentrics` (n, 3) and
/// `distances` (n,).
#[pyfunction]
#[pyo3(signature = (points, path = None, vertices = None, faces = None))]
pub(crate) fn nearest_on_surface<'py>(
    py: Python<'py>,
    points: &Bound<'py, PyAny>,
    path: Option<PathBuf>,
    vertices: Option<&Bound<'py, PyAny>>,
    faces: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (mesh, _) = mesh_from(path, vertices, faces, None, None)?;
    let queries = read_points::<3>(points, "points")?;
    let interrupt = Interrupt::default();
    let stop = interrupt.clone();
    let found = crate::interruptible_owned(py, &[&interrupt], move || {
        let mut found = Vec::with_capacity(queries.len());
        for p in &queries {
            // Asked to stop (Ctrl-C): the caller has raised already, what is left is dropped.
            if stop.is_set() {
                break;
            }
            // Finite by `read_points`, so there is always an answer.
            found.extend(
                mesh.nearest(p).map(|near| (near, mesh.point_at(near.face, near.barycentric))),
            );
        }
        found
    })?;
    let faces: Vec<i64> = found.iter().map(|(near, _)| near.face as i64).collect();
    let result = PyDict::new(py);
    result.set_item("faces", faces.into_pyarray(py))?;
    result.set_item(
        "barycentrics",
        points_array(py, found.iter().map(|(near, _)| near.barycentric).collect())?,
    )?;
    let distances: Vec<f64> = found.iter().map(|(near, _)| near.distance).collect();
    result.set_item("distances", distances.into_pyarray(py))?;
    result.set_item("points", points_array(py, found.into_iter().map(|(_, q)| q).collect())?)?;
    Ok(result)
}

/// The mesh read from `path` or made of the arrays, and the name its messages give it.
fn mesh_from(
    path: Option<PathBuf>,
    vertices: Option<&Bound<'_, PyAny>>,
    faces: Option<&Bound<'_, PyAny>>,
    normals: Option<&Bound<'_, PyAny>>,
    uvs: Option<&Bound<'_, PyAny>>,
) -> PyResult<(SurfaceMesh, PathBuf)> {
    match (path, vertices, faces) {
        (Some(path), None, None) => {
            if normals.is_some() || uvs.is_some() {
                return Err(value_error(
                    "normals and uvs come with vertices and faces, not with a mesh file",
                ));
            }
            Ok((cli::read_surface(&path).map_err(value_error)?, path))
        }
        (None, Some(vertices), Some(faces)) => {
            Ok((mesh_of(vertices, faces, normals, uvs)?, PathBuf::from("the mesh")))
        }
        _ => Err(value_error("give a mesh file's path, or its vertices and faces")),
    }
}

/// A surface from arrays: `vertices` (m, 3), `faces` (t, 3) of vertex indices, and optional
/// per-vertex `normals` (m, 3) and `uvs` (m, 2), with the library's checks.
fn mesh_of(
    vertices: &Bound<'_, PyAny>,
    faces: &Bound<'_, PyAny>,
    normals: Option<&Bound<'_, PyAny>>,
    uvs: Option<&Bound<'_, PyAny>>,
) -> PyResult<SurfaceMesh> {
    let vertices = read_points::<3>(vertices, "vertices")?;
    let triangles = index_triples(faces, "faces")?;
    let mut mesh = SurfaceMesh::new(vertices, triangles).map_err(value_error)?;
    if let Some(normals) = normals {
        mesh = mesh.with_normals(read_points::<3>(normals, "normals")?).map_err(value_error)?;
    }
    if let Some(uvs) = uvs {
        mesh = mesh.with_uvs(read_points::<2>(uvs, "uvs")?).map_err(value_error)?;
    }
    Ok(mesh)
}

/// A command line message with the Python names of the flags it mentions (`--max-points` as
/// `max_points`).
fn python_names(message: &str) -> String {
    // Longer flags first, so that `--radius-rule` is not read as `--radius`.
    const NAMES: [(&str, &str); 12] = [
        ("'surface'", "sample_surface"),
        ("--density-texture", "density_texture"),
        ("--radius-rule", "radius_rule"),
        ("--max-points", "max_points"),
        ("--progressive", "progressive"),
        ("--mapping", "mapping"),
        ("--radius", "radius"),
        ("--ratio", "ratio"),
        ("--rmin", "rmin"),
        ("--rmax", "rmax"),
        ("--fill", "fill"),
        ("--n", "n"),
    ];
    NAMES.iter().fold(message.to_string(), |text, (flag, name)| text.replace(flag, name))
}
