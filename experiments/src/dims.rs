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

/// A dimension the command line dispatches to, as a type, for the entry points that are
/// compiled once in this crate: `Dim<D>` implements them for D = 1..=[`MAX_DIM`].
///
/// A generic function is compiled again in every crate that calls it with a new `D`; an
/// entry point behind an impl for `Dim<D>` is not, so the Python package and the tests
/// link the samplers, worlds and metrics compiled here instead of generating them a second
/// time (docs/performance.md, "Build time"). A caller generic over `D` states the entry
/// points it needs as bounds, `where Dim<D>: BuildIn<D>`.
#[derive(Debug)]
pub struct Dim<const D: usize>;

// `with_dim!` and `for_every_dim!` both list the dimensions 1..=8.
const _: () = assert!(MAX_DIM == 8, "list the new dimensions in with_dim! and for_every_dim!");

/// Implements the trait `$entry<D>` for `Dim<1>`..=`Dim<8>` with the given methods, in
/// which `D` is the dimension. Mark each `#[inline(never)]`: inlined into another crate, its
/// body would be compiled there again.
#[macro_export]
macro_rules! for_every_dim {
    ($($D:literal)*; impl $entry:ident $body:tt) => {
        $(
            const _: () = {
                const D: usize = $D;
                impl $entry<D> for $crate::dims::Dim<D> $body
            };
        )*
    };
    (impl $entry:ident $body:tt) => {
        $crate::for_every_dim!(1 2 3 4 5 6 7 8; impl $entry $body);
    };
}
