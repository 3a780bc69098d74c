"""poisson-nd: Poisson-disk (blue-noise) and comparison point samplers in 1 to 8 dimensions.

The samplers are engines in the style of ``scipy.stats.qmc``, one class per sampler of the
command line (``Bridson``, ``SampleElimination``, ``GaussianBlueNoise``, ... : the list is
``poisson_nd.SAMPLERS``, docs/samplers.md); ``Field`` and ``Region`` vary the radius and confine the
points; ``PoissonSet`` is a live set, ``World`` a deterministic chunked world; ``scatter`` runs
a world-scatter scene; ``sample_surface`` puts points on a triangle mesh's surface and
``nearest_on_surface`` finds its points nearest to others;
``analyze`` measures a point set as ``experiments analyze`` does.
For the same seed and parameters the points are bit-identical to the command line's and the
Rust library's. See docs/python.md.

>>> import poisson_nd as pnd
>>> points = pnd.Bridson(d=2, radius=0.1, rng=7).fill_space()
>>> points.shape[1]
2
"""

from ._native import MAX_DIM, MAX_POINTS, Field, PoissonSet, Region, World, WorldStages
from ._engines import Engine, Sample
from ._samplers import *  # noqa: F403 (one class per sampler of the catalogue)
from ._samplers import __all__ as SAMPLERS
from ._analysis import Analysis, analyze
from ._scatter import INSTANCE_DTYPE, scatter
from ._surface import SurfaceNearest, SurfaceSample, nearest_on_surface, sample_surface

__all__ = [
    "MAX_DIM",
    "MAX_POINTS",
    "SAMPLERS",
    "Analysis",
    "Engine",
    "Field",
    "INSTANCE_DTYPE",
    "PoissonSet",
    "Region",
    "Sample",
    "SurfaceNearest",
    "SurfaceSample",
    "World",
    "WorldStages",
    "analyze",
    "nearest_on_surface",
    "sample_surface",
    "scatter",
]
__all__ += SAMPLERS
