//! Reading ISO 9660 images in-process: volume id, the file tree with Rock
//! Ridge (or Joliet) names, file contents, and the El Torito boot entries.
//! Files are copied in bounded chunks, never read whole into memory.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use crate::error::{Error, Result};

const SECTOR: u64 = 2048;

/// Which firmware a boot entry is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    /// PC BIOS (isolinux and the like).
    Bios,
    /// UEFI (an EFI system partition image).
    Uefi,
    /// Anything else (PowerPC, Mac).
    Other(u8),
}

/// One El Torito boot image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BootEntry {
    /// Firmware it is for.
    pub platform: Platform,
    /// First sector of the boot image.
    pub load_rba: u32,
    /// Sectors (512 bytes) loaded by the firmware.
    pub sectors: u16,
}

/// A file or directory in the image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Path from the root, `/`-separated, no leading `/`.
    pub path: String,
    /// Directory?
    pub is_dir: bool,
    /// Size in bytes (files).
    pub size: u64,
    /// First sector of the data.
    pub extent: u32,
    /// Symbolic-link target (Rock Ridge), if it is one.
    pub symlink: Option<String>,
    /// POSIX mode from Rock Ridge, when present.
    pub mode: Option<u32>,
}

/// An open ISO image.
#[derive(Debug)]
pub struct Iso {
    file: File,
    len: u64,
    volume_id: String,
    /// Root directory (extent, size) and whether names are Rock Ridge, Joliet or plain ISO 9660.
    root: (u32, u32),
    names: Names,
    boot_catalog: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Names {
    RockRidge(u8),
    Joliet,
    Plain,
}

fn u16le(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32le(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl Iso {
    /// Open and check an image.
    pub fn open(path: &Path) -> Result<Iso> {
        let bad = |why: &str| Error::NotIso {
            path: path.to_owned(),
            reason: why.to_owned(),
        };
        let mut file = File::open(path).map_err(|e| Error::io("opening the ISO", path, e))?;
        let len = file
            .metadata()
            .map_err(|e| Error::io("reading the ISO", path, e))?
            .len();
        let mut pvd = None;
        let mut joliet = None;
        let mut boot_catalog = None;
        for sector in 16..64u64 {
            let mut vd = [0u8; 2048];
            if (sector + 1) * SECTOR > len {
                return Err(bad("it ends before its volume descriptors do (truncated?)"));
            }
            file.seek(SeekFrom::Start(sector * SECTOR))
                .map_err(|e| Error::io("reading the ISO", path, e))?;
            file.read_exact(&mut vd)
                .map_err(|e| Error::io("reading the ISO", path, e))?;
            if &vd[1..6] != b"CD001" {
                return Err(bad("no ISO 9660 volume descriptor"));
            }
            match vd[0] {
                0 if &vd[7..30] == b"EL TORITO SPECIFICATION" => {
                    boot_catalog = Some(u32le(&vd, 71))
                }
                1 => pvd = Some(vd),
                2 if vd[88] == 0x25 && vd[89] == 0x2F && matches!(vd[90], 0x40 | 0x43 | 0x45) => {
                    joliet = Some(vd)
                }
                255 => break,
                _ => {}
            }
        }
        let pvd = pvd.ok_or_else(|| bad("no primary volume descriptor"))?;
        if u16le(&pvd, 128) != 2048 {
            return Err(bad("logical block size is not 2048"));
        }
        let volume_id = String::from_utf8_lossy(&pvd[40..72]).trim_end().to_owned();
        let root_of = |vd: &[u8; 2048]| (u32le(vd, 156 + 2), u32le(vd, 156 + 10));
        let mut iso = Iso {
            file,
            len,
            volume_id,
            root: root_of(&pvd),
            names: Names::Plain,
            boot_catalog,
        };
        // Rock Ridge is announced by an SP entry in the root's "." record.
        let first = iso.read_dir_records(iso.root.0, iso.root.1)?;
        if let Some(dot) = first.first() {
            if let Some(skip) = sp_entry(&dot.system_use) {
                iso.names = Names::RockRidge(skip);
            }
        }
        if iso.names == Names::Plain {
            if let Some(j) = joliet {
                iso.root = root_of(&j);
                iso.names = Names::Joliet;
            }
        }
        Ok(iso)
    }

    /// The volume id (label).
    pub fn volume_id(&self) -> &str {
        &self.volume_id
    }

    /// Every file and directory, depth first, parents before children.
    pub fn entries(&mut self) -> Result<Vec<Entry>> {
        let mut out = Vec::new();
        let mut stack = vec![(String::new(), self.root.0, self.root.1, 0usize)];
        while let Some((prefix, extent, size, depth)) = stack.pop() {
            if depth > 64 {
                return Err(Error::Invalid(
                    "the ISO's directories nest deeper than 64 levels".into(),
                ));
            }
            let records = self.read_dir_records(extent, size)?;
            let mut children = Vec::new();
            for r in records.iter().filter(|r| r.name != [0] && r.name != [1]) {
                let (name, symlink, mode, relocated) = self.describe(r)?;
                if relocated || name.is_empty() || name == "." || name == ".." || name.contains('/')
                {
                    continue;
                }
                let path = if prefix.is_empty() {
                    name
                } else {
                    format!("{prefix}/{name}")
                };
                children.push(Entry {
                    path,
                    is_dir: r.is_dir,
                    size: u64::from(r.size),
                    extent: r.extent,
                    symlink,
                    mode,
                });
            }
            children.sort_by(|a, b| a.path.cmp(&b.path));
            for c in children.iter().rev().filter(|c| c.is_dir) {
                stack.push((c.path.clone(), c.extent, c.size as u32, depth + 1));
            }
            out.extend(children);
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(out)
    }

    /// Find one entry by path (case-sensitive, `/`-separated).
    pub fn find(&mut self, path: &str) -> Result<Option<Entry>> {
        let want = path.trim_start_matches('/');
        Ok(self.entries()?.into_iter().find(|e| e.path == want))
    }

    /// Copy a file's bytes to `out` in bounded chunks; calls `progress` with the bytes copied so far.
    pub fn copy(
        &mut self,
        e: &Entry,
        out: &mut dyn Write,
        progress: &mut dyn FnMut(u64),
    ) -> Result<u64> {
        let start = u64::from(e.extent) * SECTOR;
        if start + e.size > self.len {
            return Err(Error::Invalid(format!(
                "{} lies beyond the end of the ISO (truncated?)",
                e.path
            )));
        }
        self.file
            .seek(SeekFrom::Start(start))
            .map_err(|err| Error::io("reading the ISO", Path::new(&e.path), err))?;
        let mut left = e.size;
        let mut buf = vec![0u8; 256 * 1024];
        let mut done = 0;
        while left > 0 {
            let n = left.min(buf.len() as u64) as usize;
            self.file
                .read_exact(&mut buf[..n])
                .map_err(|err| Error::io("reading the ISO", Path::new(&e.path), err))?;
            out.write_all(&buf[..n])
                .map_err(|err| Error::io("writing an extracted file", Path::new(&e.path), err))?;
            left -= n as u64;
            done += n as u64;
            progress(done);
        }
        Ok(done)
    }

    /// A small file's contents (for marker files), at most `limit` bytes.
    pub fn read_small(&mut self, path: &str, limit: u64) -> Result<Option<Vec<u8>>> {
        let Some(e) = self.find(path)? else {
            return Ok(None);
        };
        if e.is_dir || e.size > limit {
            return Ok(None);
        }
        let mut out = Vec::with_capacity(e.size as usize);
        self.copy(&e, &mut out, &mut |_| {})?;
        Ok(Some(out))
    }

    /// The El Torito boot entries (none when the image is not bootable).
    pub fn boot_entries(&mut self) -> Result<Vec<BootEntry>> {
        let Some(lba) = self.boot_catalog else {
            return Ok(Vec::new());
        };
        let cat = self.read_sectors(lba, 1)?;
        if cat[0] != 1 || cat[30] != 0x55 || cat[31] != 0xAA {
            return Err(Error::Invalid(
                "the El Torito boot catalog is damaged".into(),
            ));
        }
        let platform = |id: u8| match id {
            0 => Platform::Bios,
            0xEF => Platform::Uefi,
            other => Platform::Other(other),
        };
        let mut out = Vec::new();
        let mut current = platform(cat[1]);
        let mut at = 32;
        while at + 32 <= cat.len() {
            let e = &cat[at..at + 32];
            match e[0] {
                // 0x88: bootable entry (the default one at offset 32, or one in a section).
                0x88 => out.push(BootEntry {
                    platform: current,
                    load_rba: u32le(e, 8),
                    sectors: u16le(e, 6),
                }),
                // Section headers name the platform of the entries that follow.
                0x90 | 0x91 => current = platform(e[1]),
                _ if at > 32 && e.iter().all(|b| *b == 0) => break,
                _ => {}
            }
            at += 32;
        }
        Ok(out)
    }

    fn read_sectors(&mut self, lba: u32, count: u32) -> Result<Vec<u8>> {
        let start = u64::from(lba) * SECTOR;
        let len = u64::from(count) * SECTOR;
        if start + len > self.len {
            return Err(Error::Invalid(
                "the ISO is shorter than its directory says (truncated?)".into(),
            ));
        }
        let mut buf = vec![0u8; len as usize];
        self.file
            .seek(SeekFrom::Start(start))
            .map_err(|e| Error::io("reading the ISO", Path::new("ISO"), e))?;
        self.file
            .read_exact(&mut buf)
            .map_err(|e| Error::io("reading the ISO", Path::new("ISO"), e))?;
        Ok(buf)
    }

    fn read_dir_records(&mut self, extent: u32, size: u32) -> Result<Vec<Record>> {
        if size > 64 * 1024 * 1024 {
            return Err(Error::Invalid(
                "an ISO directory claims to be larger than 64 MiB".into(),
            ));
        }
        let sectors = size.div_ceil(SECTOR as u32);
        let data = self.read_sectors(extent, sectors)?;
        let mut out = Vec::new();
        let mut at = 0usize;
        while at < data.len() {
            let len = data[at] as usize;
            if len == 0 {
                // Records do not cross sectors: skip to the next one.
                at = (at / SECTOR as usize + 1) * SECTOR as usize;
                continue;
            }
            if len < 34 || at + len > data.len() {
                return Err(Error::Invalid("an ISO directory record is damaged".into()));
            }
            let r = &data[at..at + len];
            let name_len = r[32] as usize;
            if 33 + name_len > len {
                return Err(Error::Invalid("an ISO directory record is damaged".into()));
            }
            let su_start = 33 + name_len + usize::from(name_len.is_multiple_of(2));
            out.push(Record {
                extent: u32le(r, 2),
                size: u32le(r, 10),
                is_dir: r[25] & 0x02 != 0,
                name: r[33..33 + name_len].to_vec(),
                system_use: r.get(su_start.min(len)..len).unwrap_or_default().to_vec(),
            });
            at += len;
        }
        Ok(out)
    }

    /// Name, symlink target, mode and whether it is a relocated directory, by the image's naming scheme.
    fn describe(&mut self, r: &Record) -> Result<(String, Option<String>, Option<u32>, bool)> {
        match self.names {
            Names::Joliet => {
                let units: Vec<u16> = r
                    .name
                    .chunks_exact(2)
                    .map(|c| u16::from_be_bytes([c[0], c[1]]))
                    .collect();
                let name = String::from_utf16_lossy(&units);
                Ok((strip_version(&name), None, None, false))
            }
            Names::Plain => Ok((
                strip_version(&String::from_utf8_lossy(&r.name)).to_ascii_lowercase(),
                None,
                None,
                false,
            )),
            Names::RockRidge(skip) => {
                let su =
                    self.susp_area(&r.system_use[(skip as usize).min(r.system_use.len())..])?;
                let rr = parse_rr(&su);
                let name = rr
                    .name
                    .unwrap_or_else(|| strip_version(&String::from_utf8_lossy(&r.name)));
                Ok((name, rr.symlink, rr.mode, rr.relocated))
            }
        }
    }

    /// The system-use entries, following CE continuation areas.
    fn susp_area(&mut self, first: &[u8]) -> Result<Vec<u8>> {
        let mut all = first.to_vec();
        let mut hops = 0;
        let mut at = 0;
        while at + 4 <= all.len() {
            let (sig, len) = ([all[at], all[at + 1]], all[at + 2] as usize);
            if len < 4 || at + len > all.len() {
                break;
            }
            if &sig == b"CE" && len >= 28 && hops < 16 {
                let (block, offset, size) = (
                    u32le(&all, at + 4),
                    u32le(&all, at + 12) as usize,
                    u32le(&all, at + 20) as usize,
                );
                let sectors = (offset + size).div_ceil(SECTOR as usize) as u32;
                let data = self.read_sectors(block, sectors.max(1))?;
                if offset + size <= data.len() {
                    all.extend_from_slice(&data[offset..offset + size]);
                }
                hops += 1;
            }
            if &sig == b"ST" {
                break;
            }
            at += len;
        }
        Ok(all)
    }
}

struct Record {
    extent: u32,
    size: u32,
    is_dir: bool,
    name: Vec<u8>,
    system_use: Vec<u8>,
}

fn strip_version(name: &str) -> String {
    let base = name.split(';').next().unwrap_or(name);
    base.strip_suffix('.').unwrap_or(base).to_owned()
}

/// The skip length of an SP entry ("SP", len 7, version 1, 0xBE 0xEF, skip).
fn sp_entry(su: &[u8]) -> Option<u8> {
    (su.len() >= 7 && &su[0..2] == b"SP" && su[4] == 0xBE && su[5] == 0xEF).then(|| su[6])
}

#[derive(Default)]
struct RockRidge {
    name: Option<String>,
    symlink: Option<String>,
    mode: Option<u32>,
    relocated: bool,
}

fn parse_rr(su: &[u8]) -> RockRidge {
    let mut rr = RockRidge::default();
    let mut name = Vec::new();
    let mut link = String::new();
    let mut have_link = false;
    let mut at = 0;
    while at + 4 <= su.len() {
        let (sig, len) = (&su[at..at + 2], su[at + 2] as usize);
        if len < 4 || at + len > su.len() {
            break;
        }
        let body = &su[at + 4..at + len];
        match sig {
            b"NM" if !body.is_empty() && body[0] & 0x06 == 0 => name.extend_from_slice(&body[1..]),
            b"PX" if body.len() >= 4 => rr.mode = Some(u32le(body, 0)),
            b"RE" => rr.relocated = true,
            b"SL" if !body.is_empty() => {
                have_link = true;
                let mut i = 1;
                while i + 2 <= body.len() {
                    let (flags, clen) = (body[i], body[i + 1] as usize);
                    let comp = body.get(i + 2..i + 2 + clen).unwrap_or_default();
                    if !link.is_empty() && !link.ends_with('/') {
                        link.push('/');
                    }
                    match flags & 0x0E {
                        0x02 => link.push('.'),
                        0x04 => link.push_str(".."),
                        0x08 => link = "/".into(),
                        _ => link.push_str(&String::from_utf8_lossy(comp)),
                    }
                    i += 2 + clen;
                }
            }
            b"ST" => break,
            _ => {}
        }
        at += len;
    }
    if !name.is_empty() {
        rr.name = Some(String::from_utf8_lossy(&name).into_owned());
    }
    if have_link {
        rr.symlink = Some(link);
    }
    rr
}

/// For an error from [`Iso::open`]: why the file is not an ISO, without the server-side path.
pub fn not_an_iso_reason(e: &Error) -> Option<&str> {
    match e {
        Error::NotIso { reason, .. } => Some(reason),
        _ => None,
    }
}
