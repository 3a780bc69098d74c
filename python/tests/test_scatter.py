"""scatter: the example scene by path, as a dict, structured, with out=, and against
`experiments scatter`."""

from __future__ import annotations

import json
import tomllib

import numpy as np
import pytest

import poisson_nd as pnd
from conftest import EXAMPLES

SCENE = EXAMPLES / "scatter" / "scene.toml"
KEYS = ("class", "position", "rotation", "scale", "radius")


@pytest.fixture(scope="module")
def by_path():
    return pnd.scatter(str(SCENE))


def assert_same(a, b):
    for key in KEYS:
        assert np.array_equal(a[key], b[key]), key
    assert a["class_names"] == b["class_names"]


def test_scene_by_path(by_path):
    n = len(by_path["class"])
    assert n > 1000
    assert by_path["class"].dtype == np.int64
    assert by_path["position"].shape == (n, 3) and by_path["rotation"].shape == (n, 4)
    assert by_path["scale"].shape == (n,) and by_path["radius"].shape == (n,)
    assert by_path["class_names"] == ["tree", "shrub", "rock"]
    assert set(np.unique(by_path["class"])) <= {0, 1, 2}
    # Unit quaternions, x and z within the 1000 m terrain.
    np.testing.assert_allclose(np.linalg.norm(by_path["rotation"], axis=1), 1.0, atol=1e-9)
    assert np.all((by_path["position"][:, [0, 2]] >= 0) & (by_path["position"][:, [0, 2]] <= 1000))
    assert np.array_equal(pnd.scatter(SCENE)["position"], by_path["position"])  # a PathLike


def test_scene_as_dict_with_cwd(by_path, monkeypatch):
    with SCENE.open("rb") as f:
        table = tomllib.load(f)
    monkeypatch.chdir(SCENE.parent)
    assert_same(pnd.scatter(table), by_path)


def test_scene_as_dict_with_absolute_paths(by_path, tmp_path, monkeypatch):
    with SCENE.open("rb") as f:
        table = tomllib.load(f)
    folder = SCENE.parent
    table["terrain"]["heightmap"] = str(folder / table["terrain"]["heightmap"])
    for cls in table["class"]:
        for key in ("density", "region"):
            if key in cls:
                cls[key] = str(folder / cls[key])
    monkeypatch.chdir(tmp_path)
    assert_same(pnd.scatter(table), by_path)
    # Another seed, other instances.
    table["seed"] = table["seed"] + 1
    other = pnd.scatter(table)
    assert not np.array_equal(other["position"], by_path["position"])


def test_structured(by_path):
    records, names = pnd.scatter(str(SCENE), structured=True)
    assert records.dtype == pnd.INSTANCE_DTYPE
    assert names == by_path["class_names"]
    for key in KEYS:
        assert np.array_equal(records[key], by_path[key]), key


def test_out_writes_the_cli_files(by_path, run_cli, tmp_path):
    out = tmp_path / "py-out"
    result = pnd.scatter(str(SCENE), out=out)
    assert_same(result, by_path)
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["instances.json", "instances.gltf", "instances.bin", "preview.svg"])
    ours = json.loads((out / "instances.json").read_text())
    cli_out = tmp_path / "cli-out"
    run_cli("scatter", SCENE, "--out", cli_out)
    theirs = json.loads((cli_out / "instances.json").read_text())
    assert len(theirs["instances"]) == len(by_path["class"])
    assert ours == theirs
    assert theirs["classes"] == by_path["class_names"]
    # Every instance as the command line wrote it, bit for bit.
    for i in (0, len(by_path["class"]) // 2, len(by_path["class"]) - 1):
        inst = theirs["instances"][i]
        assert inst["class"] == by_path["class_names"][by_path["class"][i]]
        assert inst["position"] == by_path["position"][i].tolist()
        assert inst["rotation"] == by_path["rotation"][i].tolist()
        assert inst["scale"] == by_path["scale"][i]
        assert inst["radius"] == by_path["radius"][i]
    for name in ("instances.gltf", "instances.bin"):
        assert (out / name).read_bytes() == (cli_out / name).read_bytes()


def test_scatter_errors(tmp_path):
    with pytest.raises(TypeError, match="scene must be a path or a dict"):
        pnd.scatter(5)
    with pytest.raises(ValueError, match="missing field `terrain`"):
        pnd.scatter({"seed": 1})
    with pytest.raises(ValueError, match="heightmap"):
        pnd.scatter({"terrain": {}})
    with pytest.raises(ValueError, match="cannot read"):
        pnd.scatter(str(tmp_path / "missing.toml"))


def test_a_mesh_terrain_scene():
    # The example island: a mesh terrain (OBJ) with a lagoon cut out of it.
    island = pnd.scatter(str(EXAMPLES / "scatter" / "island.toml"))
    assert island["class_names"] == ["tree", "shrub", "rock"]
    x, y, z = island["position"].T
    assert len(x) > 1000
    # On the island (the mesh's cells reach 92 m from the centre, 5 m cells), never in the
    # lagoon (cells whose centre is within 14 m of (35, -20) are missing), on its surface.
    assert np.all(np.hypot(x, z) < 92 + 3.6)
    assert np.all(np.hypot(x - 35, z + 20) > 14 - 3.6)
    assert np.all((y >= 0) & (y <= 35))
    # The same scene as a dict, paths from the scene's folder.
    with (EXAMPLES / "scatter" / "island.toml").open("rb") as f:
        table = tomllib.load(f)
    table["terrain"]["mesh"] = str(EXAMPLES / "scatter" / "island.obj")
    for cls in table["class"]:
        if "density" in cls:
            cls["density"] = str(EXAMPLES / "scatter" / cls["density"])
    assert_same(pnd.scatter(table), island)
