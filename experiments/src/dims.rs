//! From a dimension known at run time to code generic over `const D: usize`.

/// The largest dimension the command line dispatches to.
pub const MAX_DIM: usize = 8;

/// Evaluates `$body` with `const $D: usize` bound to the run-time dimension `$dim`
/// (1..=8); anything else evaluates `$otherwise`.
#[macro_export]
macro_rules! with_dim {
    ($dim:expr, $D:ident => $body:expr, else $otherwise:expr) => {
        match $dim {
            1 => {
                const $D: usize = 1;
                $body
            }
            2 => {
                const $D: usize = 2;
                $body
            }
            3 => {
                const $D: usize = 3;
                $body
            }
            4 => {
                const $D: usize = 4;
                $body
            }
            5 => {
                const $D: usize = 5;
                $body
            }
            6 => {
                const $D: usize = 6;
                $body
            }
            7 => {
                const $D: usize = 7;
                $body
            }
            8 => {
                const $D: usize = 8;
                $body
            }
            _ => $otherwise,
        }
    };
}
