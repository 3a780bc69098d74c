//! The Poisson-disk engine: the one front, the one restart scan and the spaces they grow in.
//!
//! - [`front`]: the active list and Bridson's step — a uniformly chosen active point, up to
//!   `k` candidates in its shell, the first accepted one stored and active — and seeding by
//!   darts. Every fill runs it: [`Bridson`](crate::Bridson) and its resumable run, the chunk
//!   cells of [`chunked`](crate::chunked), a live set's fills, each class of a scatter and the
//!   fronts of a surface fill ([`SurfaceFill::Front`](crate::surface::SurfaceFill::Front)).
//! - [`shell`]: how candidates are drawn in the shell `[r, 2r]`.
//! - [`scan`]: the restart scan that seeds every part of an area the front has not reached.
//! - [`space`]: the spaces of a grid with one radius or with a radius field, which decide
//!   whether a candidate may join the stored points.
//!
//! A client brings its [`front::Space`] (where points are stored and what makes a candidate
//! acceptable) and its rules; the order in which the generator is drawn is the engine's, which
//! is what keeps runs reproducible.

pub(crate) mod front;
pub(crate) mod scan;
pub mod shell;
pub(crate) mod space;
