//! Install-media figures: writing 1000 per-host answer images, extracting a
//! ~1 GiB ISO into an install tree, and serving that ISO over `GET /svc/<file>`
//! (whole file and 1 MiB ranges), each next to a baseline (dd / raw writes,
//! cp, nginx when installed).
//! Run: `cargo bench --no-default-features --bench media`; name sections to run only those
//! (`-- images`, `-- extract`, `-- serve`: serving alone takes under a minute once the ISO
//! is cached). nginx (`apt-get install nginx-light`) is the baseline for serving.
//!
//! Scratch files go to `<target>/bench-media/` (a real disk, not tmpfs); the
//! synthetic tree and its ISO are cached there between runs, everything else
//! is removed at the end, also when a step panics.

use std::fs;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bootsmith_media::extract::Extracted;
use bootsmith_media::fat::{ImageFile, IMAGE_SIZE};

const BIN: &str = env!("CARGO_BIN_EXE_bootsmith");
const MIB: u64 = 1024 * 1024;
const GIB: u64 = 1024 * MIB;

fn main() {
    let work = target_dir().join("bench-media");
    fs::create_dir_all(&work).unwrap();
    let (fs_type, free) = disk(&work);
    println!(
        "working dir: {} (filesystem {fs_type}, {:.1} GiB free)",
        work.display(),
        free as f64 / GIB as f64
    );
    if fs_type.contains("tmpfs") || fs_type.contains("ramfs") {
        println!("WARNING: the working dir is in memory; the disk figures below mean little");
    }
    let mut summary = Vec::new();
    // `cargo bench` adds `--bench`; any other word names a section to run.
    let named: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    for n in &named {
        assert!(
            ["images", "extract", "serve"].contains(&n.as_str()),
            "unknown section {n:?}: images, extract, serve"
        );
    }
    let run = |section: &str| named.is_empty() || named.iter().any(|n| n == section);

    if run("images") {
        println!(
            "\n== 1. per-host answer images (1 MiB FAT12, label OEMDRV, one ~3 KiB ks.cfg) =="
        );
        images(&work, &mut summary);
    }

    if !run("extract") && !run("serve") {
        print_summary(&summary);
        return;
    }
    println!("\n== 2. ISO extraction ==");
    let iso = synthetic_iso(&work, free);
    if run("extract") {
        extraction(&work, &iso, &mut summary);
    }

    if run("serve") {
        println!("\n== 3. serving the ISO (GET /svc/<file>, loopback) ==");
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(serving(&work, &iso, &mut summary));
    }
    print_summary(&summary);
}

fn print_summary(summary: &[(String, String)]) {
    println!("\n== summary ==");
    let width = summary.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    for (k, v) in summary {
        println!("{k:<width$}  {v}");
    }
}

// ---------------------------------------------------------------- helpers

/// The cargo target dir: the bench runs as `<target>/<profile>/deps/media-<hash>`.
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.ancestors()
        .find(|p| p.file_name().is_some_and(|n| n == "deps"))
        .and_then(|deps| deps.parent()?.parent())
        .map(Path::to_owned)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
}

/// Filesystem type and bytes available at `dir`.
fn disk(dir: &Path) -> (String, u64) {
    // findmnt names ext4 as such; `stat -f` only says "ext2/ext3".
    let probe = |cmd: &mut Command| {
        cmd.output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
            .filter(|s| !s.is_empty())
    };
    let fs_type = probe(
        Command::new("findmnt")
            .args(["-n", "-o", "FSTYPE", "-T"])
            .arg(dir),
    )
    .or_else(|| probe(Command::new("stat").args(["-f", "-c", "%T"]).arg(dir)))
    .unwrap_or_else(|| "unknown".into());
    let df = Command::new("df").arg("-Pk").arg(dir).output().unwrap();
    let text = String::from_utf8_lossy(&df.stdout);
    let avail_kib: u64 = text
        .lines()
        .nth(1)
        .and_then(|l| l.split_whitespace().nth(3))
        .and_then(|v| v.parse().ok())
        .expect("df -Pk output");
    (fs_type, avail_kib * 1024)
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn mib_s(bytes: u64, d: Duration) -> f64 {
    bytes as f64 / MIB as f64 / secs(d)
}

/// xorshift64*: fast, deterministic, and its output does not compress.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn fill(&mut self, buf: &mut [u8]) {
        for c in buf.chunks_mut(8) {
            let v = self.next().to_le_bytes();
            c.copy_from_slice(&v[..c.len()]);
        }
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A child process that is stopped (TERM, then KILL after 5 s) when dropped.
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.0.id().to_string())
            .stderr(Stdio::null())
            .status();
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(5) {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Wait until `GET <path>` on the port answers 200 (HEAD is enough for both servers).
fn wait_ready(proc: &mut Proc, port: u16, path: &str, what: &str) {
    let t0 = Instant::now();
    loop {
        if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) {
            let req = format!("HEAD {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            s.write_all(req.as_bytes()).unwrap();
            let mut buf = String::new();
            let _ = s.read_to_string(&mut buf);
            if buf.starts_with("HTTP/1.1 200") {
                return;
            }
        }
        if let Ok(Some(st)) = proc.0.try_wait() {
            panic!("{what} exited during start: {st}");
        }
        assert!(
            t0.elapsed() < Duration::from_secs(15),
            "{what} did not start"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

// ------------------------------------------------------- 1. answer images

fn kickstart(i: usize) -> String {
    let ip = format!("10.9.{}.{}", i / 250, i % 250 + 1);
    let mut ks = format!(
        r#"# Kickstart for node{i:04}, generated by Bootsmith
#version=RHEL9
text
reboot --eject
url --url=http://10.0.0.10:8080/svc/rocky9/
repo --name=BaseOS --baseurl=http://10.0.0.10:8080/svc/rocky9/BaseOS
repo --name=AppStream --baseurl=http://10.0.0.10:8080/svc/rocky9/AppStream
lang en_US.UTF-8
keyboard --xlayouts='us'
timezone Etc/UTC --utc
timesource --ntp-server=10.0.0.123
network --bootproto=static --device=link --ip={ip} --netmask=255.255.0.0 --gateway=10.0.0.1 --nameserver=10.0.0.53 --hostname=node{i:04}.k8s.example.net --activate --onboot=yes
firewall --enabled --service=ssh
selinux --enforcing
firstboot --disabled
skipx
rootpw --iscrypted $6$rounds=656000$Yf0Zc2pN8uQe1bTw$3aGx1t0y9Kq5y7sVhM0Wc1mYp6Qe2rL8nB4dF7gH9jK0lZ1xC3vB5nM7qW9eR1tY3uI5oP7aS9dF1gH3jK5lZ7x
user --name=ops --groups=wheel --iscrypted --password=$6$rounds=656000$Qh2Lk9Vb7Xc1Za3S$9mN8bV7cX6zL5kJ4hG3fD2sA1pO0iU9yT8rE7wQ6mN5bV4cX3zL2kJ1hG0fD9sA8pO7iU6yT5rE4wQ3mN2bV1c
sshkey --username=ops "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIF7y0x2Wm4b8c6d1e3f5a7b9c0d2e4f6a8b0c2d4e6f8a0 ops@bootsmith"
ignoredisk --only-use=sda
zerombr
clearpart --all --initlabel --drives=sda
bootloader --location=mbr --boot-drive=sda --append="crashkernel=auto console=tty0 console=ttyS0,115200n8"
part /boot/efi --fstype=efi --size=600 --ondisk=sda
part /boot --fstype=xfs --size=1024 --ondisk=sda
part pv.01 --size=1 --grow --ondisk=sda
volgroup vg_root pv.01
logvol / --vgname=vg_root --name=root --fstype=xfs --size=40960
logvol /var --vgname=vg_root --name=var --fstype=xfs --size=102400 --grow
logvol /var/log --vgname=vg_root --name=log --fstype=xfs --size=16384
logvol swap --vgname=vg_root --name=swap --size=4096

%packages --ignoremissing
@^minimal-environment
chrony
curl
tar
rsync
lvm2
iproute-tc
conntrack-tools
socat
container-selinux
-iwl*firmware
%end

%post --log=/root/ks-post.log
set -eux
echo "node{i:04}" > /etc/hostname
cat > /etc/sysctl.d/90-k8s.conf <<'EOF'
net.bridge.bridge-nf-call-iptables = 1
net.bridge.bridge-nf-call-ip6tables = 1
net.ipv4.ip_forward = 1
vm.swappiness = 0
EOF
cat > /etc/modules-load.d/k8s.conf <<'EOF'
overlay
br_netfilter
EOF
sed -i 's/^#\?PermitRootLogin.*/PermitRootLogin no/' /etc/ssh/sshd_config
sed -i 's/^#\?PasswordAuthentication.*/PasswordAuthentication no/' /etc/ssh/sshd_config
echo "ops ALL=(ALL) NOPASSWD: ALL" > /etc/sudoers.d/ops
chmod 0440 /etc/sudoers.d/ops
systemctl enable chronyd sshd
swapoff -a
sed -i '/ swap / s/^/#/' /etc/fstab
curl -fsS -X POST http://10.0.0.10:8080/svc/done/node{i:04} || true
%end
"#
    );
    // Pad with comments to a realistic ~3 KiB (rendered templates carry notes and role blocks).
    while ks.len() < 3 * 1024 {
        ks.push_str("# role: k8s node; managed by Bootsmith, changes are overwritten\n");
    }
    ks
}

fn images(work: &Path, summary: &mut Vec<(String, String)>) {
    const N: usize = 1000;
    let hosts: Vec<[ImageFile; 1]> = (0..N)
        .map(|i| {
            [ImageFile {
                name: "ks.cfg".into(),
                contents: kickstart(i).into_bytes(),
            }]
        })
        .collect();
    let avg = hosts.iter().map(|h| h[0].contents.len()).sum::<usize>() / N;
    println!(
        "scratch dir: a temp dir under {} (same disk as a real svc dir)",
        work.display()
    );

    let dir = tempfile::tempdir_in(work).unwrap();
    let t = Instant::now();
    for (i, files) in hosts.iter().enumerate() {
        bootsmith_media::fat::write_image(
            &dir.path().join(format!("node{i:04}.img")),
            "OEMDRV",
            files,
        )
        .unwrap();
    }
    let img = t.elapsed();
    let mut count = 0;
    for e in fs::read_dir(dir.path()).unwrap() {
        let e = e.unwrap();
        assert_eq!(e.metadata().unwrap().len(), IMAGE_SIZE, "{:?}", e.path());
        count += 1;
    }
    assert_eq!(count, N, "one image per host, no temp files left");
    let (label, files) =
        bootsmith_media::fat::read_image(&dir.path().join("node0999.img")).unwrap();
    assert_eq!((label.as_str(), files.len()), ("OEMDRV", 1));
    assert_eq!(files, hosts[N - 1]);
    drop(dir);

    // Baseline: a shell loop of dd, one process per image.
    let dir = tempfile::tempdir_in(work).unwrap();
    let t = Instant::now();
    for i in 0..N {
        let st = Command::new("dd")
            .arg("if=/dev/zero")
            .arg(format!("of={}/{i}.img", dir.path().display()))
            .args(["bs=1M", "count=1", "status=none"])
            .status()
            .unwrap();
        assert!(st.success());
    }
    let dd = t.elapsed();
    drop(dir);

    // Baseline without processes: 1 MiB written in-process, without and with fsync.
    let zeros = vec![0u8; IMAGE_SIZE as usize];
    let dir = tempfile::tempdir_in(work).unwrap();
    let t = Instant::now();
    for i in 0..N {
        fs::write(dir.path().join(format!("{i}.img")), &zeros).unwrap();
    }
    let raw = t.elapsed();
    drop(dir);
    let dir = tempfile::tempdir_in(work).unwrap();
    let t = Instant::now();
    for i in 0..N {
        let mut f = fs::File::create(dir.path().join(format!("{i}.img"))).unwrap();
        f.write_all(&zeros).unwrap();
        f.sync_all().unwrap();
    }
    let raw_sync = t.elapsed();
    drop(dir);

    let per = |d: Duration| d.as_secs_f64() * 1000.0 / N as f64;
    println!(
        "write_image x{N} (ks.cfg avg {avg} B, each 1 MiB, fsynced, renamed into place): {:.2} s total, {:.2} ms/image",
        secs(img),
        per(img)
    );
    println!(
        "baseline dd if=/dev/zero bs=1M count=1, one process each, x{N}: {:.2} s total, {:.2} ms/image",
        secs(dd),
        per(dd)
    );
    println!(
        "baseline std::fs::write 1 MiB in-process, no fsync, x{N}: {:.2} s total, {:.2} ms/image",
        secs(raw),
        per(raw)
    );
    println!(
        "baseline write 1 MiB + fsync in-process, x{N}: {:.2} s total, {:.2} ms/image",
        secs(raw_sync),
        per(raw_sync)
    );
    println!(
        "write_image vs dd: {:.2}x the time; vs raw write: {:.2}x; vs raw write + fsync: {:.2}x",
        secs(img) / secs(dd),
        secs(img) / secs(raw),
        secs(img) / secs(raw_sync)
    );
    summary.push((
        format!("{N} answer images (write_image)"),
        format!("{:.2} s, {:.2} ms/image", secs(img), per(img)),
    ));
    summary.push((
        format!("  vs {N} x dd (process each)"),
        format!("{:.2} s, {:.2} ms/image", secs(dd), per(dd)),
    ));
    summary.push((
        format!("  vs {N} x raw 1 MiB write"),
        format!("{:.2} s ({:.2} s with fsync)", secs(raw), secs(raw_sync)),
    ));
}

// ------------------------------------------------------------ 2. the ISO

/// Marker file at the top of the tree, as on a real installer ISO.
const DISCINFO: &str = "1700000000.000000\nRocky Linux 9.4\nx86_64\n";

struct SyntheticIso {
    tree: PathBuf,
    iso: PathBuf,
    files: u64,
    bytes: u64,
    note: String,
}

/// Build (or reuse) the synthetic tree and its ISO under `work/iso-<size>M/`.
fn synthetic_iso(work: &Path, free: u64) -> SyntheticIso {
    let full_dir = work.join("iso-1024M");
    let full_cached = full_dir.join("complete").exists();
    // Peak need: tree + ISO + one extracted copy (+ headroom); with the cache present only the copy.
    let (size, note) = if free >= 4 * GIB || (full_cached && free >= 2 * GIB) {
        (GIB, "~1 GiB".to_owned())
    } else {
        (
            256 * MIB,
            format!(
                "scaled down to ~256 MiB: only {:.1} GiB free (< 4 GiB)",
                free as f64 / GIB as f64
            ),
        )
    };
    let (small_n, big_n) = if size == GIB { (2000, 4) } else { (500, 4) };
    let dir = work.join(format!("iso-{}M", size / MIB));
    let tree = dir.join("tree");
    let iso = dir.join("bench.iso");
    let done = dir.join("complete");

    // Small files: 4–64 KiB in nested dirs; the big files make up the rest.
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let small: Vec<(PathBuf, u64)> = (0..small_n)
        .map(|i| {
            let len = 4096 + rng.below(60 * 1024 + 1);
            let p = PathBuf::from(format!(
                "Packages/{}/{:02}/{:02}/pkg-{i:05}.rpm",
                (b'a' + (i % 26) as u8) as char,
                (i / 26) % 8,
                i % 7
            ));
            (p, len)
        })
        .collect();
    let small_total: u64 = small.iter().map(|(_, l)| l).sum();
    let big_len = ((size - small_total) / big_n) & !4095;
    // Counts include .discinfo.
    let files = small_n as u64 + big_n + 1;
    let bytes = small_total + big_len * big_n + DISCINFO.len() as u64;

    if done.exists() {
        println!(
            "ISO: reusing {} ({:.0} MiB, {files} files in the tree)",
            iso.display(),
            fs::metadata(&iso).unwrap().len() as f64 / MIB as f64
        );
    } else {
        if dir.exists() {
            fs::remove_dir_all(&dir).unwrap();
        }
        println!(
            "ISO: building the tree ({big_n} x {} MiB + {small_n} files of 4-64 KiB = {} MiB) in {} ...",
            big_len / MIB,
            bytes / MIB,
            tree.display()
        );
        let t = Instant::now();
        let mut buf = vec![0u8; MIB as usize];
        for b in 0..big_n {
            let p = tree.join(format!("images/disk{b}/install{b}.img"));
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            let mut f = std::io::BufWriter::new(fs::File::create(&p).unwrap());
            let mut left = big_len;
            while left > 0 {
                let n = left.min(MIB) as usize;
                rng.fill(&mut buf[..n]);
                f.write_all(&buf[..n]).unwrap();
                left -= n as u64;
            }
            f.flush().unwrap();
        }
        for (rel, len) in &small {
            let p = tree.join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            rng.fill(&mut buf[..*len as usize]);
            fs::write(&p, &buf[..*len as usize]).unwrap();
        }
        fs::write(tree.join(".discinfo"), DISCINFO).unwrap();
        let tree_time = t.elapsed();
        let t = Instant::now();
        let out = Command::new("xorriso")
            .args(["-as", "mkisofs", "-R", "-J", "-o"])
            .arg(&iso)
            .arg(&tree)
            .output()
            .expect("xorriso (apt-get install xorriso)");
        assert!(
            out.status.success(),
            "xorriso failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        fs::write(&done, format!("{files} {bytes}\n")).unwrap();
        println!(
            "ISO: tree written in {:.1} s, xorriso -as mkisofs -R -J took {:.1} s -> {} ({:.0} MiB)",
            secs(tree_time),
            secs(t.elapsed()),
            iso.display(),
            fs::metadata(&iso).unwrap().len() as f64 / MIB as f64
        );
    }
    SyntheticIso {
        tree,
        iso,
        files,
        bytes,
        note,
    }
}

fn dir_bytes(p: &Path) -> u64 {
    let mut total = 0;
    for e in fs::read_dir(p).unwrap() {
        let e = e.unwrap();
        let m = fs::symlink_metadata(e.path()).unwrap();
        total += if m.is_dir() {
            dir_bytes(&e.path())
        } else {
            m.len()
        };
    }
    total
}

/// Run `f` twice with a fresh scratch dir each time; returns (first, second).
fn twice(work: &Path, mut f: impl FnMut(&Path) -> Duration) -> (Duration, Duration) {
    let mut runs = Vec::new();
    for _ in 0..2 {
        let scratch = tempfile::tempdir_in(work).unwrap();
        runs.push(f(scratch.path()));
    }
    (runs[0], runs[1])
}

fn extraction(work: &Path, s: &SyntheticIso, summary: &mut Vec<(String, String)>) {
    let iso_len = fs::metadata(&s.iso).unwrap().len();
    println!(
        "ISO size: {} ({:.0} MiB file, {:.0} MiB of file data, {} files); each figure is the 2nd of 2 runs (warm page cache), 1st run in brackets; nothing is fsynced",
        s.note,
        iso_len as f64 / MIB as f64,
        s.bytes as f64 / MIB as f64,
        s.files
    );

    let (x1, x2) = twice(work, |scratch| {
        let dest = scratch.join("rocky9");
        let mut calls = 0u64;
        let mut last = (0, 0);
        let t = Instant::now();
        let r = bootsmith_media::extract::extract(&s.iso, &dest, &mut |done, total| {
            calls += 1;
            last = (done, total);
        })
        .unwrap();
        let el = t.elapsed();
        assert_eq!(
            r,
            Extracted::Built {
                files: s.files,
                bytes: s.bytes
            }
        );
        assert_eq!(last, (s.bytes, s.bytes), "progress reaches the total");
        assert!(calls > 0);
        el
    });
    let (r1, r2) = twice(work, |scratch| {
        let dest = scratch.join("tree");
        let t = Instant::now();
        let st = Command::new("cp")
            .arg("-r")
            .arg(&s.tree)
            .arg(&dest)
            .status()
            .unwrap();
        let el = t.elapsed();
        assert!(st.success());
        assert_eq!(dir_bytes(&dest), s.bytes);
        el
    });
    let (c1, c2) = twice(work, |scratch| {
        let dest = scratch.join("copy.iso");
        let t = Instant::now();
        let st = Command::new("cp").arg(&s.iso).arg(&dest).status().unwrap();
        let el = t.elapsed();
        assert!(st.success());
        assert_eq!(fs::metadata(&dest).unwrap().len(), iso_len);
        el
    });

    println!(
        "extract() ISO -> install tree: {:.2} s, {:.0} MiB/s of file data [1st run {:.0} MiB/s]",
        secs(x2),
        mib_s(s.bytes, x2),
        mib_s(s.bytes, x1)
    );
    println!(
        "baseline cp -r <tree> (same files): {:.2} s, {:.0} MiB/s [1st run {:.0} MiB/s]",
        secs(r2),
        mib_s(s.bytes, r2),
        mib_s(s.bytes, r1)
    );
    println!(
        "baseline cp <iso> (one big file): {:.2} s, {:.0} MiB/s [1st run {:.0} MiB/s]",
        secs(c2),
        mib_s(iso_len, c2),
        mib_s(iso_len, c1)
    );
    summary.push((
        format!("extract {:.0} MiB ISO", iso_len as f64 / MIB as f64),
        format!(
            "{:.0} MiB/s ({:.2} s, warm cache)",
            mib_s(s.bytes, x2),
            secs(x2)
        ),
    ));
    summary.push((
        "  vs cp -r of the tree".into(),
        format!("{:.0} MiB/s ({:.2} s)", mib_s(s.bytes, r2), secs(r2)),
    ));
    summary.push((
        "  vs cp of the ISO file".into(),
        format!("{:.0} MiB/s ({:.2} s)", mib_s(iso_len, c2), secs(c2)),
    ));
}

// ------------------------------------------------------------ 3. serving

const RANGES: usize = 256;
const CLIENTS: usize = 8;
/// Rounds of section 3. In each, every server gets one whole-file GET, then the ranges in
/// batches of [`BATCH`], 1 client then [`CLIENTS`], the servers taking turns batch by batch
/// (in a new order each time), so a neighbour's build slowing the machine for a moment hits
/// them alike; each figure is a median of these steps, each ratio one of side-by-side steps.
const ROUNDS: usize = 7;
const BATCH: usize = 16;
/// Hosts stored for the accounting figures, and the one whose media are fetched.
const HOSTS: usize = 1000;
const HOST: usize = 42;

fn host_ip(i: usize) -> std::net::IpAddr {
    // All of 127.0.0.0/8 reaches loopback, and a client can bind any of it.
    std::net::Ipv4Addr::new(127, 1, (i / 250) as u8, (i % 250 + 1) as u8).into()
}

fn client(from: std::net::IpAddr) -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .local_address(from)
        .build()
        .unwrap()
}

/// A byte range and the bytes expected at its start and end (checked on every answer).
#[derive(Clone)]
struct Probe {
    start: u64,
    head: [u8; 16],
    tail: [u8; 16],
}

fn probes(iso: &Path, len: u64) -> Vec<Probe> {
    let mut f = fs::File::open(iso).unwrap();
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    (0..RANGES)
        .map(|_| {
            let start = rng.below(len - MIB + 1);
            let mut head = [0u8; 16];
            let mut tail = [0u8; 16];
            f.seek(SeekFrom::Start(start)).unwrap();
            f.read_exact(&mut head).unwrap();
            f.seek(SeekFrom::Start(start + MIB - 16)).unwrap();
            f.read_exact(&mut tail).unwrap();
            Probe { start, head, tail }
        })
        .collect()
}

async fn get_whole(c: &reqwest::Client, url: &str, len: u64) -> Duration {
    let t = Instant::now();
    let mut r = c.get(url).send().await.unwrap();
    assert_eq!(r.status(), reqwest::StatusCode::OK, "{url}");
    let mut n = 0u64;
    while let Some(chunk) = r.chunk().await.unwrap() {
        n += chunk.len() as u64;
    }
    let el = t.elapsed();
    assert_eq!(n, len, "whole body");
    el
}

async fn get_range(c: &reqwest::Client, url: &str, p: &Probe) {
    let r = c
        .get(url)
        .header(
            reqwest::header::RANGE,
            format!("bytes={}-{}", p.start, p.start + MIB - 1),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), reqwest::StatusCode::PARTIAL_CONTENT, "{url}");
    let body = r.bytes().await.unwrap();
    assert_eq!(body.len() as u64, MIB);
    assert_eq!(body[..16], p.head);
    assert_eq!(body[body.len() - 16..], p.tail);
}

/// One way of fetching the ISO: a server, a file name, and the address the clients fetch from.
struct Target {
    name: &'static str,
    url: String,
    /// The server's processes, for its CPU time.
    pids: Vec<u32>,
    /// One client for the whole file and the sequential ranges, and [`CLIENTS`] more.
    one: reqwest::Client,
    many: Vec<reqwest::Client>,
    /// Requests sent (the accounting must have seen every one).
    requests: u64,
    s: Samples,
}

/// Times of the measured steps, in the same order for every target (so the n-th of two
/// targets ran side by side), and the server CPU time they took.
#[derive(Default)]
struct Samples {
    whole: Vec<Duration>,
    seq: Vec<Duration>,
    conc: Vec<Duration>,
    cpu: Duration,
    bytes: u64,
}

impl Target {
    async fn new(
        name: &'static str,
        url: String,
        pids: Vec<u32>,
        from: std::net::IpAddr,
        len: u64,
        probe: &Probe,
    ) -> Target {
        let one = client(from);
        let many: Vec<_> = (0..CLIENTS).map(|_| client(from)).collect();
        // Warm up: page cache, and every client's connection.
        get_whole(&one, &url, len).await;
        for c in &many {
            get_range(c, &url, probe).await;
        }
        Target {
            name,
            url,
            pids,
            one,
            many,
            requests: 1 + CLIENTS as u64,
            s: Samples::default(),
        }
    }

    async fn whole(&mut self, len: u64) {
        let cpu = cpu_time(&self.pids);
        self.s
            .whole
            .push(get_whole(&self.one, &self.url, len).await);
        self.s.cpu += cpu_time(&self.pids).saturating_sub(cpu);
        self.s.bytes += len;
        self.requests += 1;
    }

    async fn sequential(&mut self, probes: &[Probe]) {
        let cpu = cpu_time(&self.pids);
        let t = Instant::now();
        for p in probes {
            get_range(&self.one, &self.url, p).await;
        }
        self.s.seq.push(t.elapsed());
        self.s.cpu += cpu_time(&self.pids).saturating_sub(cpu);
        self.s.bytes += probes.len() as u64 * MIB;
        self.requests += probes.len() as u64;
    }

    async fn concurrent(&mut self, probes: &[Probe]) {
        let cpu = cpu_time(&self.pids);
        let t = Instant::now();
        let tasks = self.many.iter().enumerate().map(|(k, c)| {
            let (c, url) = (c.clone(), self.url.clone());
            let mine: Vec<Probe> = probes.iter().skip(k).step_by(CLIENTS).cloned().collect();
            tokio::spawn(async move {
                for p in &mine {
                    get_range(&c, &url, p).await;
                }
            })
        });
        for r in futures::future::join_all(tasks).await {
            r.unwrap();
        }
        self.s.conc.push(t.elapsed());
        self.s.cpu += cpu_time(&self.pids).saturating_sub(cpu);
        self.s.bytes += probes.len() as u64 * MIB;
        self.requests += probes.len() as u64;
    }
}

/// User and system CPU time of these processes so far (`/proc/<pid>/stat`, clock ticks).
fn cpu_time(pids: &[u32]) -> Duration {
    let ticks: u64 = pids
        .iter()
        .filter_map(|pid| fs::read_to_string(format!("/proc/{pid}/stat")).ok())
        .filter_map(|stat| {
            // Fields after the command name, which is in parentheses and may hold blanks.
            let rest = &stat[stat.rfind(')')? + 2..];
            let f: Vec<&str> = rest.split_whitespace().collect();
            Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
        })
        .sum();
    Duration::from_millis(ticks * 1000 / clock_ticks())
}

/// Clock ticks per second, as `getconf CLK_TCK` says (100 on Linux).
fn clock_ticks() -> u64 {
    static TICKS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *TICKS.get_or_init(|| {
        Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok()?.trim().parse().ok())
            .unwrap_or(100)
    })
}

/// The processes whose parent is `pid` (nginx's workers).
fn children(pid: u32) -> Vec<u32> {
    fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            fs::read_to_string(format!("/proc/{p}/stat")).is_ok_and(|stat| {
                stat.rfind(')')
                    .and_then(|i| stat[i + 2..].split_whitespace().nth(1)?.parse().ok())
                    == Some(pid)
            })
        })
        .collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Each kind of step: its name, its samples, and the bytes of one sample.
fn kinds(s: &Samples, len: u64) -> [(&'static str, &[Duration], u64); 3] {
    let batch = BATCH as u64 * MIB;
    [
        ("whole", &s.whole, len),
        ("ranges 1 client", &s.seq, batch),
        ("ranges 8 clients", &s.conc, batch),
    ]
}

/// Median throughput (MiB/s) of each kind of step.
fn medians(s: &Samples, len: u64) -> [f64; 3] {
    kinds(s, len).map(|(_, d, bytes)| median(d.iter().map(|&d| mib_s(bytes, d)).collect()))
}

/// `a`'s throughput over `b`'s, step by step side by side: the median and the middle half.
fn ratios(a: &Samples, b: &Samples, len: u64) -> String {
    kinds(a, len)
        .iter()
        .zip(kinds(b, len))
        .map(|((name, a, _), (_, b, _))| {
            let mut r: Vec<f64> = a.iter().zip(b).map(|(a, b)| secs(*b) / secs(*a)).collect();
            r.sort_by(f64::total_cmp);
            let (lo, hi) = (r[r.len() / 4], r[(r.len() * 3) / 4]);
            format!("{name} {:.2}x [{lo:.2}-{hi:.2}]", median(r))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Server CPU time per GiB served.
fn cpu_per_gib(s: &Samples) -> f64 {
    secs(s.cpu) * 1000.0 / (s.bytes as f64 / GIB as f64)
}

fn find_nginx() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        // sbin is often missing from a user's PATH; nginx lives there.
        .chain(["/usr/sbin", "/usr/local/sbin"].map(PathBuf::from))
        .map(|d| d.join("nginx"))
        .find(|p| p.is_file())
}

fn is_root() -> bool {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2).map(|u| u == "0"))
        })
        .unwrap_or(false)
}

/// Start nginx on `svc` (sendfile on), if it is installed.
fn start_nginx(dir: &Path, svc: &Path) -> Option<(Proc, u16, String)> {
    let nginx = find_nginx()?;
    let ndir = dir.join("nginx");
    fs::create_dir_all(&ndir).unwrap();
    let nport = free_port();
    let user = if is_root() { "user root;\n" } else { "" };
    let conf = format!(
        "{user}daemon off;\nworker_processes auto;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
         events {{ worker_connections 256; }}\n\
         http {{\n  access_log off;\n  sendfile on;\n  tcp_nopush on;\n  default_type application/octet-stream;\n\
         \x20 client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n  fastcgi_temp_path {d}/fastcgi;\n\
         \x20 uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n\
         \x20 server {{\n    listen 127.0.0.1:{nport};\n    root {svc};\n  }}\n}}\n",
        d = ndir.display(),
        svc = svc.display()
    );
    fs::write(ndir.join("nginx.conf"), conf).unwrap();
    let mut ng = Proc(
        Command::new(&nginx)
            .arg("-p")
            .arg(&ndir)
            .arg("-e")
            .arg(ndir.join("error.log"))
            .arg("-c")
            .arg(ndir.join("nginx.conf"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    wait_ready(&mut ng, nport, "/rocky9.iso", "nginx");
    let version = Command::new(&nginx)
        .arg("-v")
        .output()
        .map(|o| {
            String::from_utf8_lossy(&o.stderr)
                .trim()
                .trim_start_matches("nginx version: ")
                .to_owned()
        })
        .unwrap_or_default();
    Some((ng, nport, version))
}

/// Store [`HOSTS`] hosts through the REST API of the server on `port`, as an operator would.
async fn store_hosts(dir: &Path, svc: &Path, port: u16) {
    let token = Command::new(BIN)
        .env("BOOTSMITH_KEYRING", "off")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .arg("--data-dir")
        .arg(dir.join("data"))
        .arg("--svc-dir")
        .arg(svc)
        .arg("token")
        .output()
        .unwrap();
    assert!(token.status.success(), "bootsmith token");
    let token = String::from_utf8(token.stdout).unwrap().trim().to_owned();
    let c = client("127.0.0.1".parse().unwrap());
    let call = |path: &str, body: serde_json::Value| {
        c.post(format!("http://127.0.0.1:{port}{path}"))
            .bearer_auth(&token)
            .json(&body)
            .send()
    };
    let r = call(
        "/api/v2/networks",
        serde_json::json!({"name": "lo", "netmask": "255.0.0.0",
        "gateway": "127.0.0.254", "nameserver": "127.0.0.53", "ntpserver": "127.0.0.123"}),
    )
    .await
    .unwrap();
    assert!(r.status().is_success(), "{}", r.text().await.unwrap());
    let hosts: Vec<_> = (0..HOSTS)
        .map(|i| {
            serde_json::json!({"name": format!("node{i:04}"), "ip": host_ip(i).to_string(),
            "os": "rocky9", "role": "k8s node", "network_group": "lo"})
        })
        .collect();
    let r = call("/api/v2/hosts", serde_json::Value::Array(hosts))
        .await
        .unwrap();
    assert!(r.status().is_success(), "{}", r.text().await.unwrap());
    // The lifecycle task reads the host list again within a second of a change.
    tokio::time::sleep(Duration::from_millis(1500)).await;
}

/// What the install lifecycle recorded for host [`HOST`]: requests and bytes of its accesses.
async fn recorded(dir: &Path, svc: &Path) -> (u64, u64, String) {
    let app = bootsmith_core::startup::open(bootsmith_core::Config {
        data_dir: dir.join("data"),
        svc_dir: svc.to_owned(),
        use_keyring: false,
    })
    .await
    .unwrap();
    let t = bootsmith_core::host_views::timeline(&app, &format!("node{HOST:04}"))
        .await
        .unwrap();
    let state = t
        .status
        .state
        .map_or_else(|| "none".to_owned(), |s| s.to_string());
    (
        t.access.iter().map(|a| a.requests).sum(),
        t.access.iter().map(|a| a.bytes).sum(),
        state,
    )
}

async fn serving(work: &Path, s: &SyntheticIso, summary: &mut Vec<(String, String)>) {
    let len = fs::metadata(&s.iso).unwrap().len();
    let dir = tempfile::tempdir_in(work).unwrap();
    let svc = dir.path().join("svc");
    fs::create_dir_all(&svc).unwrap();
    // The same file (one inode, one page cache) under a shared name and as host HOST's boot ISO.
    let per_host = format!("node{HOST:04}.iso");
    for name in ["rocky9.iso", per_host.as_str()] {
        fs::hard_link(&s.iso, svc.join(name))
            .or_else(|_| fs::copy(&s.iso, svc.join(name)).map(|_| ()))
            .unwrap();
    }
    let probes = probes(&s.iso, len);
    println!(
        "server and clients share the machine's {} cores; every answer is checked (status, length, first/last 16 bytes)",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );

    let port = free_port();
    let mut server = Proc(
        Command::new(BIN)
            .env("BOOTSMITH_KEYRING", "off")
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .arg("--data-dir")
            .arg(dir.path().join("data"))
            .arg("--svc-dir")
            .arg(&svc)
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    wait_ready(&mut server, port, "/svc/rocky9.iso", "bootsmith serve");
    let t = Instant::now();
    store_hosts(dir.path(), &svc, port).await;
    println!(
        "{HOSTS} hosts stored (node0000.. at 127.1.0.1..) in {:.1} s",
        secs(t.elapsed())
    );
    let base = format!("http://127.0.0.1:{port}/svc");
    let on_from = host_ip(HOST);
    let server_pid = vec![server.0.id()];
    let mut targets = vec![
        Target::new(
            "svc, accounting on",
            format!("{base}/{per_host}"),
            server_pid.clone(),
            on_from,
            len,
            &probes[0],
        )
        .await,
        Target::new(
            "svc, accounting off",
            format!("{base}/rocky9.iso"),
            server_pid,
            "127.0.0.1".parse().unwrap(),
            len,
            &probes[0],
        )
        .await,
    ];
    println!(
        "{}: GET /svc/{per_host} from {on_from}, the host's own address (attributed to node{HOST:04} by name and address)",
        targets[0].name
    );
    println!(
        "{}: GET /svc/rocky9.iso from 127.0.0.1 (no host's file, no host's address: nothing attributed)",
        targets[1].name
    );
    let nginx = start_nginx(dir.path(), &svc);
    match &nginx {
        Some((proc, nport, version)) => {
            println!("nginx: {version}, root = the same svc dir, sendfile on, worker_processes auto; GET /rocky9.iso from 127.0.0.1");
            let mut pids = children(proc.0.id());
            pids.push(proc.0.id());
            targets.push(
                Target::new(
                    "nginx",
                    format!("http://127.0.0.1:{nport}/rocky9.iso"),
                    pids,
                    "127.0.0.1".parse().unwrap(),
                    len,
                    &probes[0],
                )
                .await,
            );
        }
        None => println!("nginx: not installed, skipped (apt-get install nginx-light)"),
    }
    println!(
        "{ROUNDS} rounds; per round and server: 1 whole-file GET, {RANGES} random 1 MiB Range GETs from 1 client and the same from {CLIENTS} concurrent clients, in batches of {BATCH}, the servers taking turns"
    );
    let t = Instant::now();
    let n = targets.len();
    for r in 0..ROUNDS {
        // A different order each time: nobody always goes first.
        for k in 0..n {
            targets[(r + k) % n].whole(len).await;
        }
        for (b, batch) in probes.chunks(BATCH).enumerate() {
            for k in 0..n {
                targets[(r + b + k) % n].sequential(batch).await;
            }
            for k in 0..n {
                targets[(r + b + k + 1) % n].concurrent(batch).await;
            }
        }
    }
    println!("measured in {:.1} s", secs(t.elapsed()));
    drop(nginx);
    // Let the lifecycle task store its last second, then read what it recorded.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    drop(server);
    let (requests, bytes, state) = recorded(dir.path(), &svc).await;
    let on = &targets[0];
    println!(
        "recorded for node{HOST:04}: {requests} requests, {:.0} MiB (sent: {} requests), state {state}",
        bytes as f64 / MIB as f64,
        on.requests
    );
    assert_eq!(
        requests, on.requests,
        "the accounting attributed every request of the accounting-on client to node{HOST:04}"
    );

    for t in &targets {
        let [whole, seq, conc] = medians(&t.s, len);
        let name = t.name;
        println!(
            "{name}: whole-file GET ({:.0} MiB) {whole:.0} MiB/s; 1 MiB ranges, 1 client {seq:.0} MiB/s, {CLIENTS} clients {conc:.0} MiB/s (1 MiB/s = 1 request/s); server CPU {:.0} ms per GiB served",
            len as f64 / MIB as f64,
            cpu_per_gib(&t.s)
        );
        summary.push((format!("{name}: whole GET"), format!("{whole:.0} MiB/s")));
        summary.push((
            format!("{name}: 1 MiB ranges, 1 client"),
            format!("{seq:.0} MiB/s"),
        ));
        summary.push((
            format!("{name}: 1 MiB ranges, {CLIENTS} clients"),
            format!("{conc:.0} MiB/s"),
        ));
        summary.push((
            format!("{name}: server CPU"),
            format!("{:.0} ms per GiB served", cpu_per_gib(&t.s)),
        ));
    }
    let note = "(throughput ratio: median [middle half] of side-by-side steps)";
    let mut pair = |a: usize, b: usize, what: &str| {
        summary.push((
            what.to_owned(),
            format!("{} {note}", ratios(&targets[a].s, &targets[b].s, len)),
        ));
    };
    pair(0, 1, "svc accounting on / off");
    if n == 3 {
        pair(0, 2, "svc accounting on / nginx");
        pair(1, 2, "svc accounting off / nginx");
    }
}
