//! The tools the media code starts die with the process that started them, even on SIGKILL.
//!
//! This test binary runs itself as the parent that gets killed: `a_child_side` (run only with
//! `CHILD_SIDE` set) starts one `sleep` through [`bootsmith_media::tool::command`] and one with a
//! plain `Command`, prints both ids and waits; the test SIGKILLs it and watches both.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CHILD_SIDE: &str = "BOOTSMITH_TOOL_TEST_CHILD_SIDE";

/// Whether `pid` is a live process (a zombie waiting to be reaped is not).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => false,
    }
}

#[test]
fn a_child_side() {
    if std::env::var_os(CHILD_SIDE).is_none() {
        return;
    }
    let mut tool = bootsmith_media::tool::command("sleep")
        .arg("60")
        .spawn()
        .unwrap();
    // Meant to outlive this process: the test ends it.
    #[allow(clippy::zombie_processes)]
    let plain = Command::new("sleep").arg("60").spawn().unwrap();
    println!("tool-pid {}", tool.id());
    println!("plain-pid {}", plain.id());
    let _ = tool.wait();
}

#[cfg(target_os = "linux")]
#[test]
fn a_tool_dies_with_its_killed_parent() {
    let mut parent = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "a_child_side", "--nocapture", "--test-threads=1"])
        .env(CHILD_SIDE, "1")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let (mut tool, mut plain) = (None, None);
    let out = BufReader::new(parent.stdout.take().unwrap());
    for line in out.lines().map_while(Result::ok) {
        // The harness's `test a_child_side ... ` may stand before the first.
        let id = |tag: &str| {
            line.find(tag)
                .and_then(|i| line[i + tag.len()..].trim().parse::<u32>().ok())
        };
        tool = tool.or(id("tool-pid "));
        plain = plain.or(id("plain-pid "));
        if tool.is_some() && plain.is_some() {
            break;
        }
    }
    let (tool, plain) = (tool.unwrap(), plain.unwrap());
    assert!(alive(tool) && alive(plain));
    parent.kill().unwrap(); // SIGKILL: no handler, no destructor runs
    parent.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while alive(tool) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let (tool_survived, plain_survived) = (alive(tool), alive(plain));
    // The control, a child started the ordinary way, is orphaned, not killed: end it here (and
    // the tool's, when the helper failed).
    for pid in [tool, plain] {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    assert!(!tool_survived, "the tool outlived its killed parent");
    assert!(
        plain_survived,
        "the control child died too: the test no longer tells the helper's effect"
    );
}
