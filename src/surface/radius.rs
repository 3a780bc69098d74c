//! The radius of a surface fill: one value, or a density over the surface (per vertex, or a
//! texture through the mesh's UV coordinates) mapped to `[rmin, rmax]`.

use super::mesh::SurfaceMesh;
use crate::domain::Domain;
use crate::error::Error;
use crate::field::{DensityMapping, GriddedField, check_bounds, check_density_values};

/// A density in `[0, 1]` over a surface, mapped to a radius in `[rmin, rmax]` by a
/// [`DensityMapping`] (with the surface's dimension, 2, for [`DensityMapping::Inverse`]:
/// points per area follow the density).
///
/// ```
/// use poisson_nd::DensityMapping;
/// use poisson_nd::surface::SurfaceDensity;
/// // A 2×1 texture: dense on the left half of the UV square, sparse on the right.
/// let density = SurfaceDensity::texture(2, 1, vec![1.0, 0.0], DensityMapping::Lerp, 0.01, 0.04)?;
/// assert_eq!(density.bounds(), (0.01, 0.04));
/// assert!(SurfaceDensity::per_vertex(vec![0.5, 1.5], DensityMapping::Lerp, 0.01, 0.04).is_err());
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SurfaceDensity {
    source: Source,
    mapping: DensityMapping,
    rmin: f64,
    rmax: f64,
}

#[derive(Debug, Clone)]
enum Source {
    /// One density per vertex, linear across each triangle.
    PerVertex(Vec<f64>),
    /// An image over the UV square, bilinear between pixel centres, clamped at the edges.
    /// With a pyramid of maxima and the largest slope along u and v, for bounds over a
    /// piece of surface.
    Texture {
        image: GriddedField<2>,
        maxima: Vec<Vec<f64>>,
        shape: Vec<[usize; 2]>,
        slopes: [f64; 2],
    },
}

impl SurfaceDensity {
    /// A density per vertex (values in `[0, 1]`), interpolated linearly across each
    /// triangle; the sampler checks that there is one per vertex.
    ///
    /// Errors: bad bounds ([`Error::InvalidRadiusBounds`]); a value outside `[0, 1]`
    /// ([`Error::InvalidFieldValue`], naming the vertex).
    pub fn per_vertex(
        values: Vec<f64>,
        mapping: DensityMapping,
        rmin: f64,
        rmax: f64,
    ) -> Result<Self, Error> {
        check_bounds(rmin, rmax)?;
        check_density_values(&values)?;
        Ok(SurfaceDensity { source: Source::PerVertex(values), mapping, rmin, rmax })
    }

    /// A density texture read at each point's UV coordinates: an image of `width × height`
    /// grey values in `[0, 1]` given as rows, **row 0 at the top** (v = 1), laid over the UV
    /// square `[0, 1]²` by the project's image convention (see
    /// [`GriddedField::from_image_rows`]): bilinear between pixel centres, clamp-to-edge
    /// outside them (UVs outside `[0, 1]` read the edge pixels; they do not wrap).
    ///
    /// Errors: an empty image or a value count that is not `width·height`; bad bounds; a
    /// value outside `[0, 1]` ([`Error::InvalidFieldValue`], `row·width + column`).
    pub fn texture(
        width: usize,
        height: usize,
        rows: Vec<f64>,
        mapping: DensityMapping,
        rmin: f64,
        rmax: f64,
    ) -> Result<Self, Error> {
        check_bounds(rmin, rmax)?;
        check_density_values(&rows)?;
        let image = GriddedField::from_image_rows(&Domain::<2>::unit(), width, height, rows)?;
        let (maxima, shape) = max_pyramid(&image);
        let slopes = slopes(&image);
        Ok(SurfaceDensity {
            source: Source::Texture { image, maxima, shape, slopes },
            mapping,
            rmin,
            rmax,
        })
    }

    /// The radius bounds `(rmin, rmax)`.
    pub fn bounds(&self) -> (f64, f64) {
        (self.rmin, self.rmax)
    }

    /// The mapping from density to radius.
    pub fn mapping(&self) -> DensityMapping {
        self.mapping
    }

    /// Checks that the mesh gives what this density reads: a value per vertex, or UVs.
    pub(crate) fn check_mesh(&self, mesh: &SurfaceMesh) -> Result<(), Error> {
        match &self.source {
            Source::PerVertex(values) if values.len() != mesh.vertices().len() => {
                Err(Error::ShapeMismatch {
                    what: "per-vertex densities".into(),
                    expected: mesh.vertices().len(),
                    got: values.len(),
                })
            }
            Source::Texture { .. } if mesh.uvs().is_none() => Err(Error::Unsupported {
                sampler: "surface sampling",
                what: "a density texture on a mesh without texture coordinates (UVs)",
            }),
            _ => Ok(()),
        }
    }

    /// The density at barycentric `b` on `face`.
    pub(crate) fn density_at(&self, mesh: &SurfaceMesh, face: usize, b: [f64; 3]) -> f64 {
        match &self.source {
            Source::PerVertex(values) => {
                let [da, db, dc] = mesh.triangles()[face].map(|v| values[v as usize]);
                // Within [0, 1] up to rounding; the clamp keeps the mapping defined.
                (b[0] * da + b[1] * db + b[2] * dc).clamp(0.0, 1.0)
            }
            Source::Texture { image, .. } => {
                let uv = mesh.uv_at(face, b).unwrap_or([0.0; 2]);
                image.value(&uv)
            }
        }
    }

    /// The radius at barycentric `b` on `face`.
    pub(crate) fn radius_at(&self, mesh: &SurfaceMesh, face: usize, b: [f64; 3]) -> f64 {
        self.mapping.radius::<2>(self.density_at(mesh, face, b), self.rmin, self.rmax)
    }

    /// A lower bound of the radius over the sub-triangle of `face` with barycentric corners
    /// `corners`: the radius of an upper bound of the density there (every mapping gives a
    /// smaller radius to a larger density).
    pub(crate) fn radius_below(
        &self,
        mesh: &SurfaceMesh,
        face: usize,
        corners: &[[f64; 3]; 3],
    ) -> f64 {
        let densest = match &self.source {
            // Linear across the triangle: largest at a corner.
            Source::PerVertex(_) => {
                corners.iter().map(|&b| self.density_at(mesh, face, b)).fold(0.0, f64::max)
            }
            Source::Texture { image, maxima, shape, slopes } => {
                let uvs = corners.map(|b| mesh.uv_at(face, b).unwrap_or([0.0; 2]));
                let [w, h] = image.shape();
                // Two bounds, both above every value over the piece: the largest pixel
                // around its UV box (tight for large pieces), and the smallest corner value
                // plus the slope across the box (tight as pieces shrink, so that refining
                // a piece that no point covers ends).
                let extent = |axis: usize| {
                    let lo = uvs.iter().map(|uv| uv[axis]).fold(f64::INFINITY, f64::min);
                    let hi = uvs.iter().map(|uv| uv[axis]).fold(f64::NEG_INFINITY, f64::max);
                    hi - lo
                };
                let lowest_corner = uvs.iter().map(|uv| image.value(uv)).fold(1.0, f64::min);
                let sloped = lowest_corner + slopes[0] * extent(0) + slopes[1] * extent(1);
                // The pixels whose centres bound the interpolation over the UV box.
                let range = |axis: usize, n: usize| {
                    let lo = uvs.iter().map(|uv| uv[axis]).fold(f64::INFINITY, f64::min);
                    let hi = uvs.iter().map(|uv| uv[axis]).fold(f64::NEG_INFINITY, f64::max);
                    let t = |x: f64| (x * n as f64 - 0.5).clamp(0.0, (n - 1) as f64) as usize;
                    (t(lo), (t(hi) + 1).min(n - 1))
                };
                pyramid_max(maxima, shape, range(0, w), range(1, h)).min(sloped)
            }
        };
        self.mapping.radius::<2>(densest, self.rmin, self.rmax)
    }
}

/// The image's largest slope along each axis of the UV square: the largest difference of
/// neighbouring pixels times the pixels per unit. The bilinear interpolation, clamped at the
/// edges, changes by at most `slopes[a]·|Δ|` over a step `Δ` along axis `a`.
fn slopes(image: &GriddedField<2>) -> [f64; 2] {
    let [w, h] = image.shape();
    let values = image.values();
    let at = |k0: usize, k1: usize| values[k0 * h + k1];
    let mut steepest = [0.0f64; 2];
    for k0 in 0..w {
        for k1 in 0..h {
            if k0 + 1 < w {
                steepest[0] = steepest[0].max((at(k0 + 1, k1) - at(k0, k1)).abs());
            }
            if k1 + 1 < h {
                steepest[1] = steepest[1].max((at(k0, k1 + 1) - at(k0, k1)).abs());
            }
        }
    }
    [steepest[0] * w as f64, steepest[1] * h as f64]
}

/// Level 0 is the image's grid values (`k0·h + k1`); each next level holds the maximum of
/// 2×2 cells of the one below.
fn max_pyramid(image: &GriddedField<2>) -> (Vec<Vec<f64>>, Vec<[usize; 2]>) {
    let mut levels = vec![image.values().to_vec()];
    let mut shape = vec![image.shape()];
    while let Some(&[w, h]) = shape.last().filter(|s| s[0] > 1 || s[1] > 1) {
        let below = &levels[levels.len() - 1];
        let (w2, h2) = (w.div_ceil(2), h.div_ceil(2));
        let mut above = vec![f64::NEG_INFINITY; w2 * h2];
        for k0 in 0..w {
            for k1 in 0..h {
                let slot = &mut above[(k0 / 2) * h2 + k1 / 2];
                *slot = slot.max(below[k0 * h + k1]);
            }
        }
        levels.push(above);
        shape.push([w2, h2]);
    }
    (levels, shape)
}

/// An upper bound of the values of the cells `a.0..=a.1` × `b.0..=b.1` of level 0: climbs
/// until each range spans at most two cells, then takes the maximum of those.
fn pyramid_max(
    levels: &[Vec<f64>],
    shape: &[[usize; 2]],
    mut a: (usize, usize),
    mut b: (usize, usize),
) -> f64 {
    let mut level = 0;
    while (a.1 - a.0 > 1 || b.1 - b.0 > 1) && level + 1 < levels.len() {
        level += 1;
        a = (a.0 / 2, a.1 / 2);
        b = (b.0 / 2, b.1 / 2);
    }
    let h = shape[level][1];
    let mut best = f64::NEG_INFINITY;
    for k0 in a.0..=a.1 {
        for k1 in b.0..=b.1 {
            best = best.max(levels[level][k0 * h + k1]);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{rng_from_seed, uniform01};

    /// The pyramid's bound is at least the true maximum over any block of pixels.
    #[test]
    fn pyramid_bounds_every_block() {
        let mut rng = rng_from_seed(3);
        for (w, h) in [(1, 1), (1, 7), (5, 3), (16, 16), (13, 29)] {
            let rows: Vec<f64> = (0..w * h).map(|_| uniform01(&mut rng)).collect();
            let image = GriddedField::from_image_rows(&Domain::<2>::unit(), w, h, rows).unwrap();
            let (levels, shape) = max_pyramid(&image);
            for a0 in 0..w {
                for a1 in a0..w {
                    for b0 in 0..h {
                        for b1 in b0..h {
                            let mut truth = f64::NEG_INFINITY;
                            for k0 in a0..=a1 {
                                for k1 in b0..=b1 {
                                    truth = truth.max(image.values()[k0 * h + k1]);
                                }
                            }
                            let bound = pyramid_max(&levels, &shape, (a0, a1), (b0, b1));
                            assert!(bound >= truth, "{w}x{h} [{a0},{a1}]x[{b0},{b1}]");
                        }
                    }
                }
            }
        }
    }

    /// Over random pieces of a UV-mapped square (UVs running past the unit square, so the
    /// clamped edges count), no point's radius is below the piece's bound, and the bound
    /// closes in on the true smallest radius as pieces shrink.
    #[test]
    fn texture_bounds_hold_and_tighten() {
        let mut rng = rng_from_seed(5);
        let mesh = SurfaceMesh::new(
            vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            vec![[0, 1, 2]],
        )
        .unwrap()
        .with_uvs(vec![[-0.2, -0.1], [1.3, 0.0], [0.1, 1.2]])
        .unwrap();
        let rows: Vec<f64> = (0..7 * 5).map(|_| uniform01(&mut rng)).collect();
        for mapping in [DensityMapping::Lerp, DensityMapping::Inverse] {
            let density = SurfaceDensity::texture(7, 5, rows.clone(), mapping, 0.01, 0.05).unwrap();
            for size in [1.0, 0.1, 1e-3, 1e-5] {
                for _ in 0..200 {
                    let corner = |rng: &mut _| {
                        let (s, t) = (uniform01(rng), uniform01(rng));
                        let (s, t) = if s + t > 1.0 { (1.0 - s, 1.0 - t) } else { (s, t) };
                        [1.0 - s - t, s, t]
                    };
                    let c0 = corner(&mut rng);
                    let near = |rng: &mut _| {
                        let d = corner(rng);
                        std::array::from_fn::<f64, 3, _>(|i| c0[i] + size * (d[i] - c0[i]))
                    };
                    let corners = [c0, near(&mut rng), near(&mut rng)];
                    let bound = density.radius_below(&mesh, 0, &corners);
                    let mut smallest = f64::INFINITY;
                    for _ in 0..50 {
                        let (s, t) = (uniform01(&mut rng), uniform01(&mut rng));
                        let (s, t) = if s + t > 1.0 { (1.0 - s, 1.0 - t) } else { (s, t) };
                        let b: [f64; 3] = std::array::from_fn(|i| {
                            corners[0][i]
                                + s * (corners[1][i] - corners[0][i])
                                + t * (corners[2][i] - corners[0][i])
                        });
                        let r = density.radius_at(&mesh, 0, b);
                        assert!(r >= bound * (1.0 - 1e-12), "{r} below the bound {bound}");
                        smallest = smallest.min(r);
                    }
                    if size <= 1e-5 {
                        assert!(bound > smallest * (1.0 - 1e-3), "{bound} vs {smallest}");
                    }
                }
            }
        }
    }
}
