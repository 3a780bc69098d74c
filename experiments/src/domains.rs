//! Every box the experiments sample or measure in, built in one place: from the command
//! line's `--box`, `--origin` and `--periodic`, and the report's box.

use poisson_nd::{Domain, Error};

/// The box flags shared by `sample` and `analyze`.
#[derive(clap::Args, Debug, Clone, Default, PartialEq)]
pub struct BoxArgs {
    /// Box side lengths, comma separated (default: 1 on every axis).
    #[arg(long = "box", value_delimiter = ',', allow_hyphen_values = true, global = true)]
    pub extent: Option<Vec<f64>>,
    /// Box origin, comma separated (default: 0 on every axis).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true, global = true)]
    pub origin: Option<Vec<f64>>,
    /// Periodic (toroidal) box: distances wrap around.
    #[arg(long, global = true)]
    pub periodic: bool,
}

impl BoxArgs {
    /// The box in `D` dimensions; errors are the library's one-line messages.
    pub fn domain<const D: usize>(&self) -> Result<Domain<D>, String> {
        let origin = self.origin.clone().unwrap_or_else(|| vec![0.0; D]);
        let extent = self.extent.clone().unwrap_or_else(|| vec![1.0; D]);
        from_slices(&origin, &extent, self.periodic).map_err(|e| format!("--box/--origin: {e}"))
    }
}

/// A box with lower corner `origin` and sides `extent`, periodic or closed.
pub fn from_slices<const D: usize>(
    origin: &[f64],
    extent: &[f64],
    periodic: bool,
) -> Result<Domain<D>, Error> {
    let domain = Domain::<D>::from_origin_and_extent_slices(origin, extent)?;
    Ok(if periodic { domain.periodic() } else { domain })
}

/// The unit box `[0, 1)^D`, periodic or closed.
pub fn unit<const D: usize>(periodic: bool) -> Domain<D> {
    let domain = Domain::unit();
    if periodic { domain.periodic() } else { domain }
}

/// The message for a dimension the command line cannot dispatch to.
pub fn dim_error(dim: usize) -> String {
    format!("--dim must be between 1 and {}, got {dim}", crate::dims::MAX_DIM)
}
