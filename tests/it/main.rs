//! The integration tests of `poisson-nd`, as one test binary (one link instead of one per
//! file). Each module checks one behaviour; the shared brute-force oracles and test domains
//! are in the dev-only `testkit` crate.
//!
//! Run them all with the README's command, `cargo test --workspace --release --all-features`;
//! the modules that need an optional feature (`geo`: polygons; `serde`: saving live sets) are
//! left out, or cut to what runs without it, when it is off.

mod best_candidate;
mod bridson;
mod bridson_fill;
mod bridson_properties;
#[cfg(feature = "chunked")]
mod chunked_bridson_clipping;
#[cfg(feature = "chunked")]
mod chunked_dependency_cone;
#[cfg(feature = "chunked")]
mod chunked_stages;
#[cfg(feature = "chunked")]
mod chunked_worlds;
mod configuration;
mod dart_throwing;
mod field_conventions;
#[cfg(feature = "geo")]
mod field_in_region;
mod fpo;
mod gaussian_blue_noise;
mod halton;
mod input_errors;
mod jittered_grid;
#[cfg(feature = "live")]
mod live_set;
mod lloyd;
mod magnitudes;
mod maximal;
#[cfg(feature = "scatter")]
mod mesh_terrain;
mod module_layers;
mod progress_hook;
mod radius_field;
#[cfg(feature = "geo")]
mod region_kinds;
mod sample_elimination;
mod sampler_names;
#[cfg(feature = "geo")]
mod samplers_in_regions;
// Test regions of every kind (polygons among them, so with the `geo` feature only).
#[cfg(feature = "geo")]
mod shapes;
mod sobol;
mod surface;
mod value_stability;
#[cfg(feature = "scatter")]
mod world_scatter;
