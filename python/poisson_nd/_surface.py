"""Points on the surface of a triangle mesh: ``experiments sample surface`` as a function."""

from __future__ import annotations

import os
from typing import Any, Mapping, NamedTuple, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from . import _native
from ._engines import SeedLike, _seed_of

__all__ = ["SurfaceNearest", "SurfaceSample", "nearest_on_surface", "sample_surface"]

#: What ``sample_surface`` takes as a mesh: a file's path, ``(vertices, faces)``, or a mapping
#: with ``vertices``, ``faces`` and optionally ``normals`` and ``uvs`` (per vertex).
MeshLike = Union[str, "os.PathLike[str]", Sequence[npt.ArrayLike], Mapping[str, npt.ArrayLike]]


class SurfaceSample(NamedTuple):
    """Points on a surface, each with where it lies on the mesh."""

    #: (n, 3) positions.
    points: npt.NDArray[np.float64]
    #: (n,) the index of each point's triangle (among all triangles given, degenerate ones
    #: included).
    faces: npt.NDArray[np.int64]
    #: (n, 3) barycentric coordinates in that triangle: ``points`` rebuilt as
    #: ``b0·A + b1·B + b2·C`` of its corners.
    barycentrics: npt.NDArray[np.float64]
    #: (n, 3) unit normals: the vertex normals interpolated when the mesh has them, else the
    #: triangle's.
    normals: npt.NDArray[np.float64]
    #: (n, 2) texture coordinates interpolated, when the mesh has UVs.
    uvs: Optional[npt.NDArray[np.float64]]
    #: (n,) each point's radius, when a density texture varies it.
    radii: Optional[npt.NDArray[np.float64]]
    #: Why the run ended: "exhausted" (a maximal fill), "target-reached" (n points) or
    #: "point-limit".
    stop: str
    #: Darts and candidates tried (a fill), or candidates drawn (n points).
    attempts: int
    #: Pieces of a fill left at the deepest level (0 in practice; see docs/algorithms.md).
    unresolved: int
    #: The seed the run used (``rng``'s, or drawn from it).
    seed: int


def sample_surface(
    mesh: MeshLike,
    *,
    radius: Optional[float] = None,
    n: Optional[int] = None,
    rng: SeedLike = None,
    fill: Optional[str] = None,
    ratio: Optional[float] = None,
    progressive: bool = False,
    density_texture: Union[str, "os.PathLike[str]", None] = None,
    rmin: Optional[float] = None,
    rmax: Optional[float] = None,
    mapping: Optional[str] = None,
    radius_rule: Optional[str] = None,
    max_points: Optional[int] = None,
) -> SurfaceSample:
    """Well-spread points on the surface of a triangle mesh, with distances Euclidean in 3D.

    ``mesh`` is a file's path (.obj, .stl, .ply, .gltf or .glb, read as the command line reads
    it), ``(vertices, faces)`` arrays of shapes (m, 3) and (t, 3), or a mapping with
    ``vertices``, ``faces`` and optionally per-vertex ``normals`` (m, 3) and ``uvs`` (m, 2).

    Give one of:

    - ``radius``: a maximal fill, no two points closer than ``radius`` and every point of the
      surface within ``radius`` of one; ``fill`` is ``"darts"`` (the default), ``"front"``
      (about 1.8× faster at 10**6 points, other points of the same spread) or ``"boundary"``
      (each new point just beyond ``radius`` from an earlier one, where the edge of the
      covered surface is still open: faster still, about 30% more points, every point's
      nearest neighbour at ``radius``);
    - ``n``: exactly ``n`` points by weighted sample elimination of ``ratio · n`` candidates
      (default 5), ``progressive=True`` ordering them so that every prefix is well spread;
    - ``density_texture`` (a PNG read through the mesh's UVs) with ``rmin`` and ``rmax``: a
      maximal fill whose radius follows the texture, by ``mapping`` ("lerp" or "inverse") and
      pairs spaced by ``radius_rule`` ("max", "min" or "mean").

    For the same seed the points are those of ``experiments sample surface --seed S``.

    >>> import numpy as np
    >>> square = (np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], dtype=float),
    ...           np.array([[0, 1, 2], [0, 2, 3]]))
    >>> sample = sample_surface(square, n=100, rng=1)
    >>> sample.points.shape, sample.faces.shape
    ((100, 3), (100,))
    """
    seed = _seed_of(rng)
    path, arrays = _mesh_arguments(mesh)
    texture = None if density_texture is None else os.fspath(density_texture)
    result = _native.sample_surface(
        path, arrays.get("vertices"), arrays.get("faces"), arrays.get("normals"),
        arrays.get("uvs"), radius=radius, n=n, seed=seed, fill=fill, ratio=ratio,
        progressive=progressive, density_texture=texture, rmin=rmin, rmax=rmax,
        mapping=mapping, radius_rule=radius_rule, max_points=max_points)
    return SurfaceSample(seed=seed, **result)


class SurfaceNearest(NamedTuple):
    """The points of a surface nearest to points in space."""

    #: (n, 3) the nearest point of the surface to each point asked about.
    points: npt.NDArray[np.float64]
    #: (n,) the triangle each lies on (never a degenerate one).
    faces: npt.NDArray[np.int64]
    #: (n, 3) barycentric coordinates in that triangle, none negative, summing to 1.
    barycentrics: npt.NDArray[np.float64]
    #: (n,) the Euclidean distance from each point asked about to its nearest point.
    distances: npt.NDArray[np.float64]


def nearest_on_surface(mesh: MeshLike, points: npt.ArrayLike) -> SurfaceNearest:
    """The point of a triangle mesh's surface nearest to each of ``points`` (n, 3).

    ``mesh`` as ``sample_surface`` takes it. Exact over every non-degenerate triangle (a
    hierarchy of boxes walked nearest first); finite points only. Use it to snap points onto
    a surface, or to measure how far a point set lies from one.

    >>> import numpy as np
    >>> square = (np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], dtype=float),
    ...           np.array([[0, 1, 2], [0, 2, 3]]))
    >>> near = nearest_on_surface(square, [[0.5, 0.25, 2.0], [3.0, 0.5, 0.0]])
    >>> near.points.tolist(), near.distances.tolist()
    ([[0.5, 0.25, 0.0], [1.0, 0.5, 0.0]], [2.0, 2.0])
    """
    path, arrays = _mesh_arguments(mesh)
    result = _native.nearest_on_surface(points, path, arrays.get("vertices"), arrays.get("faces"))
    return SurfaceNearest(**result)


def _mesh_arguments(mesh: MeshLike) -> tuple[Optional[str], dict[str, Any]]:
    """A mesh as the native functions take it: a file's path, or its arrays by name."""
    if isinstance(mesh, (str, os.PathLike)):
        return os.fspath(mesh), {}
    if isinstance(mesh, Mapping):
        unknown = sorted(set(mesh) - {"vertices", "faces", "normals", "uvs"})
        if unknown:
            raise ValueError(f"mesh has unknown keys {unknown}; expected vertices, faces, "
                             "normals, uvs")
        if "vertices" not in mesh or "faces" not in mesh:
            raise ValueError("mesh needs 'vertices' and 'faces'")
        return None, dict(mesh)
    if isinstance(mesh, Sequence) and len(mesh) == 2:
        return None, {"vertices": mesh[0], "faces": mesh[1]}
    raise TypeError("mesh must be a path, (vertices, faces) or a mapping with vertices and "
                    f"faces, got {type(mesh).__name__}")
