//! Starting the external tools the media code runs (xorriso, bsdtar).

use std::process::Command;

/// A [`Command`] for `program` whose process dies with this one, even when this one is
/// SIGKILLed. Every tool the media code starts is made here: an orphaned xorriso would keep
/// writing into svc after a crash, fight the next run over its output and outlive the sweep of
/// leftovers at start-up. On Linux the child asks the kernel for SIGKILL when its parent dies
/// (`PR_SET_PDEATHSIG`). The kernel sends it when the *thread* that started the child ends, so a
/// caller must wait for the child on the thread that spawned it, as every caller here does.
pub fn command(program: &str) -> Command {
    #[allow(unused_mut)] // only Linux changes it
    let mut cmd = Command::new(program);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: between fork and exec the closure only makes the async-signal-safe calls
        // prctl and getppid, and builds io::Errors from numbers, which allocates nothing.
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(
                    libc::PR_SET_PDEATHSIG,
                    libc::SIGKILL as libc::c_ulong,
                    0 as libc::c_ulong,
                    0 as libc::c_ulong,
                    0 as libc::c_ulong,
                ) != 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                // A parent that died between fork and prctl sends no signal: give up here.
                if libc::getppid() != parent {
                    return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
    }
    cmd
}
