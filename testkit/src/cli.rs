//! Runs a command-line binary as a user would and checks how it ended.
//!
//! The binary's path is the caller's: `env!("CARGO_BIN_EXE_<name>")` exists only inside the
//! integration tests of the crate that builds the binary.

use std::ffi::OsStr;
use std::fmt::Debug;
use std::process::{Command, Output};

/// How a run ended: exit code (−1 when a signal ended it), stdout and stderr as UTF-8 text.
pub type Outcome = (i32, String, String);

/// Runs the binary at `exe` with `args` and waits for it; panics if it cannot be started.
pub fn run<S: AsRef<OsStr>>(exe: &str, args: &[S]) -> Output {
    Command::new(exe).args(args).output().unwrap_or_else(|e| panic!("cannot run {exe}: {e}"))
}

/// Runs the binary at `exe` with `args`; its exit code and output as text (panics unless
/// both streams are UTF-8).
pub fn run_text<S: AsRef<OsStr>>(exe: &str, args: &[S]) -> Outcome {
    outcome(run(exe, args))
}

/// The exit code and the two streams of `output` as text (panics unless both are UTF-8).
pub fn outcome(output: Output) -> Outcome {
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    )
}

/// Runs the binary at `exe` with `args`, expects exit code 0 and returns stdout; a failure
/// names the arguments and shows stderr.
pub fn expect_success<S: AsRef<OsStr> + Debug>(exe: &str, args: &[S]) -> String {
    let (code, stdout, stderr) = run_text(exe, args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

/// A refusal as the command line makes it: exit code 2, nothing on stdout, one line on
/// stderr that starts with `error: ` and contains `expected`. `what` names the run in a
/// failure message.
pub fn assert_refused(what: &str, (code, stdout, stderr): &Outcome, expected: &str) {
    assert_eq!(*code, 2, "{what}: {stderr}");
    assert!(stdout.is_empty(), "{what}: {stdout}");
    assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
    assert!(
        stderr.starts_with("error: ") && stderr.contains(expected),
        "{what}: expected {expected}: {stderr}"
    );
}
