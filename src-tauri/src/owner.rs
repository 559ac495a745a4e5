//! Root running a command against a data directory another user owns (the packaged service's
//! `/var/lib/bootsmith`, owned by the `bootsmith` user) runs it as that user: the files it
//! creates there (the database's WAL and shared memory, the log, a first key) would otherwise
//! belong to root and lock the service out of its own data.

use std::path::Path;

/// Switch to the owner of `data_dir` when running as root and the directory belongs to someone
/// else; that user's name (or uid) when switched. Call before any thread starts.
#[cfg(unix)]
pub fn become_data_owner(data_dir: &Path) -> anyhow::Result<Option<String>> {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Ok(None);
    }
    let Ok(meta) = std::fs::metadata(data_dir) else {
        return Ok(None);
    };
    let (uid, gid) = (meta.uid(), meta.gid());
    if uid == 0 {
        return Ok(None);
    }
    let name = user_name(uid);
    let fail = |what: &str| {
        anyhow::anyhow!(
            "cannot switch to {} (the owner of {}): {what}: {}",
            name.as_deref().unwrap_or("its owner"),
            data_dir.display(),
            std::io::Error::last_os_error()
        )
    };
    // SAFETY: plain system calls on numbers and a NUL-terminated name; no thread runs yet.
    unsafe {
        let groups_set = match &name {
            Some(n) => {
                let c = std::ffi::CString::new(n.as_str())?;
                libc::initgroups(c.as_ptr(), gid)
            }
            None => libc::setgroups(0, std::ptr::null()),
        };
        if groups_set != 0 {
            return Err(fail("setting its groups"));
        }
        if libc::setgid(gid) != 0 {
            return Err(fail("setgid"));
        }
        if libc::setuid(uid) != 0 {
            return Err(fail("setuid"));
        }
    }
    Ok(Some(name.unwrap_or_else(|| format!("uid {uid}"))))
}

/// Not on this system: the command runs as who started it.
#[cfg(not(unix))]
pub fn become_data_owner(_data_dir: &Path) -> anyhow::Result<Option<String>> {
    Ok(None)
}

#[cfg(unix)]
fn user_name(uid: u32) -> Option<String> {
    let mut buf = vec![0 as libc::c_char; 4096];
    // SAFETY: a zeroed passwd is a valid out-parameter; getpwuid_r writes into buf, whose
    // length it is told, and sets result to null or to &pwd.
    unsafe {
        let mut pwd: libc::passwd = std::mem::zeroed();
        let mut result = std::ptr::null_mut();
        let rc = libc::getpwuid_r(uid, &mut pwd, buf.as_mut_ptr(), buf.len(), &mut result);
        if rc != 0 || result.is_null() {
            return None;
        }
        Some(
            std::ffi::CStr::from_ptr(pwd.pw_name)
                .to_string_lossy()
                .into_owned(),
        )
    }
}
