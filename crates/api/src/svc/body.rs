//! Reading a file of svc into an answer's body: large reads straight into the buffers handed
//! to the connection (no copy between the read and the socket write), the first of them in the
//! same blocking call that opened the file, and each further one started on a blocking thread
//! while the connection writes the one before, so disk and socket overlap.

use std::fs::File;
use std::future::Future;
use std::io::{self, Read, Seek, SeekFrom};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use tokio::task::JoinHandle;

/// Bytes per read. 1 MiB is what management controllers ask for at a time (and a whole answer
/// then takes one read); larger reads gained nothing measurable (benches/media.rs).
pub const CHUNK: u64 = 1024 * 1024;

/// Read `n` bytes at the file's position (a blocking call); a file that ends sooner (it was cut
/// while being served) is an error, since the answer's length was promised.
fn read(file: &File, n: u64) -> io::Result<Bytes> {
    let mut buf = Vec::with_capacity(n as usize);
    // Into the vector's spare room without zeroing it first; it never grows past `n`.
    Read::take(file, n).read_to_end(&mut buf)?;
    if (buf.len() as u64) < n {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the file got shorter while it was being served",
        ));
    }
    Ok(Bytes::from(buf))
}

/// The body for `len` bytes of `file` from `start` (a blocking call: it reads the first chunk).
pub fn open(mut file: File, start: u64, len: u64) -> io::Result<Body> {
    if start > 0 {
        file.seek(SeekFrom::Start(start))?;
    }
    let first = read(&file, len.min(CHUNK))?;
    if len <= CHUNK {
        return Ok(Body::from(first));
    }
    Ok(Body::from_stream(Chunks {
        file: Arc::new(file),
        unread: len - first.len() as u64,
        ready: Some(first),
        reading: None,
    }))
}

/// The chunks of a file after the first: one read ahead of what the connection has taken.
struct Chunks {
    file: Arc<File>,
    /// Bytes not yet asked of the file.
    unread: u64,
    /// A chunk read and not yet handed out.
    ready: Option<Bytes>,
    /// The read under way.
    reading: Option<JoinHandle<io::Result<Bytes>>>,
}

impl Chunks {
    fn read_next(&mut self) {
        if self.unread == 0 {
            return;
        }
        let n = self.unread.min(CHUNK);
        self.unread -= n;
        let file = self.file.clone();
        self.reading = Some(tokio::task::spawn_blocking(move || read(&file, n)));
    }
}

impl futures::Stream for Chunks {
    type Item = io::Result<Bytes>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        let chunk = match (this.ready.take(), this.reading.as_mut()) {
            (Some(chunk), _) => chunk,
            (None, Some(reading)) => {
                let done = std::task::ready!(Pin::new(reading).poll(cx));
                this.reading = None;
                match done {
                    Ok(Ok(chunk)) => chunk,
                    Ok(Err(e)) => {
                        this.unread = 0;
                        return Poll::Ready(Some(Err(e)));
                    }
                    Err(e) => {
                        this.unread = 0;
                        return Poll::Ready(Some(Err(io::Error::other(e))));
                    }
                }
            }
            (None, None) => return Poll::Ready(None),
        };
        this.read_next();
        Poll::Ready(Some(Ok(chunk)))
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
            let body = open(File::open(&path).unwrap(), start, n).unwrap();
            let got = body.collect().await.unwrap().to_bytes();
            assert_eq!(
                &got[..],
                &data[start as usize..(start + n) as usize],
                "{start}+{n}"
            );
        }
    }

    #[tokio::test]
    async fn a_file_cut_while_served_ends_in_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.iso");
        std::fs::write(&path, vec![7u8; (3 * CHUNK) as usize]).unwrap();
        let body = open(File::open(&path).unwrap(), 0, 3 * CHUNK).unwrap();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(CHUNK + 10)
            .unwrap();
        assert!(body.collect().await.is_err());
        assert!(open(File::open(&path).unwrap(), 0, 3 * CHUNK).is_ok());
        assert!(open(File::open(&path).unwrap(), CHUNK, CHUNK).is_err());
    }
}
