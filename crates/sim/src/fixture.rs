//! What a test does when something it needs from outside the repository is missing (sushy-tools,
//! root for a mount): under CI the test fails, elsewhere it says SKIPPED, loudly, and runs nothing.
//! A suite that passes by running nothing would hide a CI machine that lost its fixtures.

use std::io::Write;

/// Whether the tests run under CI: `CI=true`, as CI runs `CI=true bash .ci/run`.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Say that `fixture` is missing for `test` and how to `install` it: a panic under CI, else a
/// SKIPPED banner on stderr, after which the caller returns without testing anything.
pub fn missing(test: &str, fixture: &str, install: &str) {
    assert!(
        !in_ci(),
        "{test}: {fixture} is missing; under CI (CI=true) that fails the test instead of skipping it. {install}"
    );
    // Straight to stderr: the test harness captures eprintln! of passing tests.
    let _ = writeln!(
        std::io::stderr(),
        "\n!!!!! SKIPPED {test}: {fixture} is missing.\n!!!!! {install}\n"
    );
}

/// The name of the running test: libtest names each test's thread after it.
pub fn test_name() -> String {
    std::thread::current().name().unwrap_or("a test").to_owned()
}
