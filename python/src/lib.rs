//! The native half of the Python package `poisson_nd`: the library and the experiments crate
//! behind a small set of functions and classes, which the package's Python modules dress as
//! scipy-style engines. Every sampler is built by the command line's own specification
//! (`experiments::spec`), so that Python, the Rust API and the command line give the same
//! points for the same seed and parameters.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod analysis;
mod arrays;
mod live;
mod sampling;
mod scatter;
mod shapes;
mod stages;
mod surface;
mod world;

/// A one-line library message as the `ValueError` Python code expects.
pub(crate) fn value_error(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// A whole-number argument in the range of `T`: a negative or too large value is a
/// `ValueError` naming it (Python ints reach Rust as `i128` so that neither is an
/// `OverflowError`).
pub(crate) fn whole<T: TryFrom<i128>>(value: i128, what: &str) -> PyResult<T> {
    if value < 0 {
        return Err(value_error(format!("{what} must not be negative, got {value}")));
    }
    T::try_from(value).map_err(|_| value_error(format!("{what} is too large, got {value}")))
}

/// The dimension check every entry point makes: 1 to 8, as the command line dispatches.
pub(crate) fn dim_error(d: usize) -> PyErr {
    value_error(format!("d must be between 1 and {}, got {d}", experiments::dims::MAX_DIM))
}

/// How a run started from Python stops early: the first Python error a callback raised (an
/// exception of a signed-distance function) or Ctrl-C, and the flag the run's progress hook
/// reads.
#[derive(Clone, Default)]
pub(crate) struct Interrupt {
    error: Arc<Mutex<Option<PyErr>>>,
    stop: Arc<AtomicBool>,
}

impl Interrupt {
    /// Keeps `error` unless an earlier one is kept, and asks the run to stop.
    pub(crate) fn set(&self, error: PyErr) {
        let mut slot = self.error.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(error);
        }
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether the run is asked to stop.
    pub(crate) fn is_set(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The kept error, taken out; the flag is cleared for the next run.
    pub(crate) fn take(&self) -> Option<PyErr> {
        self.stop.store(false, Ordering::Relaxed);
        self.error.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    /// The progress hook of a run: it stops the run once the flag is set.
    pub(crate) fn hook(
        &self,
    ) -> impl Fn(poisson_nd::Progress) -> ControlFlow<()> + Send + Sync + 'static {
        Interrupt::hook_any(vec![self.clone()])
    }

    /// The progress hook of a run that stops once any of `interrupts` is set.
    pub(crate) fn hook_any(
        interrupts: Vec<Interrupt>,
    ) -> impl Fn(poisson_nd::Progress) -> ControlFlow<()> + Send + Sync + 'static {
        move |_| {
            if interrupts.iter().any(Interrupt::is_set) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }
    }

    /// `Err` with the kept error, if any.
    pub(crate) fn check(&self) -> PyResult<()> {
        self.take().map_or(Ok(()), Err)
    }
}

/// How often a waiting call looks for a signal.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// Runs `work` on a worker thread while the calling thread waits without the GIL, looking for
/// signals: Python runs signal handlers on its main thread only, so a run that kept that
/// thread busy could not be interrupted. On Ctrl-C (or another signal handler's exception)
/// the interrupts are set, which asks the work to stop at its next progress check, and the
/// exception is raised once the work has returned.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    interrupts: &[&Interrupt],
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (done, finished) = std::sync::mpsc::channel();
        scope.spawn(move || {
            let _ = done.send(work());
        });
        py.detach(move || wait(&finished, interrupts, false))
    })
}

/// [`interruptible`] for work that owns what it uses: on Ctrl-C the exception is raised at
/// once, and the work, asked to stop, ends on its own thread and is dropped (a sampler that
/// has no progress check finishes its run first).
pub(crate) fn interruptible_owned<T: Send + 'static>(
    py: Python<'_>,
    interrupts: &[&Interrupt],
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (done, finished) = std::sync::mpsc::channel();
    workers::run(move || {
        let _ = done.send(work());
    });
    py.detach(move || wait(&finished, interrupts, true))
}

/// Threads that run owned work for [`interruptible_owned`], kept between runs: starting a
/// thread costs tens of microseconds, more than a small run.
mod workers {
    use std::sync::Mutex;
    use std::sync::mpsc::{Sender, channel};

    type Job = Box<dyn FnOnce() + Send>;

    /// The idle workers, each waiting for a job on its channel.
    static IDLE: Mutex<Vec<Sender<Job>>> = Mutex::new(Vec::new());

    /// Runs `job` on an idle worker, or on a new one when all are busy.
    pub(crate) fn run(job: impl FnOnce() + Send + 'static) {
        let mut job: Job = Box::new(job);
        loop {
            let idle = IDLE.lock().unwrap_or_else(|e| e.into_inner()).pop();
            match idle {
                Some(worker) => match worker.send(job) {
                    Ok(()) => return,
                    // That worker is gone (its thread ended): try another.
                    Err(returned) => job = returned.0,
                },
                None => break,
            }
        }
        let (sender, jobs) = channel::<Job>();
        let _ = sender.send(job);
        std::thread::spawn(move || {
            while let Ok(job) = jobs.recv() {
                job();
                IDLE.lock().unwrap_or_else(|e| e.into_inner()).push(sender.clone());
            }
        });
    }
}

/// Waits for the work's result, looking for signals every [`SIGNAL_POLL`]; on one, sets the
/// interrupts and raises its exception at once (`give_up`) or after the result.
fn wait<T>(
    finished: &std::sync::mpsc::Receiver<T>,
    interrupts: &[&Interrupt],
    give_up: bool,
) -> PyResult<T> {
    let mut signal = None;
    loop {
        match finished.recv_timeout(SIGNAL_POLL) {
            Ok(value) => return signal.map_or(Ok(value), Err),
            Err(RecvTimeoutError::Timeout) if signal.is_none() => {
                if let Err(e) = Python::attach(|py| py.check_signals()) {
                    for interrupt in interrupts {
                        interrupt.stop.store(true, Ordering::Relaxed);
                    }
                    if give_up {
                        return Err(e);
                    }
                    signal = Some(e);
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("the run's thread ended without a result"));
            }
        }
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MAX_DIM", experiments::dims::MAX_DIM)?;
    m.add("MAX_POINTS", poisson_nd::defaults::MAX_POINTS)?;
    m.add_function(wrap_pyfunction!(sampling::sample, m)?)?;
    m.add_function(wrap_pyfunction!(sampling::catalogue, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::analyze_json, m)?)?;
    m.add_function(wrap_pyfunction!(scatter::scatter, m)?)?;
    m.add_function(wrap_pyfunction!(surface::sample_surface, m)?)?;
    m.add_function(wrap_pyfunction!(surface::nearest_on_surface, m)?)?;
    m.add_class::<shapes::Field>()?;
    m.add_class::<shapes::Region>()?;
    m.add_class::<live::PoissonSet>()?;
    m.add_class::<world::World>()?;
    m.add_class::<stages::WorldStages>()?;
    m.add_function(wrap_pyfunction!(world::chunked_world_seed, m)?)?;
    Ok(())
}
