"""World scatter on a heightmap: a scene run as ``experiments scatter`` runs it."""

from __future__ import annotations

import json
import os
from typing import Any, Mapping, Optional, Union

import numpy as np
import numpy.typing as npt

from . import _native

__all__ = ["scatter", "INSTANCE_DTYPE"]

#: The dtype of ``scatter(..., structured=True)``: one record per instance.
INSTANCE_DTYPE = np.dtype([
    ("class", np.int64),
    ("position", np.float64, (3,)),
    ("rotation", np.float64, (4,)),
    ("scale", np.float64),
    ("radius", np.float64),
])


def scatter(
    scene: Union[str, "os.PathLike[str]", Mapping[str, Any]],
    *,
    out: Union[str, "os.PathLike[str]", None] = None,
    structured: bool = False,
) -> Any:
    """Runs a scene: the path of its TOML file, or the same table as a dict (its file paths
    relative to the current folder). Returns a dict of arrays, ``class`` (the class's index),
    ``position`` (n, 3: x, y up, z), ``rotation`` (n, 4: quaternion x, y, z, w), ``scale``,
    ``radius``, and ``class_names``; with ``structured=True`` a pair (records of
    ``INSTANCE_DTYPE``, class names). With ``out``, also writes the command line's files
    (instances.json, instances.gltf, instances.bin, preview.svg) into that folder."""
    out_path = None if out is None else os.fspath(out)
    if isinstance(scene, Mapping):
        result = _native.scatter(None, json.dumps(scene), os.getcwd(), out_path)
    elif isinstance(scene, (str, os.PathLike)):
        result = _native.scatter(os.fspath(scene), None, None, out_path)
    else:
        raise TypeError(f"scene must be a path or a dict, got {type(scene).__name__}")
    if not structured:
        return result
    records: npt.NDArray[Any] = np.empty(len(result["class"]), dtype=INSTANCE_DTYPE)
    for key in ("class", "position", "rotation", "scale", "radius"):
        records[key] = result[key]
    return records, result["class_names"]
