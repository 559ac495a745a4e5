//! Reading a file of svc into an answer's body, in chunks of [`CHUNK`] read straight into the
//! buffers handed to the connection (no copy between the read and the socket write).
//!
//! What is in the page cache is read on the connection's own thread: on Linux `preadv2` with
//! `RWF_NOWAIT` copies what is cached and says when the rest would have to wait for the disk.
//! Only that rest goes to a blocking thread. Handing every read to a blocking thread, as
//! `tokio::fs` does, costs two thread wake-ups per chunk, which on this project's machines took
//! more time than the read itself (benches/media.rs).

use std::fs::File;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use futures::future::BoxFuture;
use futures::FutureExt;

/// Bytes per read. 1 MiB is what management controllers ask for at a time, so their answers
/// take one read.
pub const CHUNK: u64 = 1024 * 1024;

/// Append to `buf` what the page cache holds of the `want` bytes at `offset`, without waiting
/// for the disk; stops at the end of the file.
#[cfg(target_os = "linux")]
fn read_cached(file: &File, offset: u64, buf: &mut Vec<u8>, want: usize) {
    use std::os::fd::AsRawFd;
    while buf.len() < want {
        let left = want - buf.len();
        let spare = &mut buf.spare_capacity_mut()[..left];
        let iov = libc::iovec {
            iov_base: spare.as_mut_ptr().cast(),
            iov_len: spare.len(),
        };
        let Ok(at) = libc::off_t::try_from(offset + buf.len() as u64) else {
            return;
        };
        // SAFETY: the one iovec covers the vector's spare capacity, which is allocated and
        // writable; the kernel writes at most `iov_len` bytes into it and says how many.
        let n = unsafe { libc::preadv2(file.as_raw_fd(), &iov, 1, at, libc::RWF_NOWAIT) };
        if n <= 0 {
            // The end of the file, or EAGAIN: the rest is not cached. Any other error (an
            // old kernel or a file system without RWF_NOWAIT) shows again on the blocking read.
            return;
        }
        // SAFETY: the kernel initialised the first `n` bytes of the spare capacity.
        unsafe { buf.set_len(buf.len() + n as usize) };
    }
}

#[cfg(not(target_os = "linux"))]
fn read_cached(_file: &File, _offset: u64, _buf: &mut Vec<u8>, _want: usize) {}

/// Read the `n` bytes at `offset`: what is cached here, the rest on a blocking thread. A file
/// that ends sooner (it was cut while being served) is an error: the length was promised.
async fn read(file: Arc<File>, offset: u64, n: u64) -> io::Result<Bytes> {
    let want = usize::try_from(n).map_err(io::Error::other)?;
    let mut buf = Vec::with_capacity(want);
    read_cached(&file, offset, &mut buf, want);
    if buf.len() < want {
        buf = tokio::task::spawn_blocking(move || {
            use std::os::unix::fs::FileExt;
            let done = buf.len();
            buf.resize(want, 0);
            file.read_exact_at(&mut buf[done..], offset + done as u64)
                .map_err(|e| match e.kind() {
                    io::ErrorKind::UnexpectedEof => {
                        io::Error::new(e.kind(), "the file got shorter while it was being served")
                    }
                    _ => e,
                })?;
            Ok::<_, io::Error>(buf)
        })
        .await
        .map_err(io::Error::other)??;
    }
    Ok(Bytes::from(buf))
}

/// The body for the `len` bytes of `file` from `start`; the first chunk is read before it is
/// returned, so a failing read is known before the answer's head is sent.
pub async fn open(file: File, start: u64, len: u64) -> io::Result<Body> {
    let file = Arc::new(file);
    let first = read(file.clone(), start, len.min(CHUNK)).await?;
    if len <= CHUNK {
        return Ok(Body::from(first));
    }
    Ok(Body::from_stream(Chunks {
        file,
        next: start + CHUNK,
        end: start + len,
        ready: Some(first),
        reading: None,
    }))
}

/// The chunks of a body longer than one.
struct Chunks {
    file: Arc<File>,
    /// Where the next read starts, and where the body ends.
    next: u64,
    end: u64,
    /// The first chunk, read by [`open`].
    ready: Option<Bytes>,
    /// The read under way.
    reading: Option<BoxFuture<'static, io::Result<Bytes>>>,
}

impl futures::Stream for Chunks {
    type Item = io::Result<Bytes>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if let Some(chunk) = this.ready.take() {
            return Poll::Ready(Some(Ok(chunk)));
        }
        if this.reading.is_none() {
            if this.next >= this.end {
                return Poll::Ready(None);
            }
            let n = (this.end - this.next).min(CHUNK);
            this.reading = Some(read(this.file.clone(), this.next, n).boxed());
            this.next += n;
        }
        let done = std::task::ready!(this.reading.as_mut().expect("a read").poll_unpin(cx));
        this.reading = None;
        if done.is_err() {
            // Nothing after an error.
            this.next = this.end;
        }
        Poll::Ready(Some(done))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    #[tokio::test]
    async fn bodies_hold_exactly_the_bytes_asked_for() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.iso");
        let data: Vec<u8> = (0..(3 * CHUNK + 123)).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, &data).unwrap();
        let len = data.len() as u64;
        for (start, n) in [
            (0, len),
            (0, 1),
            (5, CHUNK),
            (5, CHUNK + 1),
            (CHUNK - 1, 2 * CHUNK + 7),
            (len - 1, 1),
            (len - 1000, 1000),
            (0, 0),
        ] {
            let body = open(File::open(&path).unwrap(), start, n).await.unwrap();
            let got = body.collect().await.unwrap().to_bytes();
            assert_eq!(
                &got[..],
                &data[start as usize..(start + n) as usize],
                "{start}+{n}"
            );
        }
    }

    #[test]
    fn cached_reads_stop_at_the_end_and_never_overrun() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.img");
        std::fs::write(&path, b"0123456789").unwrap();
        let file = File::open(&path).unwrap();
        // Just written, so cached; elsewhere than Linux nothing is read here.
        let linux = cfg!(target_os = "linux");
        let mut buf = Vec::with_capacity(64);
        read_cached(&file, 4, &mut buf, 3);
        assert_eq!(buf, if linux { &b"456"[..] } else { b"" });
        let mut buf = Vec::with_capacity(64);
        read_cached(&file, 8, &mut buf, 64);
        assert_eq!(buf, if linux { &b"89"[..] } else { b"" });
        let mut buf = Vec::with_capacity(64);
        read_cached(&file, 10, &mut buf, 64);
        assert!(buf.is_empty());
    }

    /// Drop the file's pages from the page cache (clean pages of a synced file go).
    #[cfg(target_os = "linux")]
    fn evict(file: &File) {
        use std::os::fd::AsRawFd;
        file.sync_all().unwrap();
        // SAFETY: advice on an open descriptor; no memory is passed.
        let r = unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
        assert_eq!(r, 0);
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn what_the_page_cache_lacks_is_read_from_the_disk() {
        use std::os::unix::fs::OpenOptionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.iso");
        let data: Vec<u8> = (0..(2 * CHUNK + 77)).map(|i| (i % 241) as u8).collect();
        std::fs::write(&path, &data).unwrap();
        // Opened as svc opens files (non-blocking), for every way the cache can be: nothing
        // cached, and only the first chunk cached (on a disk; tmpfs keeps it all cached).
        let open_svc = || {
            std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(&path)
                .unwrap()
        };
        for cached in [0, CHUNK] {
            evict(&open_svc());
            if cached > 0 {
                let mut f = open_svc();
                std::io::Read::read_exact(&mut f, &mut vec![0; cached as usize]).unwrap();
            }
            let len = data.len() as u64;
            let body = open(open_svc(), 10, len - 10).await.unwrap();
            let got = body.collect().await.unwrap().to_bytes();
            assert!(got[..] == data[10..], "{cached} bytes cached");
        }
    }

    #[tokio::test]
    async fn a_file_cut_while_served_ends_in_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.iso");
        std::fs::write(&path, vec![7u8; (3 * CHUNK) as usize]).unwrap();
        let body = open(File::open(&path).unwrap(), 0, 3 * CHUNK)
            .await
            .unwrap();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(CHUNK + 10)
            .unwrap();
        let err = body.collect().await.unwrap_err();
        assert!(err.to_string().contains("got shorter"), "{err}");
        let file = || File::open(&path).unwrap();
        assert!(
            open(file(), 0, 3 * CHUNK).await.is_ok(),
            "the first chunk is there"
        );
        assert!(open(file(), CHUNK, CHUNK).await.is_err());
    }
}
