"""sample_surface: points on a triangle mesh, checked against independent oracles (cKDTree
closest pairs and probes, the mesh rebuilt in numpy) and against the command line."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import cKDTree

import poisson_nd as pnd

from conftest import closest_pair


def torus(nu: int = 40, nv: int = 14, major: float = 1.0, minor: float = 0.3):
    """A closed torus: vertices (nu·nv, 3), faces (2·nu·nv, 3), and its exact vertex normals."""
    u, v = np.meshgrid(np.arange(nu) * 2 * np.pi / nu, np.arange(nv) * 2 * np.pi / nv,
                       indexing="ij")
    ring = major + minor * np.cos(v)
    vertices = np.stack([ring * np.cos(u), ring * np.sin(u), minor * np.sin(v)], -1).reshape(-1, 3)
    normals = np.stack([np.cos(v) * np.cos(u), np.cos(v) * np.sin(u), np.sin(v)], -1).reshape(-1, 3)
    i, j = np.meshgrid(np.arange(nu), np.arange(nv), indexing="ij")
    a = (i * nv + j).ravel()
    b = (((i + 1) % nu) * nv + j).ravel()
    c = (((i + 1) % nu) * nv + (j + 1) % nv).ravel()
    d = (i * nv + (j + 1) % nv).ravel()
    faces = np.concatenate([np.stack([a, b, c], 1), np.stack([a, c, d], 1)])
    return vertices, faces, normals


def probes(vertices, faces, count: int, seed: int) -> np.ndarray:
    """Points uniform over the mesh's area (numpy only)."""
    rng = np.random.default_rng(seed)
    corners = vertices[faces]
    areas = 0.5 * np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0],
                                          corners[:, 2] - corners[:, 0]), axis=1)
    chosen = rng.choice(len(faces), size=count, p=areas / areas.sum())
    s, t = rng.random(count), rng.random(count)
    fold = s + t > 1
    s[fold], t[fold] = 1 - s[fold], 1 - t[fold]
    c = corners[chosen]
    return c[:, 0] + s[:, None] * (c[:, 1] - c[:, 0]) + t[:, None] * (c[:, 2] - c[:, 0])


@pytest.mark.parametrize("fill", ["darts", "front", "boundary"])
def test_a_fill_keeps_its_radius_and_covers_the_surface(fill):
    vertices, faces, _ = torus()
    r = 0.06
    sample = pnd.sample_surface((vertices, faces), radius=r, rng=3, fill=fill)
    assert sample.stop == "exhausted" and sample.unresolved == 0
    assert len(sample.points) > 500
    assert closest_pair(sample.points) >= r * (1 - 1e-12)
    gaps, _ = cKDTree(sample.points).query(probes(vertices, faces, 200_000, seed=1))
    assert gaps.max() <= r * (1 + 1e-9)


def test_points_rebuild_from_faces_and_barycentrics_with_unit_normals():
    vertices, faces, _ = torus()
    sample = pnd.sample_surface((vertices, faces), radius=0.08, rng=4)
    assert sample.faces.dtype == np.int64
    assert sample.faces.min() >= 0 and sample.faces.max() < len(faces)
    b = sample.barycentrics
    assert np.allclose(b.sum(axis=1), 1.0, rtol=0, atol=1e-12) and b.min() >= -1e-12
    rebuilt = np.einsum("nk,nkd->nd", b, vertices[faces[sample.faces]])
    assert np.abs(rebuilt - sample.points).max() <= 1e-12 * np.abs(vertices).max()
    assert np.allclose(np.linalg.norm(sample.normals, axis=1), 1.0, rtol=0, atol=1e-12)
    assert sample.uvs is None and sample.radii is None


def test_vertex_normals_are_interpolated_and_uvs_carried():
    vertices, faces, normals = torus()
    uvs = np.stack([np.linspace(0, 1, len(vertices)), np.zeros(len(vertices))], 1)
    sample = pnd.sample_surface({"vertices": vertices, "faces": faces, "normals": normals,
                                 "uvs": uvs}, n=300, rng=5)
    # On the torus the exact normal points away from the tube's centre line.
    p = sample.points
    centre = np.stack([p[:, 0], p[:, 1], np.zeros(len(p))], 1)
    centre[:, :2] *= 1.0 / np.linalg.norm(p[:, :2], axis=1)[:, None]
    exact = (p - centre) / np.linalg.norm(p - centre, axis=1)[:, None]
    assert np.einsum("nd,nd->n", sample.normals, exact).min() > 0.99
    expected = np.einsum("nk,nkd->nd", sample.barycentrics, uvs[faces[sample.faces]])
    assert sample.uvs is not None and np.allclose(sample.uvs, expected, rtol=0, atol=1e-12)


def test_exactly_n_points_well_spread_and_progressive():
    vertices, faces, _ = torus()
    for n in (1, 37, 800):
        sample = pnd.sample_surface((vertices, faces), n=n, rng=6)
        assert len(sample.points) == n and sample.stop == "target-reached"
        assert sample.attempts == 5 * n
    plain = pnd.sample_surface((vertices, faces), n=800, rng=6)
    progressive = pnd.sample_surface((vertices, faces), n=800, rng=6, progressive=True)
    # The same survivors of the first elimination, in another order; the first half spread
    # about √2 farther apart than the whole.
    assert len(progressive.points) == 800
    half = closest_pair(progressive.points[:400])
    assert half > 1.2 * closest_pair(plain.points)
    uniform_pairs = closest_pair(probes(vertices, faces, 800, seed=2))
    assert closest_pair(plain.points) > 3 * uniform_pairs


def test_reruns_are_identical_and_seeds_differ():
    vertices, faces, _ = torus()
    for kwargs in ({"radius": 0.1}, {"radius": 0.1, "fill": "front"}, {"n": 200}):
        a = pnd.sample_surface((vertices, faces), rng=9, **kwargs)
        b = pnd.sample_surface((vertices, faces), rng=9, **kwargs)
        c = pnd.sample_surface((vertices, faces), rng=10, **kwargs)
        assert a.seed == 9
        assert np.array_equal(a.points, b.points) and np.array_equal(a.faces, b.faces)
        assert np.array_equal(a.barycentrics, b.barycentrics)
        assert not np.array_equal(a.points[:50], c.points[:50])


def write_obj(path, vertices, faces):
    with open(path, "w") as f:
        for v in vertices:
            f.write("v {!r} {!r} {!r}\n".format(*map(float, v)))
        for t in faces:
            f.write("f {} {} {}\n".format(*(int(i) + 1 for i in t)))


@pytest.mark.parametrize("flags", [["--radius", 0.07], ["--radius", 0.07, "--fill", "front"],
                                   ["--radius", 0.07, "--fill", "boundary"],
                                   ["--n", 300], ["--n", 300, "--progressive"]])
def test_the_command_line_gives_the_same_points(tmp_path, run_cli, flags):
    vertices, faces, _ = torus()
    mesh = tmp_path / "torus.obj"
    write_obj(mesh, vertices, faces)
    out = tmp_path / "points.csv"
    run_cli("sample", "surface", "--mesh", mesh, "--seed", 11, *flags, "--out", out)
    table = np.genfromtxt(out, delimiter=",", names=True)
    kwargs = {"radius": 0.07} if flags[0] == "--radius" else {"n": 300}
    if "--fill" in flags:
        kwargs["fill"] = flags[flags.index("--fill") + 1]
    if "--progressive" in flags:
        kwargs["progressive"] = True
    for source in (mesh, (vertices, faces)):
        sample = pnd.sample_surface(source, rng=11, **kwargs)
        points = np.stack([table["x0"], table["x1"], table["x2"]], 1)
        assert np.array_equal(sample.points, points)
        assert np.array_equal(sample.faces, table["face"].astype(np.int64))
        b = np.stack([table["b0"], table["b1"], table["b2"]], 1)
        assert np.array_equal(sample.barycentrics, b)


def test_bad_meshes_and_settings_are_one_line_errors(tmp_path):
    vertices, faces, _ = torus(8, 6)
    nan = vertices.copy()
    nan[3, 1] = np.nan
    cases = [
        (dict(mesh=(nan, faces), radius=0.1), ValueError, "not finite"),
        (dict(mesh=(vertices, faces + len(vertices)), radius=0.1), ValueError, "range"),
        (dict(mesh=(vertices, faces - 1), radius=0.1), ValueError, "negative"),
        (dict(mesh=(vertices, faces.astype(float)), radius=0.1), ValueError, "integer"),
        (dict(mesh=(vertices, faces[:, :2]), radius=0.1), ValueError, "shape"),
        (dict(mesh=(vertices[:, :2], faces), radius=0.1), ValueError, "shape"),
        (dict(mesh=(vertices, faces[:0]), radius=0.1), ValueError, "empty"),
        (dict(mesh=(vertices, faces), radius=0.1, n=10), ValueError, "not both"),
        (dict(mesh=(vertices, faces)), ValueError, "sample_surface needs radius"),
        (dict(mesh=(vertices, faces), radius=-1.0), ValueError, "radius"),
        (dict(mesh=(vertices, faces), radius=float("nan")), ValueError, "radius"),
        (dict(mesh=(vertices, faces), n=-3), ValueError, "n"),
        (dict(mesh=(vertices, faces), radius=0.1, fill="walk"), ValueError, "walk"),
        (dict(mesh=(vertices, faces), n=10, fill="front"), ValueError, "fill applies only"),
        (dict(mesh=(vertices, faces), radius=0.1, progressive=True), ValueError,
         "progressive applies only with n"),
        (dict(mesh=(vertices, faces), radius=1e-9), ValueError, "max_points"),
        (dict(mesh=(vertices * 1e300, faces), radius=0.1), ValueError, "rescale"),
        # A side of about 2 at 10^15 is a few rounding steps wide there.
        (dict(mesh=(vertices + 1e15, faces), n=10), ValueError,
         "widest side must be at least 2^-40 times its largest vertex coordinate"),
        (dict(mesh=(vertices.astype(complex), faces), n=10), TypeError,
         "vertices must be an array of real numbers, got dtype complex128"),
        (dict(mesh=(vertices.astype(str), faces), n=10), TypeError,
         "vertices must be an array of real numbers, got dtype <U"),
        (dict(mesh=(vertices, np.array([[0, 1, 2**63 + 5]], dtype=np.uint64)), radius=0.1),
         ValueError, "out of range"),
        (dict(mesh=(vertices, faces), n=10, ratio=0.5), ValueError, "ratio"),
        (dict(mesh=(vertices, faces), n=30, max_points=20), ValueError,
         "n 30 is more than the point limit of 20 (max_points)"),
        (dict(mesh=(vertices, faces), n=30, max_points=100), ValueError,
         "n 30 draws 150 candidates at ratio 5, more than the point limit of 100"),
        (dict(mesh=(vertices, faces), radius=0.1, mapping="cubic"), ValueError, "cubic"),
        (dict(mesh={"vertices": vertices}, radius=0.1), ValueError, "faces"),
        (dict(mesh={"vertices": vertices, "faces": faces, "colour": 1}, radius=0.1),
         ValueError, "colour"),
        (dict(mesh=42, radius=0.1), TypeError, "mesh"),
        (dict(mesh=tmp_path / "missing.obj", radius=0.1), ValueError, "missing.obj"),
        (dict(mesh={"vertices": vertices, "faces": faces, "normals": vertices[:3]}, radius=0.1),
         ValueError, "vertex normal: expected 48 values"),
    ]
    for kwargs, error, words in cases:
        mesh = kwargs.pop("mesh")
        with pytest.raises(error) as caught:
            pnd.sample_surface(mesh, **kwargs)
        message = str(caught.value)
        assert words in message, (kwargs, message)
        assert "\n" not in message and "--" not in message, message


def _segment_distance(p, a, b):
    """Distance from p (3,) to each segment a–b (t, 3): the clamped projection."""
    ab = b - a
    t = np.clip(np.einsum("ij,ij->i", p - a, ab) / np.einsum("ij,ij->i", ab, ab), 0.0, 1.0)
    return np.linalg.norm(p - (a + t[:, None] * ab), axis=1)


def _brute_distance(vertices, faces, p):
    """Distance from p to the mesh by brute force, another way than the library's regions:
    the projection onto each triangle's plane where it falls inside (signs of the three
    sub-triangles' normals), else the nearest of its three sides."""
    a, b, c = (vertices[faces[:, k]] for k in range(3))
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n, axis=1)[:, None]
    height = np.einsum("ij,ij->i", p - a, n)
    q = p - height[:, None] * n
    inside = np.ones(len(faces), dtype=bool)
    for u, v in ((a, b), (b, c), (c, a)):
        inside &= np.einsum("ij,ij->i", np.cross(v - u, q - u), n) >= 0
    sides = np.minimum.reduce([_segment_distance(p, u, v) for u, v in ((a, b), (b, c), (c, a))])
    return np.where(inside, np.abs(height), sides).min()


def test_nearest_points_against_brute_force_and_on_the_surface():
    vertices, faces, _ = torus(24, 10)
    rng = np.random.default_rng(5)
    queries = rng.uniform(-1.8, 1.8, size=(120, 3))
    near = pnd.nearest_on_surface((vertices, faces), queries)
    assert isinstance(near, pnd.SurfaceNearest)
    assert near.points.shape == (120, 3) and near.faces.dtype == np.int64
    corners = vertices[faces[near.faces]]
    rebuilt = np.einsum("nk,nkj->nj", near.barycentrics, corners)
    assert np.allclose(rebuilt, near.points, atol=1e-12)
    assert np.all(near.barycentrics >= 0) and np.allclose(near.barycentrics.sum(1), 1.0)
    assert np.allclose(np.linalg.norm(queries - near.points, axis=1), near.distances, atol=1e-12)
    brute = np.array([_brute_distance(vertices, faces, p) for p in queries])
    assert np.allclose(near.distances, brute, rtol=1e-9, atol=1e-12)
    # Points of the surface are their own nearest; a sample snaps back onto its faces.
    sample = pnd.sample_surface((vertices, faces), n=200, rng=3)
    again = pnd.nearest_on_surface({"vertices": vertices, "faces": faces}, sample.points)
    assert again.distances.max() <= 1e-12
    assert np.allclose(again.points, sample.points, atol=1e-12)


def test_nearest_points_refuse_bad_input_in_one_line(tmp_path):
    vertices, faces, _ = torus(8, 6)
    for points, expected in [([[0.0, np.nan, 0.0]], "points"), (np.zeros((3, 2)), "shape")]:
        with pytest.raises(ValueError, match=expected) as caught:
            pnd.nearest_on_surface((vertices, faces), points)
        assert "\n" not in str(caught.value)
    with pytest.raises(ValueError, match=r"missing\.obj"):
        pnd.nearest_on_surface(str(tmp_path / "missing.obj"), [[0.0, 0.0, 0.0]])
    # A point farther than the largest float keeps its place in the output, at distance inf.
    far = pnd.nearest_on_surface((vertices, faces), [[0.0, 0.0, 0.0], [1.7e308, -1.7e308, 1e308]])
    assert far.points.shape == (2, 3) and far.distances[1] == np.inf
    empty = pnd.nearest_on_surface((vertices, faces), np.zeros((0, 3)))
    assert empty.points.shape == (0, 3) and empty.distances.shape == (0,)
