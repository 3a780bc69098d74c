"""The samplers as engines, one class per sampler of the catalogue.

Generated from the sampler catalogue (experiments/src/catalogue/) by
`POISSON_ND_REGENERATE=1 cargo test --release -p experiments --test it catalogue`;
edit the catalogue, not this file.
"""

from __future__ import annotations

from typing import Literal, Optional

from ._engines import Bounds, Engine, SeedLike, _RadiusDriven, _Sequence
from ._native import Field, Region

__all__ = [
    "Bridson",
    "ChunkedBridson",
    "DartThrowing",
    "DartThrowingGrid",
    "Maximal",
    "BestCandidate",
    "SampleElimination",
    "Halton",
    "HaltonRandomized",
    "Sobol",
    "SobolOwen",
    "Pmj02",
    "JitteredGrid",
    "WhiteNoise",
    "Fpo",
    "Lloyd",
    "GaussianBlueNoise",
    "BridsonRecent",
]


class Bridson(_RadiusDriven):
    """Bridson's algorithm: Poisson-disk, fills the box at the radius.

    The sampler ``bridson`` of ``experiments sample``, with the same points for the same seed;
    radius-driven (``fill_space()`` fills the box; ``random(n)`` stops at n points); takes a
    radius ``field``, a ``region``, a ``periodic`` box; 1D to 8D.

    Parameters
    ----------
    k : int, optional
        Attempts per active point, k (default 30; at least 1).
    grid : {"coarse", "fine"}, optional
        Background grid: coarse (cells of side r) or fine (side r/√D); the points are the same,
        only the speed differs (default coarse).
    front : {"uniform", "recent"}
        "uniform" is ``bridson`` (class ``Bridson``), "recent" is ``bridson-recent`` (class
        ``BridsonRecent``); default "uniform".
    """

    name = "bridson"
    _takes_field = True
    front: str
    _switch = ("front", "uniform", {"uniform": "bridson", "recent": "bridson-recent"})

    def __init__(
        self,
        d: int,
        radius: Optional[float] = None,
        *,
        field: Optional[Field] = None,
        k: Optional[int] = None,
        grid: Optional[Literal["coarse", "fine"]] = None,
        front: Literal["uniform", "recent"] = "uniform",
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        region: Optional[Region] = None,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            radius=radius,
            field=field,
            params={"k": k, "grid": grid},
            switch=front,
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            region=region,
            max_points=max_points,
            rng=rng,
        )


class ChunkedBridson(_RadiusDriven):
    """Bridson's algorithm chunk by chunk on all cores: Poisson-disk, fills the box at the radius,
    the same points for every thread count (no region or density map).

    The sampler ``chunked-bridson`` of ``experiments sample``, with the same points for the same
    seed; radius-driven (``fill_space()`` fills the box; ``random(n)`` stops at n points); takes
    a ``periodic`` box; 1D to 8D.

    Parameters
    ----------
    k : int, optional
        Attempts per active point, k (default 30; at least 1).
    chunk_side : float, optional
        The side of a chunk, in the box's units (default 64 radii in 1D and 2D, 32 from 3D; at
        least the smallest side for the radius, (2 + √2·(D − 1))·r). A periodic box takes the
        nearest side that tiles it with whole chunks, at least two per axis.
    threads : int, optional
        Threads (default all cores; 1 to 1024). The points are the same for every count.
    """

    name = "chunked-bridson"

    def __init__(
        self,
        d: int,
        radius: float,
        *,
        k: Optional[int] = None,
        chunk_side: Optional[float] = None,
        threads: Optional[int] = None,
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            radius=radius,
            params={"k": k, "chunk_side": chunk_side, "threads": threads},
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            max_points=max_points,
            rng=rng,
        )


class DartThrowing(_RadiusDriven):
    """Dart throwing, every dart checked against every point: Poisson-disk, O(N²).

    The sampler ``dart-throwing`` of ``experiments sample``, with the same points for the same
    seed; radius-driven (``fill_space()`` fills the box; ``random(n)`` stops at n points); takes
    a radius ``field``, a ``region``, a ``periodic`` box; 1D to 8D.

    Parameters
    ----------
    max_misses : int, optional
        Darts in a row that may miss before the run ends (default 10000; at least 1).
    grid : {False, True}
        False is ``dart-throwing`` (class ``DartThrowing``), True is ``dart-throwing-grid``
        (class ``DartThrowingGrid``); default False.
    """

    name = "dart-throwing"
    _takes_field = True
    grid: bool
    _switch = ("grid", False, {False: "dart-throwing", True: "dart-throwing-grid"})

    def __init__(
        self,
        d: int,
        radius: Optional[float] = None,
        *,
        field: Optional[Field] = None,
        max_misses: Optional[int] = None,
        grid: bool = False,
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        region: Optional[Region] = None,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            radius=radius,
            field=field,
            params={"max_misses": max_misses},
            switch=grid,
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            region=region,
            max_points=max_points,
            rng=rng,
        )


class DartThrowingGrid(_RadiusDriven):
    """Dart throwing with a background grid: the same points as dart-throwing, in O(N).

    The sampler ``dart-throwing-grid`` of ``experiments sample``, with the same points for the
    same seed; radius-driven (``fill_space()`` fills the box; ``random(n)`` stops at n points);
    takes a radius ``field``, a ``region``, a ``periodic`` box; 1D to 8D.

    Parameters
    ----------
    max_misses : int, optional
        Darts in a row that may miss before the run ends (default 10000; at least 1).
    """

    name = "dart-throwing-grid"
    _takes_field = True

    def __init__(
        self,
        d: int,
        radius: Optional[float] = None,
        *,
        field: Optional[Field] = None,
        max_misses: Optional[int] = None,
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        region: Optional[Region] = None,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            radius=radius,
            field=field,
            params={"max_misses": max_misses},
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            region=region,
            max_points=max_points,
            rng=rng,
        )


class Maximal(_RadiusDriven):
    """Maximal Poisson-disk sampling: dart throwing run to saturation (Ebeida et al.), fills the
    box at the radius until not one more point fits.

    The sampler ``maximal`` of ``experiments sample``, with the same points for the same seed;
    radius-driven (``fill_space()`` fills the box; ``random(n)`` stops at n points); takes a
    ``region``, a ``periodic`` box; 1D to 6D.
    """

    name = "maximal"

    def __init__(
        self,
        d: int,
        radius: float,
        *,
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        region: Optional[Region] = None,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            radius=radius,
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            region=region,
            max_points=max_points,
            rng=rng,
        )


class BestCandidate(Engine):
    """Mitchell's best candidate: the farthest of m candidates per point (count-driven).

    The sampler ``best-candidate`` of ``experiments sample``, with the same points for the same
    seed; count-driven (``random(n)`` draws n points); takes a ``region``, a ``periodic`` box;
    1D to 8D.

    Parameters
    ----------
    candidates : int, optional
        Candidates per new point, m (default 10; at least 1).
    growing_candidates : bool, optional
        m·i candidates for the i-th point (Mitchell 1991) instead of m (default false).
    """

    name = "best-candidate"

    def __init__(
        self,
        d: int,
        *,
        candidates: Optional[int] = None,
        growing_candidates: Optional[bool] = None,
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        region: Optional[Region] = None,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            params={"candidates": candidates, "growing_candidates": growing_candidates},
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            region=region,
            max_points=max_points,
            rng=rng,
        )


class SampleElimination(Engine):
    """Weighted sample elimination (Yuksel 2015): exactly N well-spread points out of ratio·N
    uniform candidates (count-driven).

    The sampler ``sample-elimination`` of ``experiments sample``, with the same points for the
    same seed; count-driven (``random(n)`` draws n points); takes a ``region``, a ``periodic``
    box; 1D to 8D.

    Parameters
    ----------
    ratio : float, optional
        Candidates per output point, M / N (default 5; finite and at least 1).
    progressive : bool, optional
        Order the output so that every prefix of N/2^k points is well spread (default false).
    """

    name = "sample-elimination"

    def __init__(
        self,
        d: int,
        *,
        ratio: Optional[float] = None,
        progressive: Optional[bool] = None,
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        region: Optional[Region] = None,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            params={"ratio": ratio, "progressive": progressive},
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            region=region,
            max_points=max_points,
            rng=rng,
        )


class Halton(_Sequence):
    """The Halton sequence, deterministic (count-driven).

    The sampler ``halton`` of ``experiments sample``, with the same points for the same seed;
    count-driven (``random(n)`` draws n points); takes a ``region``, a ``periodic`` box; 1D to
    8D.

    Parameters
    ----------
    skip : int, optional
        Indices skipped at the start of the sequence: the first point has index 1 + skip
        (default 0).
    randomized : {False, True}
        False is ``halton`` (class ``Halton``), True is ``halton-randomized`` (class
        ``HaltonRandomized``); default False.
    """

    name = "halton"
    randomized: bool
    _switch = ("randomized", False, {False: "halton", True: "halton-randomized"})

    def __init__(
        self,
        d: int,
        *,
        skip: Optional[int] = None,
        randomized: bool = False,
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        region: Optional[Region] = None,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            params={"skip": skip},
            switch=randomized,
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            region=region,
            max_points=max_points,
            rng=rng,
        )


class HaltonRandomized(_Sequence):
    """The Halton sequence scrambled by random digit permutations (count-driven).

    The sampler ``halton-randomized`` of ``experiments sample``, with the same points for the
    same seed; count-driven (``random(n)`` draws n points); takes a ``region``, a ``periodic``
    box; 1D to 8D.

    Parameters
    ----------
    skip : int, optional
        Indices skipped at the start of the sequence: the first point has index 1 + skip
        (default 0).
    """

    name = "halton-randomized"

    def __init__(
        self,
        d: int,
        *,
        skip: Optional[int] = None,
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        region: Optional[Region] = None,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            params={"skip": skip},
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            region=region,
            max_points=max_points,
            rng=rng,
        )


class Sobol(_Sequence):
    """The Sobol sequence with Joe–Kuo direction numbers, deterministic, up to 1024 dimensions
    (count-driven).

    The sampler ``sobol`` of ``experiments sample``, with the same points for the same seed;
    count-driven (``random(n)`` draws n points); takes a ``region``, a ``periodic`` box; 1D to
    8D.

    Parameters
    ----------
    skip : int, optional
        Indices skipped at the start of the sequence: the first point has index skip (default 0;
        a skip that is a multiple of 2^m keeps the nets of 2^m points).
    scramble : {False, True}
        False is ``sobol`` (class ``Sobol``), True is ``sobol-owen`` (class ``SobolOwen``);
        default True.
    """

    name = "sobol"
    scramble: bool
    _switch = ("scramble", True, {False: "sobol", True: "sobol-owen"})

    def __init__(
        self,
        d: int,
        *,
        skip: Optional[int] = None,
        scramble: bool = True,
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        region: Optional[Region] = None,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            params={"skip": skip},
            switch=scramble,
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            region=region,
            max_points=max_points,
            rng=rng,
        )


class SobolOwen(_Sequence):
    """The Sobol sequence under a hash-based Owen (nested uniform) scramble (count-driven).

    The sampler ``sobol-owen`` of ``experiments sample``, with the same points for the same
    seed; count-driven (``random(n)`` draws n points); takes a ``region``, a ``periodic`` box;
    1D to 8D.

    Parameters
    ----------
    skip : int, optional
        Indices skipped at the start of the sequence: the first point has index skip (default 0;
        a skip that is a multiple of 2^m keeps the nets of 2^m points).
    """

    name = "sobol-owen"

    def __init__(
        self,
        d: int,
        *,
        skip: Optional[int] = None,
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        region: Optional[Region] = None,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            params={"skip": skip},
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            region=region,
            max_points=max_points,
            rng=rng,
        )


class Pmj02(_Sequence):
    """A progressive multi-jittered (0,2) sequence, 1D or 2D: one point in every elementary
    rectangle at every power of two (count-driven).

    The sampler ``pmj02`` of ``experiments sample``, with the same points for the same seed;
    count-driven (``random(n)`` draws n points); takes a ``region``, a ``periodic`` box; 1D to
    2D.

    Parameters
    ----------
    skip : int, optional
        Indices skipped at the start of the sequence: the first point has index skip (default 0;
        a skip that is a multiple of 2^m keeps the nets of 2^m points).
    """

    name = "pmj02"

    def __init__(
        self,
        d: int,
        *,
        skip: Optional[int] = None,
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        region: Optional[Region] = None,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            params={"skip": skip},
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            region=region,
            max_points=max_points,
            rng=rng,
        )


class JitteredGrid(Engine):
    """One uniform point in each cell of a near-cubic grid (count-driven).

    The sampler ``jittered-grid`` of ``experiments sample``, with the same points for the same
    seed; count-driven (``random(n)`` draws n points); takes a ``region``, a ``periodic`` box;
    1D to 8D.
    """

    name = "jittered-grid"

    def __init__(
        self,
        d: int,
        *,
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        region: Optional[Region] = None,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            region=region,
            max_points=max_points,
            rng=rng,
        )


class WhiteNoise(Engine):
    """Independent uniform points, the baseline (count-driven).

    The sampler ``white-noise`` of ``experiments sample``, with the same points for the same
    seed; count-driven (``random(n)`` draws n points); takes a ``region``, a ``periodic`` box;
    1D to 8D.
    """

    name = "white-noise"

    def __init__(
        self,
        d: int,
        *,
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        region: Optional[Region] = None,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            region=region,
            max_points=max_points,
            rng=rng,
        )


class Fpo(Engine):
    """Farthest-point optimisation (Schlömer, Heck & Deussen 2011): white noise whose points move,
    one by one, to the centre of the largest empty circle; 2D (count-driven).

    The sampler ``fpo`` of ``experiments sample``, with the same points for the same seed;
    count-driven (``random(n)`` draws n points); takes a ``periodic`` box; 2D only.

    Parameters
    ----------
    iterations : int, optional
        Iterations: passes in which every point moves once (default: the library's, 100 for FPO
        and 50 for Lloyd; 0 returns the white-noise start).
    """

    name = "fpo"

    def __init__(
        self,
        d: int,
        *,
        iterations: Optional[int] = None,
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            params={"iterations": iterations},
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            max_points=max_points,
            rng=rng,
        )


class Lloyd(Engine):
    """Lloyd relaxation: every point moves to the centroid of its Voronoi cell, `iterations` times,
    from white noise; 2D, exact cells (count-driven).

    The sampler ``lloyd`` of ``experiments sample``, with the same points for the same seed;
    count-driven (``random(n)`` draws n points); takes a ``periodic`` box; 2D only.

    Parameters
    ----------
    iterations : int, optional
        Iterations: passes in which every point moves once (default: the library's, 100 for FPO
        and 50 for Lloyd; 0 returns the white-noise start).
    """

    name = "lloyd"

    def __init__(
        self,
        d: int,
        *,
        iterations: Optional[int] = None,
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            params={"iterations": iterations},
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            max_points=max_points,
            rng=rng,
        )


class GaussianBlueNoise(Engine):
    """Gaussian blue noise (Ahmed, Ren & Wonka 2022): white noise descending the energy of Gaussian
    repulsions, any dimension (count-driven).

    The sampler ``gaussian-blue-noise`` of ``experiments sample``, with the same points for the
    same seed; count-driven (``random(n)`` draws n points); takes a ``periodic`` box; 1D to 8D.

    Parameters
    ----------
    iterations : int, optional
        Iterations of the descent (default 300; 0 returns the white-noise start).
    sigma : float, optional
        The Gaussian's σ in units of the mean spacing (V/N)^(1/D) (default 0.85; in (0, 2]).
    """

    name = "gaussian-blue-noise"

    def __init__(
        self,
        d: int,
        *,
        iterations: Optional[int] = None,
        sigma: Optional[float] = None,
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            params={"iterations": iterations, "sigma": sigma},
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            max_points=max_points,
            rng=rng,
        )


class BridsonRecent(_RadiusDriven):
    """Bridson's algorithm, each step around one of the 16 newest active points: the same
    guarantees, other points, faster where the grid outgrows the caches. (Last, so that the
    samplers before it keep their colours in the figures.).

    The sampler ``bridson-recent`` of ``experiments sample``, with the same points for the same
    seed; radius-driven (``fill_space()`` fills the box; ``random(n)`` stops at n points); takes
    a radius ``field``, a ``region``, a ``periodic`` box; 1D to 8D.

    Parameters
    ----------
    k : int, optional
        Attempts per active point, k (default 30; at least 1).
    grid : {"coarse", "fine"}, optional
        Background grid: coarse (cells of side r) or fine (side r/√D); the points are the same,
        only the speed differs (default coarse).
    """

    name = "bridson-recent"
    _takes_field = True

    def __init__(
        self,
        d: int,
        radius: Optional[float] = None,
        *,
        field: Optional[Field] = None,
        k: Optional[int] = None,
        grid: Optional[Literal["coarse", "fine"]] = None,
        l_bounds: Bounds = None,
        u_bounds: Bounds = None,
        periodic: bool = False,
        region: Optional[Region] = None,
        max_points: Optional[int] = None,
        rng: SeedLike = None,
    ) -> None:
        super().__init__(
            d,
            radius=radius,
            field=field,
            params={"k": k, "grid": grid},
            l_bounds=l_bounds,
            u_bounds=u_bounds,
            periodic=periodic,
            region=region,
            max_points=max_points,
            rng=rng,
        )
