"""Type stubs of the native module (Rust, pyo3). The public names are re-exported by
``poisson_nd``; the functions here are its building blocks."""

from typing import Any, Callable, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

MAX_DIM: int
MAX_POINTS: int

def sample(
    name: str,
    params: dict[str, Any],
    d: int,
    l_bounds: Sequence[float],
    u_bounds: Sequence[float],
    periodic: bool,
    radius: Optional[float],
    n: Optional[int],
    seed: int,
    max_points: Optional[int] = None,
    field: Optional[Field] = None,
    region: Optional[Region] = None,
) -> tuple[npt.NDArray[np.float64], Optional[npt.NDArray[np.float64]], str, int]: ...
def catalogue() -> list[dict[str, Any]]: ...
def analyze_json(
    points: npt.NDArray[np.float64],
    l_bounds: Sequence[float],
    u_bounds: Sequence[float],
    periodic: bool,
    radius: Optional[float] = None,
    radii: Optional[npt.NDArray[np.float64]] = None,
    radius_rule: str = "max",
    probes: Optional[int] = None,
    seed: Optional[int] = None,
    reference_realisations: Optional[int] = None,
    bins: Optional[int] = None,
    spectrum_multiple: Optional[float] = None,
    exclude_axes: bool = False,
    max_pairs: Optional[int] = None,
    periodogram_multiple: Optional[float] = None,
) -> str: ...
def scatter(
    path: Optional[str] = None,
    table: Optional[str] = None,
    base: Optional[str] = None,
    out: Optional[str] = None,
) -> dict[str, Any]: ...

def sample_surface(
    path: Optional[str] = None,
    vertices: Optional[npt.ArrayLike] = None,
    faces: Optional[npt.ArrayLike] = None,
    normals: Optional[npt.ArrayLike] = None,
    uvs: Optional[npt.ArrayLike] = None,
    radius: Optional[float] = None,
    n: Optional[int] = None,
    seed: int = 0,
    fill: Optional[str] = None,
    ratio: Optional[float] = None,
    progressive: bool = False,
    density_texture: Optional[str] = None,
    rmin: Optional[float] = None,
    rmax: Optional[float] = None,
    mapping: Optional[str] = None,
    radius_rule: Optional[str] = None,
    max_points: Optional[int] = None,
) -> dict[str, Any]: ...

def nearest_on_surface(
    points: npt.ArrayLike,
    path: Optional[str] = None,
    vertices: Optional[npt.ArrayLike] = None,
    faces: Optional[npt.ArrayLike] = None,
) -> dict[str, Any]: ...

class Field:
    """A radius that varies over the box: an array gridded over the sampler's box."""

    @staticmethod
    def density(
        density: npt.ArrayLike,
        rmin: float,
        rmax: float,
        mapping: str = "lerp",
        pair_rule: str = "max",
    ) -> Field: ...
    @staticmethod
    def radius(radius: npt.ArrayLike, pair_rule: str = "max") -> Field: ...
    @property
    def d(self) -> int: ...
    @property
    def radius_bounds(self) -> tuple[float, float]: ...
    @property
    def pair_rule(self) -> str: ...

class Region:
    """Where points may go; combine with ``|``, ``&`` and ``-``."""

    @staticmethod
    def ball(centre: Sequence[float], radius: float) -> Region: ...
    @staticmethod
    def box(lower: Sequence[float], upper: Sequence[float]) -> Region: ...
    @staticmethod
    def mask(values: npt.ArrayLike, l_bounds: Sequence[float], u_bounds: Sequence[float]) -> Region: ...
    @staticmethod
    def polygons(polygons: Sequence[Sequence[Sequence[Sequence[float]]]]) -> Region: ...
    @staticmethod
    def geojson(text: str) -> Region: ...
    @staticmethod
    def mesh(vertices: Sequence[Sequence[float]], faces: npt.ArrayLike) -> Region: ...
    @staticmethod
    def sdf(
        function: Callable[[npt.NDArray[np.float64]], float],
        l_bounds: Sequence[float],
        u_bounds: Sequence[float],
        lipschitz: Optional[float] = 1.0,
    ) -> Region: ...
    def union(self, other: Region) -> Region: ...
    def intersection(self, other: Region) -> Region: ...
    def difference(self, other: Region) -> Region: ...
    def __or__(self, other: Region) -> Region: ...
    def __and__(self, other: Region) -> Region: ...
    def __sub__(self, other: Region) -> Region: ...
    @property
    def d(self) -> int: ...
    @property
    def bounding_box(self) -> tuple[list[float], list[float]]: ...
    def contains(self, points: npt.ArrayLike) -> npt.NDArray[np.bool_]: ...

class PoissonSet:
    """A live Poisson-disk set."""

    def __init__(
        self,
        l_bounds: Sequence[float],
        u_bounds: Sequence[float],
        radius: Optional[float] = None,
        *,
        field: Optional[Field] = None,
        periodic: bool = False,
        k: Optional[int] = None,
        max_points: Optional[int] = None,
        seed: int = 0,
    ) -> None: ...
    def insert(self, point: Sequence[float]) -> Optional[int]: ...
    def conflict(self, point: Sequence[float]) -> Optional[tuple[int, float]]: ...
    def remove(self, id: int) -> npt.NDArray[np.float64]: ...
    def __getitem__(self, id: int) -> npt.NDArray[np.float64]: ...
    def __contains__(self, id: int) -> bool: ...
    def __len__(self) -> int: ...
    def fill(self, region: Optional[Region] = None) -> dict[str, Any]: ...
    def nearest(self, point: Sequence[float]) -> Optional[tuple[int, float]]: ...
    def within(self, point: Sequence[float], distance: float) -> list[int]: ...
    @property
    def points(self) -> npt.NDArray[np.float64]: ...
    @property
    def ids(self) -> npt.NDArray[np.uint64]: ...
    @property
    def radii(self) -> Optional[npt.NDArray[np.float64]]: ...
    @property
    def d(self) -> int: ...
    def save(self, path: str) -> None: ...
    @staticmethod
    def load(path: str, *, field: Optional[Field] = None, seed: int = 0) -> PoissonSet: ...

class World:
    """A deterministic chunked Poisson-disk world."""

    def __init__(
        self,
        d: int,
        radius: float,
        seed: int = 0,
        *,
        k: Optional[int] = None,
        chunk_side: Optional[float] = None,
        l_bounds: Optional[Sequence[float]] = None,
        u_bounds: Optional[Sequence[float]] = None,
        origin: Optional[Sequence[float]] = None,
        periodic: bool = False,
        max_points: Optional[int] = None,
        threads: Optional[int] = None,
    ) -> None: ...
    def chunk(self, c: Sequence[int]) -> npt.NDArray[np.float64]: ...
    def chunks(self, chunks: Sequence[Sequence[int]]) -> list[npt.NDArray[np.float64]]: ...
    def block(
        self, lo: Sequence[int], hi: Sequence[int]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]: ...
    def chunk_of(self, point: Sequence[float]) -> list[int]: ...
    def stages(
        self, lo: Sequence[int], hi: Sequence[int], block: Union[int, Sequence[int]]
    ) -> WorldStages: ...
    @property
    def settings(self) -> dict[str, Any]: ...
    @property
    def chunk_side(self) -> list[float]: ...
    @property
    def torus_chunks(self) -> Optional[list[int]]: ...
    @property
    def d(self) -> int: ...
    @property
    def radius(self) -> float: ...
    @property
    def seed(self) -> int: ...
    def stats(self) -> dict[str, int]: ...
    def clear_cache(self) -> None: ...

_Cells = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]

class WorldStages:
    """The staged plan of a range of a World's chunks, split into blocks."""

    @property
    def shape(self) -> list[int]: ...
    def chunks_of(self, block: Sequence[int]) -> tuple[list[int], list[int]]: ...
    def cells(self, block: Sequence[int], stratum: Optional[int] = None) -> npt.NDArray[np.int64]: ...
    def neighbours(self, block: Sequence[int]) -> list[list[int]]: ...
    def chunk_senders(self, block: Sequence[int]) -> list[list[int]]: ...
    def decide(self, block: Sequence[int], stratum: int, given: Sequence[_Cells]) -> _Cells: ...
    def export(self, cells: Sequence[_Cells], block: Sequence[int]) -> _Cells: ...
    def overlap(self, cells: Sequence[_Cells], block: Sequence[int]) -> _Cells: ...
    def chunks(
        self, block: Sequence[int], cells: Sequence[_Cells]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]: ...

def chunked_world_seed(seed: int) -> int: ...
