//! Power spectrum on the integer frequency lattice of the unit torus: periodogram, radial
//! average, anisotropy, effective Nyquist frequency, averaged over realisations.
//!
//! The points are mapped onto the unit torus by their box ([`crate::metrics::to_unit_cube`])
//! and the periodogram `P(k) = |Σ_j exp(−2πi k·u_j)|² / N` is evaluated directly at every
//! integer frequency `k` with `0 < |k| < k_max + ½`. Because `P(−k) = P(k)` only the half
//! lattice whose first non-zero coordinate is positive is computed and stored.
//!
//! The lattice sum is organised as a product of small tables: for each point the phases
//! `exp(−2πi m u_a)` for `m = −k_max..=k_max` are built per axis by complex multiplication
//! (one `sin_cos` per point and axis), and for each "row" of the lattice (all coordinates
//! but the last fixed) the row factor times the last axis's table is accumulated over
//! the points, four points at a time. Rows are shared between threads
//! (`std::thread::scope`).
//!
//! A closed (non-periodic) box seen as a torus has a seam at its faces: the spectrum shows
//! excess power on the frequency axes (in 2D the lines `k_x = 0` and `k_y = 0`).
//! [`SpectrumOptions::exclude_axes`] leaves every frequency with a single non-zero
//! coordinate out of the radial average, the anisotropy and the effective Nyquist frequency.

use crate::metrics::to_unit_cube;
use poisson_nd::{Domain, Point};
use serde::Serialize;
use std::collections::HashMap;
use std::io::{self, Write};

/// The default frequency range in units of the mean point spacing frequency `N^(1/D)`
/// (`√N` in 2D): the spectrum is computed up to `|k| = 2 N^(1/D)`.
pub const DEFAULT_FREQUENCY_MULTIPLE: f64 = 2.0;

/// Below this many point–frequency terms a spectrum is computed on one thread.
const THREAD_THRESHOLD: usize = 1 << 21;

/// Points per block of phase tables.
const BLOCK: usize = 64;

/// What a spectrum covers and how it is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpectrumOptions {
    /// The largest ring radius: frequencies with `|k| < k_max + ½` are computed.
    pub k_max: usize,
    /// Leave frequencies on the coordinate axes (a single non-zero coordinate) out of the
    /// radial average, anisotropy and effective Nyquist frequency (for closed boxes).
    pub exclude_axes: bool,
    /// Worker threads; 0 uses the machine's available parallelism.
    pub threads: usize,
}

impl SpectrumOptions {
    /// Frequencies up to ring `k_max` (at least 1), axes included, automatic threads.
    pub fn new(k_max: usize) -> Self {
        SpectrumOptions { k_max: k_max.max(1), exclude_axes: false, threads: 0 }
    }

    /// Frequencies up to `multiple · n^(1/dim)` rounded up (`multiple · √n` in 2D); see
    /// [`DEFAULT_FREQUENCY_MULTIPLE`].
    pub fn for_points(dim: usize, n: usize, multiple: f64) -> Self {
        let spacing = (n.max(1) as f64).powf(1.0 / dim.max(1) as f64);
        Self::new((multiple * spacing).ceil() as usize)
    }

    /// Sets [`SpectrumOptions::exclude_axes`].
    #[must_use]
    pub fn exclude_axes(mut self, exclude: bool) -> Self {
        self.exclude_axes = exclude;
        self
    }

    /// Sets the number of worker threads (0: automatic).
    #[must_use]
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }
}

/// One row of the half lattice: fixed leading coordinates, the last one running `lo..=hi`.
#[derive(Debug, Clone, Copy)]
struct Row<const D: usize> {
    outer: [i64; D],
    lo: i64,
    hi: i64,
    offset: usize,
}

impl<const D: usize> Row<D> {
    fn len(&self) -> usize {
        (self.hi - self.lo + 1) as usize
    }
}

/// Averages periodograms over realisations: call [`SpectrumAccumulator::add`] once per point
/// set, then read the mean periodogram ([`SpectrumAccumulator::power`],
/// [`SpectrumAccumulator::frequencies`]) or its radial summary
/// ([`SpectrumAccumulator::radial`]). Each realisation is normalised by its own `N`.
///
/// ```
/// use experiments::metrics::{SpectrumAccumulator, SpectrumOptions};
/// use poisson_nd::{Domain, Sampler, WhiteNoise};
/// let torus = Domain::<2>::unit().periodic();
/// let mut spectrum = SpectrumAccumulator::new(SpectrumOptions::for_points(2, 256, 2.0));
/// for seed in 0..8 {
///     spectrum.add(&WhiteNoise::new(torus).sample_seeded(256, seed).points, &torus);
/// }
/// let radial = spectrum.radial();
/// assert_eq!(radial.realisations, 8);
/// assert!(radial.rings.iter().skip(4).all(|ring| (ring.mean_power - 1.0).abs() < 0.5));
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SpectrumAccumulator<const D: usize> {
    options: SpectrumOptions,
    rows: Vec<Row<D>>,
    lookup: HashMap<[i64; D], usize>,
    power_sum: Vec<f64>,
    realisations: usize,
    points_sum: usize,
}

impl<const D: usize> SpectrumAccumulator<D> {
    /// An empty accumulator over the frequencies `options` describes.
    pub fn new(options: SpectrumOptions) -> Self {
        let options = SpectrumOptions { k_max: options.k_max.max(1), ..options };
        let rows = half_lattice_rows::<D>(options.k_max);
        let lookup = rows.iter().enumerate().map(|(i, row)| (row.outer, i)).collect();
        let total = rows.last().map_or(0, |row| row.offset + row.len());
        SpectrumAccumulator {
            options,
            rows,
            lookup,
            power_sum: vec![0.0; total],
            realisations: 0,
            points_sum: 0,
        }
    }

    /// The options this accumulator was made with.
    pub fn options(&self) -> &SpectrumOptions {
        &self.options
    }

    /// Number of realisations added so far.
    pub fn realisations(&self) -> usize {
        self.realisations
    }

    /// Number of stored frequencies (half the lattice points in the ball).
    pub fn frequency_count(&self) -> usize {
        self.power_sum.len()
    }

    /// Adds the periodogram of one point set (mapped onto the unit torus by `domain`'s
    /// box). An empty set is ignored.
    pub fn add(&mut self, points: &[Point<D>], domain: &Domain<D>) {
        if points.is_empty() {
            return;
        }
        let u = to_unit_cube(points, domain);
        let total = self.power_sum.len();
        let mut s_re = vec![0.0; total];
        let mut s_im = vec![0.0; total];
        let threads = match self.options.threads {
            0 => std::thread::available_parallelism().map_or(1, |t| t.get()),
            t => t,
        };
        let threads = if total.saturating_mul(u.len()) < THREAD_THRESHOLD { 1 } else { threads };
        let k_max = self.options.k_max;
        if threads <= 1 {
            accumulate_rows(&u, k_max, &self.rows, &mut s_re, &mut s_im);
        } else {
            // Split the rows into contiguous runs of about equal length.
            let target = total.div_ceil(threads);
            let mut cuts = vec![0usize];
            let mut filled = 0;
            for (i, row) in self.rows.iter().enumerate() {
                filled += row.len();
                if filled >= target * cuts.len() && i + 1 < self.rows.len() {
                    cuts.push(i + 1);
                }
            }
            cuts.push(self.rows.len());
            cuts.dedup();
            std::thread::scope(|scope| {
                let mut rest_re: &mut [f64] = &mut s_re;
                let mut rest_im: &mut [f64] = &mut s_im;
                for pair in cuts.windows(2) {
                    let rows = &self.rows[pair[0]..pair[1]];
                    let len: usize = rows.iter().map(Row::len).sum();
                    let (re, tail_re) = std::mem::take(&mut rest_re).split_at_mut(len);
                    let (im, tail_im) = std::mem::take(&mut rest_im).split_at_mut(len);
                    rest_re = tail_re;
                    rest_im = tail_im;
                    let u = &u;
                    scope.spawn(move || accumulate_rows(u, k_max, rows, re, im));
                }
            });
        }
        let n = u.len() as f64;
        for ((sum, re), im) in self.power_sum.iter_mut().zip(&s_re).zip(&s_im) {
            *sum += (re * re + im * im) / n;
        }
        self.realisations += 1;
        self.points_sum += points.len();
    }

    /// The mean periodogram at frequency `k` (either sign), or `None` for `k = 0`, a
    /// frequency outside the computed ball, or no realisations yet.
    pub fn power(&self, k: &[i64; D]) -> Option<f64> {
        if self.realisations == 0 {
            return None;
        }
        let mut k = *k;
        match k.iter().find(|&&c| c != 0) {
            None => return None,
            Some(&first) if first < 0 => k.iter_mut().for_each(|c| *c = -*c),
            _ => {}
        }
        let mut outer = k;
        outer[D - 1] = 0;
        let row = &self.rows[*self.lookup.get(&outer)?];
        let last = k[D - 1];
        if last < row.lo || last > row.hi {
            return None;
        }
        Some(self.power_sum[row.offset + (last - row.lo) as usize] / self.realisations as f64)
    }

    /// The mean periodogram on the square `[-m, m]²` of the first and last frequency axes
    /// (`k_x`, `k_y` in 2D; the other coordinates 0); NaN where nothing was computed
    /// (`k = 0`, outside the computed ball).
    pub fn periodogram(&self, m: usize) -> Periodogram {
        let m_signed = m as i64;
        let mut values = Vec::with_capacity((2 * m + 1) * (2 * m + 1));
        let mut k = [0i64; D];
        for ky in -m_signed..=m_signed {
            for kx in -m_signed..=m_signed {
                k[0] = kx;
                k[D - 1] = ky;
                values.push(self.power(&k).unwrap_or(f64::NAN));
            }
        }
        Periodogram { max_frequency: m, values }
    }

    /// Every stored frequency (the half lattice whose first non-zero coordinate is
    /// positive; `P(−k) = P(k)`) with its mean periodogram.
    pub fn frequencies(&self) -> impl Iterator<Item = ([i64; D], f64)> + '_ {
        let scale = 1.0 / self.realisations.max(1) as f64;
        self.rows.iter().flat_map(move |row| {
            (row.lo..=row.hi).map(move |last| {
                let mut k = row.outer;
                k[D - 1] = last;
                (k, self.power_sum[row.offset + (last - row.lo) as usize] * scale)
            })
        })
    }

    /// The radial summary of the mean periodogram.
    pub fn radial(&self) -> RadialSpectrum {
        let k_max = self.options.k_max;
        let mut sum = vec![0.0f64; k_max + 1];
        let mut sum_sq = vec![0.0f64; k_max + 1];
        let mut count = vec![0usize; k_max + 1];
        let mut by_norm: Vec<(u64, f64)> = Vec::with_capacity(self.power_sum.len());
        for (k, p) in self.frequencies() {
            if self.options.exclude_axes && k.iter().filter(|&&c| c != 0).count() == 1 {
                continue;
            }
            let norm2: u64 = k.iter().map(|&c| (c * c) as u64).sum();
            let ring = ring_of(norm2);
            sum[ring] += p;
            sum_sq[ring] += p * p;
            count[ring] += 1;
            by_norm.push((norm2, p));
        }
        let rings: Vec<Ring> = (1..=k_max)
            .map(|b| {
                let c = count[b] as f64;
                let mean = sum[b] / c;
                let var = (sum_sq[b] - c * mean * mean) / (c - 1.0);
                Ring {
                    radius: b,
                    frequencies: 2 * count[b],
                    mean_power: if count[b] > 0 { mean } else { f64::NAN },
                    anisotropy_db: if count[b] > 1 {
                        10.0 * (var.max(0.0) / (mean * mean)).log10()
                    } else {
                        f64::NAN
                    },
                }
            })
            .collect();
        let mean_points = self.points_sum as f64 / self.realisations.max(1) as f64;
        let spacing = mean_points.powf(1.0 / D as f64);
        let effective_nyquist = effective_nyquist(&mut by_norm, spacing / 2.0);
        let peak = rings
            .iter()
            .filter(|ring| ring.mean_power.is_finite())
            .max_by(|a, b| a.mean_power.total_cmp(&b.mean_power))
            .map(|ring| Peak { radius: ring.radius, power: ring.mean_power });
        RadialSpectrum {
            dim: D,
            k_max,
            realisations: self.realisations,
            mean_points,
            axes_excluded: self.options.exclude_axes,
            rings,
            effective_nyquist,
            effective_nyquist_over_spacing: effective_nyquist / spacing,
            peak,
        }
    }
}

/// The radial spectrum of one point set: a one-realisation [`SpectrumAccumulator`].
pub fn radial_spectrum<const D: usize>(
    points: &[Point<D>],
    domain: &Domain<D>,
    options: SpectrumOptions,
) -> RadialSpectrum {
    let mut accumulator = SpectrumAccumulator::new(options);
    accumulator.add(points, domain);
    accumulator.radial()
}

/// The periodogram of one point set at one integer frequency `k`,
/// `P(k) = |Σ_j exp(−2πi k·u_j)|² / N` with the points mapped onto the unit torus by
/// `domain`'s box, summed directly (one `sin_cos` per point): for a handful of chosen
/// frequencies, where [`SpectrumAccumulator`] would compute a whole ball. NaN for an empty
/// set; `P(0) = N`.
///
/// ```
/// use experiments::metrics::periodogram_at;
/// use poisson_nd::Domain;
/// // Two points half a side apart: their phases cancel at odd k_x and add at even k_x.
/// let points = [[0.0, 0.3], [0.5, 0.3]];
/// let torus = Domain::<2>::unit().periodic();
/// assert!(periodogram_at(&points, &torus, &[1, 0]).abs() < 1e-12);
/// assert!((periodogram_at(&points, &torus, &[2, 0]) - 2.0).abs() < 1e-12);
/// ```
pub fn periodogram_at<const D: usize>(
    points: &[Point<D>],
    domain: &Domain<D>,
    k: &[i64; D],
) -> f64 {
    if points.is_empty() {
        return f64::NAN;
    }
    let (mut re, mut im) = (0.0, 0.0);
    for u in to_unit_cube(points, domain) {
        // k·u in cycles; only its fractional part matters, which keeps the argument small.
        let cycles: f64 = (0..D).map(|a| k[a] as f64 * u[a]).sum();
        let (sin, cos) = (2.0 * std::f64::consts::PI * (cycles - cycles.round())).sin_cos();
        re += cos;
        im -= sin;
    }
    (re * re + im * im) / points.len() as f64
}

/// A periodogram on a square grid of integer frequencies `-m..=m` on two axes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Periodogram {
    /// The largest frequency `m`; the grid has `2m + 1` cells a side.
    pub max_frequency: usize,
    /// Power, row by row from `k_y = -m`, each row from `k_x = -m`; NaN at `k = 0`.
    pub values: Vec<f64>,
}

/// The number of frequencies of the half lattice in the ball `|k| < k_max + ½`, estimated
/// by the ball's volume: the work of a spectrum is this times the number of points.
pub fn half_lattice_size(dim: usize, k_max: usize) -> f64 {
    crate::metrics::unit_ball_volume(dim) * (k_max as f64 + 0.5).powi(dim as i32) / 2.0
}

/// The half-width `m` of a periodogram image: `⌊multiple · √N⌋`, lowered until the square
/// `[-m, m]²` lies inside the computed disc `|k| < k_max + ½`.
pub fn periodogram_half_width(nominal_count: usize, multiple: f64, k_max: usize) -> usize {
    let wanted = (multiple * (nominal_count.max(1) as f64).sqrt()).floor();
    // The corner (m, m) is inside when 4 · 2m² < (2 k_max + 1)², i.e. m < (k_max + ½)/√2.
    let mut m = if wanted < k_max as f64 { wanted as usize } else { k_max };
    let limit = (2.0 * k_max as f64 + 1.0).powi(2);
    while m > 1 && 8.0 * (m as f64).powi(2) >= limit {
        m -= 1;
    }
    m.max(1)
}

/// One ring `radius − ½ ≤ |k| < radius + ½` of the radial spectrum.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Ring {
    /// Centre radius of the ring (cycles per box side).
    pub radius: usize,
    /// Lattice frequencies in the ring (both signs; excluded axes not counted).
    pub frequencies: usize,
    /// Mean of the (realisation-averaged) periodogram over the ring.
    pub mean_power: f64,
    /// `10 log10(variance / mean²)` over the ring, in dB (about 0 for one white-noise
    /// periodogram, `−10 log10 K` for the mean of K).
    pub anisotropy_db: f64,
}

/// The highest ring of the radial spectrum.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Peak {
    /// Ring radius.
    pub radius: usize,
    /// Mean power of that ring.
    pub power: f64,
}

/// The radial summary of a (mean) periodogram.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RadialSpectrum {
    /// Dimension.
    pub dim: usize,
    /// Largest ring radius.
    pub k_max: usize,
    /// Realisations averaged.
    pub realisations: usize,
    /// Mean number of points per realisation.
    pub mean_points: f64,
    /// Whether the frequency axes were left out.
    pub axes_excluded: bool,
    /// Rings 1..=k_max.
    pub rings: Vec<Ring>,
    /// Effective Nyquist frequency ν_eff (Heck, Schlömer & Deussen 2013), cycles per box
    /// side: about `√N/2` for a square grid, 0 for white noise, at most about `0.282 √N`
    /// for step blue noise (2D).
    pub effective_nyquist: f64,
    /// `ν_eff / N^(1/D)`.
    pub effective_nyquist_over_spacing: f64,
    /// The ring of highest mean power.
    pub peak: Option<Peak>,
}

impl RadialSpectrum {
    /// Writes the rings as CSV: `radius,radius_over_spacing,mean_power,anisotropy_db,
    /// frequencies`, where `radius_over_spacing = radius / N^(1/D)`.
    pub fn write_csv<W: Write>(&self, out: W) -> io::Result<()> {
        let mut out = io::BufWriter::new(out);
        writeln!(out, "radius,radius_over_spacing,mean_power,anisotropy_db,frequencies")?;
        let spacing = self.mean_points.powf(1.0 / self.dim as f64);
        for ring in &self.rings {
            writeln!(
                out,
                "{},{},{},{},{}",
                ring.radius,
                ring.radius as f64 / spacing,
                ring.mean_power,
                ring.anisotropy_db,
                ring.frequencies
            )?;
        }
        out.flush()
    }
}

/// The ring `b` with `b − ½ ≤ √norm2 < b + ½`, in exact integer arithmetic.
fn ring_of(norm2: u64) -> usize {
    // With t = ⌊√(4 norm2)⌋: (2b − 1)² ≤ 4 norm2 < (2b + 1)² ⟺ 2b − 1 ≤ t ≤ 2b.
    let t = (4 * norm2).isqrt();
    t.div_ceil(2) as usize
}

/// The effective Nyquist frequency of Heck, Schlömer & Deussen (2013). With `C(f)` the mean
/// power over the frequencies `0 < |k| ≤ f`: from `f = start` upwards find the first `f`
/// with `C(f) > 0.5` (the largest computed radius if none), then walk down to the largest
/// `f` below it with `C(f) < 0.1`; `ν_eff = f / 2` (0 if there is none).
fn effective_nyquist(by_norm: &mut [(u64, f64)], start: f64) -> f64 {
    by_norm.sort_by_key(|&(norm2, _)| norm2);
    // Cumulative mean at each distinct norm.
    let mut steps: Vec<(f64, f64)> = Vec::new();
    let (mut sum, mut count) = (0.0, 0usize);
    let mut i = 0;
    while i < by_norm.len() {
        let norm2 = by_norm[i].0;
        while i < by_norm.len() && by_norm[i].0 == norm2 {
            sum += by_norm[i].1;
            count += 1;
            i += 1;
        }
        steps.push(((norm2 as f64).sqrt(), sum / count as f64));
    }
    let up = steps.iter().position(|&(f, c)| f >= start && c > 0.5).unwrap_or(steps.len());
    steps[..up].iter().rev().find(|&&(_, c)| c < 0.1).map_or(0.0, |&(f, _)| f / 2.0)
}

/// The rows of the half lattice `{k : 0 < |k| < k_max + ½, first non-zero coordinate > 0}`.
fn half_lattice_rows<const D: usize>(k_max: usize) -> Vec<Row<D>> {
    let k = k_max as i64;
    // |k| < k_max + ½ ⟺ 4|k|² < (2 k_max + 1)².
    let limit = (2 * k + 1) * (2 * k + 1);
    let mut rows = Vec::new();
    let mut outer = [0i64; D];
    fn recurse<const D: usize>(
        axis: usize,
        partial: i64,
        all_zero: bool,
        k: i64,
        limit: i64,
        outer: &mut [i64; D],
        rows: &mut Vec<Row<D>>,
    ) {
        if axis + 1 == D {
            // Largest m with 4 (partial + m²) < limit.
            let mut m = 0i64;
            while 4 * (partial + (m + 1) * (m + 1)) < limit {
                m += 1;
            }
            let (lo, hi) = if all_zero { (1, m) } else { (-m, m) };
            if lo <= hi {
                let offset = rows.last().map_or(0, |r: &Row<D>| r.offset + r.len());
                let mut key = *outer;
                key[D - 1] = 0;
                rows.push(Row { outer: key, lo, hi, offset });
            }
            return;
        }
        let start = if all_zero { 0 } else { -k };
        for c in start..=k {
            if 4 * (partial + c * c) >= limit {
                continue;
            }
            outer[axis] = c;
            recurse(axis + 1, partial + c * c, all_zero && c == 0, k, limit, outer, rows);
        }
        outer[axis] = 0;
    }
    recurse(0, 0, true, k, limit, &mut outer, &mut rows);
    rows
}

/// Adds `Σ_j exp(−2πi k·u_j)` for every frequency of `rows` to `(s_re, s_im)`, which hold
/// exactly those rows' frequencies in order.
fn accumulate_rows<const D: usize>(
    u: &[[f64; D]],
    k_max: usize,
    rows: &[Row<D>],
    s_re: &mut [f64],
    s_im: &mut [f64],
) {
    let Some(first) = rows.first() else { return };
    let base = first.offset;
    let k = k_max as i64;
    let width = 2 * k_max + 1;
    // Phase tables: table[(axis * BLOCK + j) * width + (m + k_max)] = exp(−2πi m u_j,axis).
    let mut t_re = vec![0.0; D * BLOCK * width];
    let mut t_im = vec![0.0; D * BLOCK * width];
    let mut a_re = [0.0; BLOCK];
    let mut a_im = [0.0; BLOCK];
    for block in u.chunks(BLOCK) {
        for axis in 0..D {
            for (j, p) in block.iter().enumerate() {
                let at = (axis * BLOCK + j) * width + k_max;
                let (sin, cos) = (2.0 * std::f64::consts::PI * p[axis]).sin_cos();
                let (wr, wi) = (cos, -sin);
                let (mut zr, mut zi) = (1.0, 0.0);
                t_re[at] = 1.0;
                t_im[at] = 0.0;
                for m in 1..=k_max {
                    (zr, zi) = (zr * wr - zi * wi, zr * wi + zi * wr);
                    t_re[at + m] = zr;
                    t_im[at + m] = zi;
                    t_re[at - m] = zr;
                    t_im[at - m] = -zi;
                }
            }
        }
        let bl = block.len();
        let last = D - 1;
        for row in rows {
            // Row factor: the product of the leading axes' phases.
            for j in 0..bl {
                let (mut pr, mut pi) = (1.0, 0.0);
                for axis in 0..last {
                    let at = (axis * BLOCK + j) * width + (row.outer[axis] + k) as usize;
                    let (tr, ti) = (t_re[at], t_im[at]);
                    (pr, pi) = (pr * tr - pi * ti, pr * ti + pi * tr);
                }
                a_re[j] = pr;
                a_im[j] = pi;
            }
            let len = row.len();
            let start = (row.lo + k) as usize;
            let at = row.offset - base;
            let sr = &mut s_re[at..at + len];
            let si = &mut s_im[at..at + len];
            let table = |j: usize| {
                let from = (last * BLOCK + j) * width + start;
                (&t_re[from..from + len], &t_im[from..from + len])
            };
            let mut j = 0;
            while j + 4 <= bl {
                let (b0r, b0i) = table(j);
                let (b1r, b1i) = table(j + 1);
                let (b2r, b2i) = table(j + 2);
                let (b3r, b3i) = table(j + 3);
                let (a0r, a0i) = (a_re[j], a_im[j]);
                let (a1r, a1i) = (a_re[j + 1], a_im[j + 1]);
                let (a2r, a2i) = (a_re[j + 2], a_im[j + 2]);
                let (a3r, a3i) = (a_re[j + 3], a_im[j + 3]);
                for t in 0..len {
                    sr[t] += (a0r * b0r[t] - a0i * b0i[t] + a1r * b1r[t] - a1i * b1i[t])
                        + (a2r * b2r[t] - a2i * b2i[t] + a3r * b3r[t] - a3i * b3i[t]);
                    si[t] += (a0r * b0i[t] + a0i * b0r[t] + a1r * b1i[t] + a1i * b1r[t])
                        + (a2r * b2i[t] + a2i * b2r[t] + a3r * b3i[t] + a3i * b3r[t]);
                }
                j += 4;
            }
            while j < bl {
                let (br, bi) = table(j);
                let (ar, ai) = (a_re[j], a_im[j]);
                for t in 0..len {
                    sr[t] += ar * br[t] - ai * bi[t];
                    si[t] += ar * bi[t] + ai * br[t];
                }
                j += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_are_exact() {
        assert_eq!(ring_of(1), 1);
        assert_eq!(ring_of(2), 1); // 1.414
        assert_eq!(ring_of(3), 2); // 1.732
        assert_eq!(ring_of(6), 2); // 2.449
        assert_eq!(ring_of(7), 3); // 2.646
        assert_eq!(ring_of(64 * 64), 64);
        assert_eq!(ring_of(64 * 64 + 64), 64); // 64.499
        assert_eq!(ring_of(64 * 64 + 65), 65); // 64.507
    }

    #[test]
    fn half_lattice_covers_each_pair_once() {
        let rows = half_lattice_rows::<2>(5);
        let mut seen = std::collections::HashSet::new();
        for row in &rows {
            for last in row.lo..=row.hi {
                let k = [row.outer[0], last];
                assert!(seen.insert(k));
                assert!(!seen.contains(&[-k[0], -k[1]]));
            }
        }
        let full = (-5i64..=5)
            .flat_map(|x| (-5i64..=5).map(move |y| (x, y)))
            .filter(|&(x, y)| (x, y) != (0, 0) && 4 * (x * x + y * y) < 121)
            .count();
        assert_eq!(2 * seen.len(), full);
    }

    #[test]
    fn periodogram_of_a_square_lattice_lives_on_its_reciprocal_lattice() {
        // An m × m lattice on the unit torus: every phase is 1 when k is a multiple of m on
        // both axes (P = N there), and the phases sum to 0 at every other frequency.
        let m = 6;
        let lattice: Vec<[f64; 2]> =
            (0..m * m).map(|i| [(i % m) as f64 / m as f64, (i / m) as f64 / m as f64]).collect();
        let torus = Domain::<2>::unit().periodic();
        let n = (m * m) as f64;
        for kx in -13i64..=13 {
            for ky in -13i64..=13 {
                let p = periodogram_at(&lattice, &torus, &[kx, ky]);
                let on_lattice = kx % m as i64 == 0 && ky % m as i64 == 0;
                let want = if on_lattice { n } else { 0.0 };
                assert!((p - want).abs() < 1e-9, "k = ({kx}, {ky}): {p} against {want}");
            }
        }
        // The box is read: the same lattice in a box of sides 2 × 3 at (−1, 4).
        let shifted = Domain::from_origin_and_extent([-1.0, 4.0], [2.0, 3.0]).unwrap().periodic();
        let moved: Vec<[f64; 2]> =
            lattice.iter().map(|p| [-1.0 + 2.0 * p[0], 4.0 + 3.0 * p[1]]).collect();
        assert!((periodogram_at(&moved, &shifted, &[6, -12]) - n).abs() < 1e-9);
        assert!(periodogram_at(&moved, &shifted, &[1, 0]).abs() < 1e-9);
        assert!(periodogram_at::<2>(&[], &torus, &[1, 0]).is_nan());
    }

    #[test]
    fn periodogram_at_matches_the_accumulator() {
        let points = [[0.1, 0.7], [0.55, 0.2], [0.33, 0.31], [0.8, 0.8], [0.97, 0.02]];
        let torus = Domain::<2>::unit().periodic();
        let mut acc = SpectrumAccumulator::new(SpectrumOptions::new(6));
        acc.add(&points, &torus);
        for (k, p) in acc.frequencies() {
            assert!((periodogram_at(&points, &torus, &k) - p).abs() < 1e-12, "{k:?}");
        }
    }

    #[test]
    fn matches_direct_sum() {
        let points = [[0.1, 0.7, 0.3], [0.55, 0.2, 0.9], [0.33, 0.31, 0.05], [0.8, 0.8, 0.5]];
        let domain = Domain::<3>::unit();
        let mut acc = SpectrumAccumulator::new(SpectrumOptions::new(3));
        acc.add(&points, &domain);
        for (k, p) in acc.frequencies() {
            let (mut re, mut im) = (0.0, 0.0);
            for x in &points {
                let phase: f64 =
                    -2.0 * std::f64::consts::PI * (0..3).map(|a| k[a] as f64 * x[a]).sum::<f64>();
                re += phase.cos();
                im += phase.sin();
            }
            let want = (re * re + im * im) / 4.0;
            assert!((p - want).abs() < 1e-12, "{k:?} {p} {want}");
            let neg = [-k[0], -k[1], -k[2]];
            assert_eq!(acc.power(&neg), Some(p));
        }
    }
}
