"""A property test: random boxes and radii, Bridson in the box, at the radius, deterministic."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import poisson_nd as pnd
from conftest import closest_pair, in_box

# Bridson fills about 0.65 / r^d points per unit volume in 2D and 3D: the radius is drawn
# from where the expected count is at most ~2000 upwards.
DENSITY = 0.65
MAX_POINTS = 2000


@st.composite
def boxes(draw):
    d = draw(st.sampled_from([2, 3]))
    sides = draw(st.lists(st.floats(0.1, 10.0), min_size=d, max_size=d))
    origin = draw(st.lists(st.floats(-100.0, 100.0), min_size=d, max_size=d))
    volume = math.prod(sides)
    smallest = (DENSITY * volume / MAX_POINTS) ** (1.0 / d)
    radius = smallest * draw(st.floats(1.0, 8.0))
    seed = draw(st.integers(0, 2**64 - 1))
    lower = origin
    upper = [o + s for o, s in zip(origin, sides)]
    return d, lower, upper, radius, seed


@settings(max_examples=25, deadline=None, database=None)
@given(boxes())
def test_bridson_random_boxes(case):
    d, lower, upper, radius, seed = case
    upper = [u if u > l else np.nextafter(l, np.inf) for l, u in zip(lower, upper)]
    engine = pnd.Bridson(d, radius, l_bounds=lower, u_bounds=upper, rng=seed)
    points = engine.fill_space()
    assert points.shape[1] == d and len(points) >= 1
    assert len(points) <= 4 * MAX_POINTS
    assert in_box(points, lower, upper)
    assert closest_pair(points) >= radius
    again = pnd.Bridson(d, radius, l_bounds=lower, u_bounds=upper, rng=seed).fill_space()
    assert np.array_equal(points, again)
    assert np.array_equal(engine.reset().fill_space(), points)
