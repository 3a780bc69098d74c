"""What every engine has, in the style of ``scipy.stats.qmc``: the box, the seed, the runs.

The engine classes themselves, one per sampler, are generated from the sampler catalogue into
``_samplers.py``.
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from . import _native
from ._native import Field, Region

__all__ = ["Engine", "Sample", "SeedLike", "Bounds"]

#: What ``rng=`` takes: an int seed, a ``numpy.random.Generator`` (drawn once for a seed), or
#: None (a fresh seed from the operating system, kept in ``engine.seed``).
SeedLike = Union[int, np.integer, np.random.Generator, None]
Bounds = Optional[Sequence[float]]


class Sample(NamedTuple):
    """One run of an engine: the points, the per-point radii (with a radius field, else
    None), why the run stopped, the candidates it drew, and the seed that made it."""

    points: npt.NDArray[np.float64]
    radii: Optional[npt.NDArray[np.float64]]
    stop: str
    attempts: int
    seed: int


def _seed_of(rng: SeedLike) -> int:
    if rng is None:
        return int(np.random.default_rng().integers(0, 2**63))
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(0, 2**63))
    if isinstance(rng, (bool, np.bool_)) or not isinstance(rng, (int, np.integer)):
        raise TypeError(f"rng must be an int seed, a numpy.random.Generator or None, got {type(rng).__name__}")
    seed = int(rng)
    if not 0 <= seed < 2**64:
        raise ValueError(f"rng must be a seed between 0 and 2**64 - 1, got {seed}")
    return seed


def _floats(values: Sequence[float], what: str) -> list[float]:
    try:
        return [float(v) for v in np.asarray(values, dtype=np.float64).reshape(-1)]
    except (TypeError, ValueError) as e:
        raise TypeError(f"{what} must be a sequence of numbers: {e}") from None


class Engine:
    """What every sampler has: the dimension ``d``, the box ``[l_bounds, u_bounds)`` in the
    user's units (default the unit cube; with a region and no bounds, the region's bounding
    box), ``periodic`` (a torus), an optional ``region``, ``max_points`` (the most points one
    run may make, default 10**8) and the seed from ``rng``.

    The engines mirror ``scipy.stats.qmc.QMCEngine`` (``d``, ``random(n)``, ``reset()``,
    ``num_generated``) without subclassing it, so scipy stays optional; their points work with
    ``qmc.scale`` and ``qmc.discrepancy``.

    Seeds: the j-th run since construction or ``reset()`` (counting from 0) uses the seed
    ``seed + j``, so ``experiments sample <name> --seed S`` writes the points of the first
    run, bit for bit. The Halton engines continue their sequence instead, as scipy's do.
    """

    #: The sampler's name, as the command line and the report's configuration spell it.
    name: str = ""
    #: Whether the sampler is radius-driven (fills the box at a radius) or count-driven.
    radius_driven: bool = False
    #: A keyword that selects a variant of the sampler (``Bridson(front="recent")``): the
    #: keyword, its default, and the sampler each of its values selects.
    _switch: ClassVar[Optional[tuple[str, Any, dict[Any, str]]]] = None
    #: Whether a radius field may replace the radius.
    _takes_field: ClassVar[bool] = False

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
        radius: Optional[float] = None,
        field: Optional[Field] = None,
        params: Optional[dict[str, Any]] = None,
        switch: Any = None,
    ) -> None:
        if self._switch is not None:
            keyword, default, names = self._switch
            value = bool(switch) if isinstance(default, bool) else switch
            if value not in names:
                raise ValueError(f"{keyword} must be {' or '.join(map(repr, names))}, got {value!r}")
            self.name = names[value]
            setattr(self, keyword, value)
        if self.radius_driven:
            _radius_or_field(radius, field, self.name, self._takes_field)
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
            raise TypeError(f"d must be an int, got {type(d).__name__}")
        self.d = int(d)
        if not 1 <= self.d <= _native.MAX_DIM:
            raise ValueError(f"d must be between 1 and {_native.MAX_DIM}, got {self.d}")
        if region is not None and not isinstance(region, Region):
            raise TypeError(f"region must be a poisson_nd.Region, got {type(region).__name__}")
        if region is not None and region.d != self.d:
            raise ValueError(f"the region is {region.d}-dimensional, but the box is {self.d}-dimensional")
        if max_points is not None:
            if isinstance(max_points, bool) or not isinstance(max_points, (int, np.integer)):
                raise TypeError(f"max_points must be an int, got {type(max_points).__name__}")
            if max_points < 0:
                raise ValueError(f"max_points must not be negative, got {max_points}")
        if field is not None and not isinstance(field, Field):
            raise TypeError(f"field must be a poisson_nd.Field, got {type(field).__name__}")
        if (l_bounds is None) != (u_bounds is None):
            raise ValueError("give both l_bounds and u_bounds, or neither")
        if l_bounds is None or u_bounds is None:
            if region is not None:
                lower, upper = region.bounding_box
            else:
                lower, upper = [0.0] * self.d, [1.0] * self.d
        else:
            lower, upper = _floats(l_bounds, "l_bounds"), _floats(u_bounds, "u_bounds")
        for what, bound in (("l_bounds", lower), ("u_bounds", upper)):
            if len(bound) != self.d:
                raise ValueError(f"{what} must have d = {self.d} values, got {len(bound)}")
        self._lower, self._upper = [float(v) for v in lower], [float(v) for v in upper]
        self.l_bounds = np.array(self._lower, dtype=np.float64)
        self.u_bounds = np.array(self._upper, dtype=np.float64)
        self.periodic = bool(periodic)
        self.region = region
        self.max_points = None if max_points is None else int(max_points)
        self.radius = None if radius is None else float(radius)
        self.field = field
        self.params = {k: v for k, v in (params or {}).items() if v is not None}
        self.seed = _seed_of(rng)
        self.num_generated = 0
        self._runs = 0
        # Fail at construction, as scipy does, rather than at the first draw.
        self._run(0, check_only=True)

    def _run(self, n: Optional[int], check_only: bool = False) -> Sample:
        seed = (self.seed + self._runs) % 2**64
        if check_only:
            n = 0
        points, radii, stop, attempts = _native.sample(
            self.name,
            self._native_params(),
            self.d,
            self._lower,
            self._upper,
            self.periodic,
            self.radius,
            n,
            seed,
            self.max_points,
            self.field,
            self.region,
        )
        if not check_only:
            self._runs += 1
            self.num_generated += len(points)
        return Sample(points, radii, stop, attempts, seed)

    def _native_params(self) -> dict[str, Any]:
        return self.params

    def sample(self, n: Optional[int] = None) -> Sample:
        """One run with everything it returns: ``n`` points (count-driven samplers; for a
        radius-driven one a cap, and ``None`` fills the box), the per-point radii, the stop
        reason, the attempts and the seed."""
        if n is not None:
            n = _count(n)
        elif not self.radius_driven:
            raise ValueError(f"'{self.name}' is count-driven: give n")
        return self._run(n)

    def random(self, n: int = 1) -> npt.NDArray[np.float64]:
        """``n`` points of shape (n, d): exactly n for a count-driven sampler (the jittered
        grid: the largest near-cubic grid with at most n cells), at most n for a
        radius-driven one (its run stops at n points)."""
        return self.sample(_count(n)).points

    def reset(self) -> "Engine":
        """Back to the first run: the next call gives the same points as the first did."""
        self._runs = 0
        self.num_generated = 0
        return self

    def _repr_params(self) -> list[str]:
        parts = [f"{k}={v!r}" for k, v in self.params.items()]
        if self._switch is not None:
            keyword, default, _ = self._switch
            value = getattr(self, keyword)
            if value != default:
                parts.append(f"{keyword}={value!r}")
        return parts

    def __repr__(self) -> str:
        parts = [f"d={self.d}"]
        if self.radius is not None:
            parts.append(f"radius={self.radius!r}")
        if self.field is not None:
            parts.append(f"field={self.field!r}")
        parts += self._repr_params()
        parts.append(f"l_bounds={self.l_bounds.tolist()}")
        parts.append(f"u_bounds={self.u_bounds.tolist()}")
        if self.periodic:
            parts.append("periodic=True")
        if self.region is not None:
            parts.append(f"region={self.region!r}")
        if self.max_points is not None:
            parts.append(f"max_points={self.max_points}")
        parts.append(f"rng={self.seed}")
        return f"{type(self).__name__}({', '.join(parts)})"


def _count(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"n must be an int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"n must be at least 0, got {n}")
    return int(n)


class _RadiusDriven(Engine):
    radius_driven = True

    def fill_space(self) -> npt.NDArray[np.float64]:
        """Fills the box (or the region): points until no more fit at the radius, as the
        sampler defines it. Shape (n, d)."""
        return self._run(None).points


def _radius_or_field(radius: Optional[float], field: Optional[Field], name: str, takes_field: bool) -> None:
    if field is not None and not takes_field:
        raise ValueError(f"'{name}' does not take a radius field")
    if (radius is None) == (field is None):
        raise ValueError(f"'{name}' needs exactly one of radius and field" if takes_field else f"'{name}' needs a radius")


class _Sequence(Engine):
    """A low-discrepancy sequence: successive ``random(n)`` calls continue it, as scipy's
    sequences do (one seed, one scramble, for the whole sequence); ``reset()`` starts it
    again and ``fast_forward(n)`` skips points."""

    @property
    def skip(self) -> int:
        """The index of the sequence's first point."""
        return int(self.params.get("skip", 0))

    def _native_params(self) -> dict[str, Any]:
        # The sequence goes on: the next points start after those generated.
        return {**self.params, "skip": self.skip + self.num_generated}

    def _run(self, n: Optional[int], check_only: bool = False) -> Sample:
        # One seed (one scramble) for the whole sequence.
        runs, self._runs = self._runs, 0
        try:
            return super()._run(n, check_only)
        finally:
            self._runs = runs + (0 if check_only else 1)

    def fast_forward(self, n: int) -> "_Sequence":
        """Skips the next ``n`` points of the sequence."""
        self.num_generated += _count(n)
        return self
