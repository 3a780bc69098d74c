//! A progress line on stderr for long runs (`sample`, `world`, `scatter`), fed by the
//! library's progress hook: the points placed so far and, for chunked runs, the share of the
//! cells done. Drawn only when stderr is a terminal, so files, pipes and tests see nothing.
#![deny(missing_docs)]

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use poisson_nd::Progress;
use std::ops::ControlFlow;

/// A spinner on stderr (hidden when stderr is not a terminal), labelled `what`.
pub fn spinner(what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed_precise} {prefix} {msg}") {
        bar.set_style(style);
    }
    bar.set_prefix(what.to_string());
    bar
}

/// A progress hook that shows the run's progress on `bar` and never stops it.
pub fn hook(bar: &ProgressBar) -> impl Fn(Progress) -> ControlFlow<()> + Send + Sync + 'static {
    let bar = bar.clone();
    move |progress: Progress| {
        let message = match progress.fraction {
            Some(share) => {
                format!("{:.0}% of the cells, {} points", 100.0 * share, progress.points)
            }
            None => format!("{} points", progress.points),
        };
        bar.set_message(message);
        bar.tick();
        ControlFlow::Continue(())
    }
}
