//! Boot ISOs. Each is the OS's own ISO with its own boot loaders (xorriso
//! replays the source's BIOS and UEFI El Torito entries and its hybrid boot
//! area), a boot configuration rewritten from the source's own files so the
//! installer starts unattended, and only the files booting needs. Nothing
//! here hard-codes a kernel, initrd or module list: they are read from the
//! source's configuration, so a vendor's new point release still boots.
//!
//! The output is written beside the target under a dot-name of this run
//! ([`crate::work`]) and renamed when xorriso has finished, so an interrupted
//! build never leaves an ISO that a later run mistakes for complete, and a
//! later run never writes where an earlier one did.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::error::{Error, Result};
use crate::iso::{Entry, Iso, Platform};
use crate::work::{self, Kind};

/// Path of the kickstart on the per-host OEMDRV disk.
pub const KICKSTART_ON_DISK: &str = "hd:LABEL=OEMDRV:/ks.cfg";
/// Name of the ESXi kickstart inside a per-host ISO.
pub const ESXI_KICKSTART: &str = "KS.CFG";

/// What the boot ISO starts.
#[derive(Debug, Clone, Copy)]
pub enum Flavor<'a> {
    /// RHEL family: Anaconda with stage2 from this ISO (labelled `volume_id`). Only boot
    /// files are kept; packages come over HTTP.
    Rhel {
        /// Volume id of the boot ISO (A–Z, 0–9, `_`, `-`; at most 32).
        volume_id: &'a str,
    },
    /// ESXi: the whole installer, its BOOT.CFG pointing at the kickstart.
    Esxi,
    /// Ubuntu autoinstall: the whole live-server ISO.
    Ubuntu,
}

/// Where the installer the boot ISO starts finds its answer file: the one parameter that
/// tells a shared boot ISO (answers on a second device) from a single-device one (answers
/// over HTTP).
#[derive(Debug, Clone, Copy)]
pub enum Answers<'a> {
    /// On the host's labelled answer disk, a second virtual device: RHEL's `OEMDRV`
    /// (`inst.ks=hd:LABEL=OEMDRV:/ks.cfg`), Ubuntu's `CIDATA` (`ds=nocloud`). Not for ESXi.
    Disk,
    /// On the boot ISO itself, as `/KS.CFG` (`ks=cdrom:/KS.CFG`): ESXi only.
    OnIso(&'a [u8]),
    /// Fetched over HTTP: the answer file's URL for RHEL (`inst.ks=`) and ESXi (`ks=`), the
    /// NoCloud seed directory's URL, ending in `/`, for Ubuntu (`ds=nocloud;s=`); with the
    /// host's address for the fetch where one is given (RHEL only: see [`BootNet`]).
    Http(&'a str, Option<&'a BootNet>),
}

/// The host's own address for its installer's first fetch: single-device media read the
/// answer file over HTTP before any answer file has set up the network, so without this the
/// installer asks DHCP. Given to dracut (RHEL) on the kernel line, on the NIC of the host's
/// MAC (`ifname=`), its bond and VLAN: `ip=<ip>::<gateway>:<netmask>:<host>:<nic>:none`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BootNet {
    /// IPv4 address.
    pub ip: String,
    /// Dotted netmask.
    pub netmask: String,
    /// Default gateway.
    pub gateway: Option<String>,
    /// Host name.
    pub hostname: String,
    /// DNS servers.
    pub nameservers: Vec<String>,
    /// The host's MACs, lower case with colons: at least one.
    pub macs: Vec<String>,
    /// Bonding options (`mode=802.3ad,miimon=100`) when two or more MACs make a bond.
    pub bond_opts: Option<String>,
    /// VLAN id.
    pub vlan: Option<String>,
}

impl BootNet {
    /// dracut's words for it, as they follow `inst.ks=` on the kernel line.
    pub fn kernel_words(&self) -> Result<String> {
        let fine = |s: &str| {
            !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"=.,:+-_".contains(&b))
        };
        let all = [&self.ip, &self.netmask, &self.hostname]
            .into_iter()
            .chain(&self.gateway)
            .chain(&self.nameservers)
            .chain(&self.macs)
            .chain(&self.bond_opts)
            .chain(&self.vlan);
        if let Some(bad) = all.into_iter().find(|s| !fine(s)) {
            return Err(Error::Invalid(format!(
                "'{bad}' cannot go on a kernel command line"
            )));
        }
        let Some(first) = self.macs.first() else {
            return Err(Error::Invalid(
                "a static boot address needs the MAC of the NIC it goes on".into(),
            ));
        };
        let mut args = Vec::new();
        let mut dev = match &self.bond_opts {
            Some(opts) if self.macs.len() > 1 => {
                let ports: Vec<String> = (0..self.macs.len())
                    .map(|i| format!("bootnet{i}"))
                    .collect();
                for (port, mac) in ports.iter().zip(&self.macs) {
                    args.push(format!("ifname={port}:{mac}"));
                }
                args.push(format!("bond=bond0:{}:{opts}", ports.join(",")));
                "bond0".to_owned()
            }
            _ => {
                args.push(format!("ifname=bootnet0:{first}"));
                "bootnet0".to_owned()
            }
        };
        if let Some(id) = &self.vlan {
            args.push(format!("vlan={dev}.{id}:{dev}"));
            dev = format!("{dev}.{id}");
        }
        args.push(format!(
            "ip={}::{}:{}:{}:{dev}:none",
            self.ip,
            self.gateway.as_deref().unwrap_or(""),
            self.netmask,
            self.hostname
        ));
        args.extend(self.nameservers.iter().map(|n| format!("nameserver={n}")));
        Ok(args.join(" "))
    }
}

/// What was built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Built {
    /// The ISO has a BIOS El Torito entry.
    pub bios: bool,
    /// The ISO has a UEFI El Torito entry.
    pub uefi: bool,
    /// Size of the ISO.
    pub bytes: u64,
}

/// Top-level names a RHEL-family boot ISO keeps: boot loaders, kernel and initrd, stage2, tree
/// metadata. `boot` holds GRUB 2's BIOS files on the 10.x media, which dropped isolinux (their
/// BIOS El Torito image is `images/eltorito.img`, its config `boot/grub2/grub.cfg`: Fedora's
/// "BIOS boot.iso with GRUB2" change, in lorax since RHEL 10).
const RHEL_KEEP: [&str; 7] = [
    "isolinux",
    "efi",
    "boot",
    "images",
    "liveos",
    ".discinfo",
    ".treeinfo",
];

/// The GRUB configurations an installer ISO may start from: UEFI's, GRUB 2's BIOS one on the
/// RHEL 10 family's media, and Ubuntu's.
const GRUB_CFGS: [&str; 3] = [
    "efi/boot/grub.cfg",
    "boot/grub2/grub.cfg",
    "boot/grub/grub.cfg",
];

/// Build `out` from `source`, its installer reading its answer file from `answers`. `title`
/// names the menu entry (`Install Rocky Linux 9`). `progress(done, total)` reports bytes of
/// the ISO being written (estimated total).
pub fn build(
    source: &Path,
    out: &Path,
    flavor: Flavor<'_>,
    answers: Answers<'_>,
    title: &str,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Built> {
    // First: a wrong combination or a URL the boot configs cannot hold writes nothing.
    let args = kernel_args(flavor, answers)?;
    let mut iso = Iso::open(source)?;
    let boot = iso.boot_entries()?;
    if boot.is_empty() {
        return Err(Error::Invalid(format!(
            "{} has no El Torito boot entry, so no boot ISO can be made from it",
            source.display()
        )));
    }
    let entries = iso.entries()?;
    let by_path: HashMap<String, &Entry> = entries
        .iter()
        .map(|e| (e.path.to_ascii_lowercase(), e))
        .collect();
    let dir = out
        .parent()
        .ok_or_else(|| Error::Invalid(format!("{} has no directory", out.display())))?;
    let name = out
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("boot.iso");
    let staging = Staging::new(work::path(dir, name, Kind::Staging))?;
    let mut plan = match flavor {
        Flavor::Rhel { volume_id } => {
            let mut plan = Plan::keep_only(&entries, &RHEL_KEEP);
            plan.volume_id = Some(volume_id.to_owned());
            let old = iso.volume_id().to_owned();
            rewrite_linux_configs(&mut iso, &by_path, &mut plan, title, &args, &old, volume_id)?;
            // UEFI firmware starts GRUB from the El Torito image, which also holds a grub.cfg.
            // Debian's GRUB reads the ISO tree's copy (seen in QEMU/OVMF); a vendor GRUB whose
            // prefix is the boot image would read this one. Patch both so either boots ours.
            if let Some(e) = boot
                .iter()
                .find(|b| b.platform == Platform::Uefi)
                .and_then(|b| entries.iter().find(|e| !e.is_dir && e.extent == b.load_rba))
            {
                let grub = plan
                    .files
                    .iter()
                    .find(|(p, _)| p.eq_ignore_ascii_case("EFI/BOOT/grub.cfg"))
                    .map(|(_, c)| c.clone());
                if let Some(grub) = grub {
                    let patched = staging.path().join("efiboot.img");
                    let mut f = std::fs::File::create(&patched)
                        .map_err(|err| Error::io("staging the EFI boot image", &patched, err))?;
                    iso.copy(e, &mut f, &mut |_| {})?;
                    drop(f);
                    if patch_fat_grub_cfgs(&patched, &grub)? > 0 {
                        plan.staged.push((e.path.clone(), patched));
                    }
                }
            }
            plan
        }
        Flavor::Esxi => {
            let mut plan = Plan::keep_all();
            let mut found = false;
            for cfg in ["boot.cfg", "efi/boot/boot.cfg"] {
                if let Some(e) = by_path.get(cfg) {
                    let text = read_text(&mut iso, e)?;
                    plan.files
                        .push((e.path.clone(), esxi_boot_cfg(&text, &args).into_bytes()));
                    found = true;
                }
            }
            if !found {
                return Err(Error::Invalid(format!(
                    "{} has no BOOT.CFG: it does not look like an ESXi installer",
                    source.display()
                )));
            }
            if let Answers::OnIso(kickstart) = answers {
                plan.files
                    .push((ESXI_KICKSTART.to_owned(), kickstart.to_vec()));
            }
            plan
        }
        Flavor::Ubuntu => {
            let mut plan = Plan::keep_all();
            let old = iso.volume_id().to_owned();
            rewrite_linux_configs(&mut iso, &by_path, &mut plan, title, &args, &old, &old)?;
            plan
        }
    };
    let total: u64 = entries
        .iter()
        .filter(|e| !e.is_dir && plan.keeps(&e.path))
        .map(|e| e.size)
        .sum();
    for (path, contents) in &plan.files {
        let local = staging.path().join(path.replace('/', "_"));
        std::fs::write(&local, contents)
            .map_err(|err| Error::io("staging a boot file", &local, err))?;
        plan.staged.push((path.clone(), local));
    }
    let partial = work::path(dir, name, Kind::Partial);
    let result = run_xorriso(source, &partial, &plan, total, progress).and_then(|()| {
        std::fs::rename(&partial, out)
            .map_err(|e| Error::io("moving the boot ISO into place", out, e))
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    result?;
    let mut built = Iso::open(out)?;
    let entries = built.boot_entries()?;
    Ok(Built {
        bios: entries.iter().any(|e| e.platform == Platform::Bios),
        uefi: entries.iter().any(|e| e.platform == Platform::Uefi),
        bytes: std::fs::metadata(out)
            .map_err(|e| Error::io("reading the boot ISO", out, e))?
            .len(),
    })
}

/// The changes to make to the source ISO.
#[derive(Debug, Default)]
struct Plan {
    /// New volume id, if it changes.
    volume_id: Option<String>,
    /// Top-level names to drop (lower case).
    drop: Vec<String>,
    /// Files to add or replace: ISO path and contents.
    files: Vec<(String, Vec<u8>)>,
    /// Files to add or replace: ISO path and a staged local file.
    staged: Vec<(String, PathBuf)>,
}

impl Plan {
    fn keep_all() -> Plan {
        Plan::default()
    }

    fn keep_only(entries: &[Entry], keep: &[&str]) -> Plan {
        let drop = entries
            .iter()
            .filter(|e| !e.path.contains('/'))
            .filter(|e| !keep.contains(&e.path.to_ascii_lowercase().as_str()))
            .map(|e| e.path.clone())
            .collect();
        Plan {
            drop,
            ..Plan::default()
        }
    }

    fn keeps(&self, path: &str) -> bool {
        let top = path.split('/').next().unwrap_or(path);
        !self.drop.iter().any(|d| d == top)
    }
}

/// A scratch directory removed when dropped.
struct Staging(PathBuf);

impl Staging {
    fn new(path: PathBuf) -> Result<Staging> {
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .map_err(|e| Error::io("creating a staging directory", &path, e))?;
        Ok(Staging(path))
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn check_volume_id(v: &str) -> Result<()> {
    let ok = (1..=32).contains(&v.len())
        && v.bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_' || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(Error::Invalid(format!(
            "'{v}' cannot be a volume id (1 to 32 of A-Z, 0-9, '_', '-')"
        )))
    }
}

/// The boot options that start `flavor`'s installer unattended with its answers from
/// `answers`: kernel command-line words for RHEL and Ubuntu, the `ks=` option of ESXi's
/// `kernelopt`. Unquoted: [`grub_cfg`] quotes what GRUB would otherwise split (the `;` of
/// `ds=nocloud;s=`), isolinux and BOOT.CFG take them as they are.
pub fn kernel_args(flavor: Flavor<'_>, answers: Answers<'_>) -> Result<String> {
    if let Answers::Http(url, _) = answers {
        check_url(url)?;
    }
    match (flavor, answers) {
        (Flavor::Rhel { volume_id }, Answers::Disk) => {
            check_volume_id(volume_id)?;
            Ok(format!(
                "inst.stage2=hd:LABEL={volume_id} inst.ks={KICKSTART_ON_DISK}"
            ))
        }
        (Flavor::Rhel { volume_id }, Answers::Http(url, net)) => {
            check_volume_id(volume_id)?;
            let mut args = format!("inst.stage2=hd:LABEL={volume_id} inst.ks={url}");
            if let Some(net) = net {
                args.push(' ');
                args.push_str(&net.kernel_words()?);
            }
            Ok(args)
        }
        (Flavor::Ubuntu, Answers::Disk) => Ok("autoinstall ds=nocloud".into()),
        // cloud-init fetches `<seed>user-data` and `<seed>meta-data`: the seed is a directory.
        (Flavor::Ubuntu, Answers::Http(url, _)) if url.ends_with('/') => {
            Ok(format!("autoinstall ds=nocloud;s={url}"))
        }
        (Flavor::Ubuntu, Answers::Http(url, _)) => Err(Error::Invalid(format!(
            "the NoCloud seed {url} must be a directory URL ending in '/'"
        ))),
        (Flavor::Esxi, Answers::OnIso(_)) => Ok(format!("ks=cdrom:/{ESXI_KICKSTART}")),
        (Flavor::Esxi, Answers::Http(url, _)) => Ok(format!("ks={url}")),
        (Flavor::Esxi, Answers::Disk) => Err(Error::Invalid(
            "ESXi reads its kickstart from its boot ISO or over HTTP, not from an answer disk"
                .into(),
        )),
        (_, Answers::OnIso(_)) => Err(Error::Invalid(
            "only ESXi reads its answer file from the boot ISO".into(),
        )),
    }
}

/// An answer-file URL goes into isolinux, GRUB and BOOT.CFG lines unquoted (GRUB: in single
/// quotes): plain `http(s)://` and printable ASCII without quotes, `\`, `;` or `$`.
fn check_url(url: &str) -> Result<()> {
    let ok = (url.starts_with("http://") || url.starts_with("https://"))
        && url.len() <= 1024
        && url
            .chars()
            .all(|c| c.is_ascii_graphic() && !matches!(c, '\'' | '"' | '\\' | ';' | '$'));
    if ok {
        Ok(())
    } else {
        Err(Error::Invalid(format!(
            "'{url}' cannot be an answer-file URL on a kernel command line (http:// or https://, printable ASCII without quotes, backslash, ';' or '$')"
        )))
    }
}

/// A kernel argument as GRUB's `linux` line must spell it so the kernel gets it unchanged:
/// GRUB's parser splits commands at `;` and treats quotes, `$`, `\\` and braces itself, so a
/// word with any of them goes in single quotes (which GRUB removes; it has none inside).
fn grub_word(w: &str) -> String {
    if w.contains(|c: char| ";&|<>$\\\"'{}()#*?[]~".contains(c)) && !w.contains('\'') {
        format!("'{w}'")
    } else {
        w.to_owned()
    }
}

fn read_text(iso: &mut Iso, e: &Entry) -> Result<String> {
    if e.size > 1024 * 1024 {
        return Err(Error::Invalid(format!(
            "{} is {} bytes, too large for a boot configuration",
            e.path, e.size
        )));
    }
    let mut buf = Vec::new();
    iso.copy(e, &mut buf, &mut |_| {})?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// Rewrite the isolinux and GRUB configurations the source has (at least one must exist).
fn rewrite_linux_configs(
    iso: &mut Iso,
    by_path: &HashMap<String, &Entry>,
    plan: &mut Plan,
    title: &str,
    args: &str,
    old_volume_id: &str,
    new_volume_id: &str,
) -> Result<()> {
    let mut found = Vec::new();
    for cfg in ["isolinux/isolinux.cfg", "isolinux.cfg"] {
        if let Some(e) = by_path.get(cfg) {
            let text = read_text(iso, e)?;
            let new = isolinux_cfg(&text, title, args)
                .map_err(|why| Error::Invalid(format!("{}: {why}", e.path)))?;
            plan.files.push((e.path.clone(), new.into_bytes()));
            found.push(e.path.clone());
            break;
        }
    }
    for cfg in GRUB_CFGS {
        if let Some(e) = by_path.get(cfg) {
            let text = read_text(iso, e)?;
            // A stub that only hands over to another grub.cfg (as on Ubuntu media) stays as
            // it is: the file it loads is rewritten here too.
            if !text.contains("menuentry") && text.contains("configfile") {
                continue;
            }
            let new = grub_cfg(&text, title, args, old_volume_id, new_volume_id)
                .map_err(|why| Error::Invalid(format!("{}: {why}", e.path)))?;
            plan.files.push((e.path.clone(), new.into_bytes()));
            found.push(e.path.clone());
        }
    }
    if found.is_empty() {
        return Err(Error::Invalid(
            "the ISO has no isolinux/isolinux.cfg, EFI/BOOT/grub.cfg, boot/grub2/grub.cfg or boot/grub/grub.cfg to start the installer from".into(),
        ));
    }
    Ok(())
}

/// A one-entry isolinux.cfg that boots the kernel and initrd of the source's first install entry.
pub fn isolinux_cfg(source: &str, title: &str, args: &str) -> std::result::Result<String, String> {
    let mut kernel = None;
    let mut initrd = None;
    for line in source.lines() {
        let mut words = line.split_whitespace();
        let Some(key) = words.next().map(str::to_ascii_lowercase) else {
            continue;
        };
        match key.as_str() {
            "label" => {
                if kernel.is_some() && initrd.is_some() {
                    break;
                }
                kernel = None;
                initrd = None;
            }
            "kernel" | "linux" => kernel = words.next().map(str::to_owned),
            "append" => {
                initrd = words
                    .find_map(|w| w.strip_prefix("initrd="))
                    .map(str::to_owned)
            }
            "initrd" => initrd = words.next().map(str::to_owned),
            _ => {}
        }
    }
    let (Some(kernel), Some(initrd)) = (kernel, initrd) else {
        return Err("no entry with a kernel and an initrd to start".into());
    };
    Ok(format!(
        "# Written by Bootsmith from the ISO's own isolinux.cfg: one entry, started at once.\n\
         default bootsmith\n\
         prompt 0\n\
         timeout 0\n\
         label bootsmith\n  \
         menu label {title}\n  \
         kernel {kernel}\n  \
         append initrd={initrd} {args}\n"
    ))
}

/// A one-entry grub.cfg with the source's root search (for the new volume id) and the kernel
/// and initrd commands and paths of its first menu entry.
pub fn grub_cfg(
    source: &str,
    title: &str,
    args: &str,
    old_volume_id: &str,
    new_volume_id: &str,
) -> std::result::Result<String, String> {
    let mut searches = Vec::new();
    let mut in_entry = false;
    let mut linux = None;
    let mut initrd = None;
    for line in source.lines() {
        let t = line.trim();
        if t.starts_with("menuentry") {
            if linux.is_some() && initrd.is_some() {
                break;
            }
            in_entry = true;
            linux = None;
            initrd = None;
            continue;
        }
        let mut words = t.split_whitespace();
        let Some(cmd) = words.next() else { continue };
        match (in_entry, cmd) {
            (false, "search") => searches.push(t.replace(old_volume_id, new_volume_id)),
            (true, "linux" | "linuxefi" | "linux16") => {
                linux = words.next().map(|k| (cmd.to_owned(), k.to_owned()))
            }
            (true, "initrd" | "initrdefi" | "initrd16") => {
                initrd = words.next().map(|i| (cmd.to_owned(), i.to_owned()))
            }
            _ => {}
        }
    }
    let (Some((linux_cmd, kernel)), Some((initrd_cmd, initrd))) = (linux, initrd) else {
        return Err("no menu entry with a kernel and an initrd to start".into());
    };
    let mut out = String::from(
        "# Written by Bootsmith from the ISO's own grub.cfg: one entry, started at once.\n\
         set default=0\nset timeout=1\n",
    );
    for s in searches {
        out.push_str(&s);
        out.push('\n');
    }
    let args: Vec<String> = args.split_whitespace().map(grub_word).collect();
    out.push_str(&format!(
        "menuentry '{}' {{\n\t{linux_cmd} {kernel} {}\n\t{initrd_cmd} {initrd}\n}}\n",
        title.replace('\'', ""),
        args.join(" ")
    ));
    Ok(out)
}

/// The ESXi BOOT.CFG with `ks` (`ks=cdrom:/KS.CFG`, `ks=http://…`) in `kernelopt` instead of
/// any `ks=` the vendor had; every other line (kernel, module list, build) exactly as the
/// vendor wrote it.
pub fn esxi_boot_cfg(source: &str, ks: &str) -> String {
    let crlf = source.contains("\r\n");
    let mut saw_kernelopt = false;
    let mut lines: Vec<String> = source
        .lines()
        .map(|l| match l.strip_prefix("kernelopt=") {
            Some(opts) => {
                saw_kernelopt = true;
                let mut kept: Vec<&str> = opts
                    .split_whitespace()
                    .filter(|w| !w.starts_with("ks="))
                    .collect();
                kept.push(ks);
                format!("kernelopt={}", kept.join(" "))
            }
            None => l.to_owned(),
        })
        .collect();
    if !saw_kernelopt {
        lines.push(format!("kernelopt=runweasel {ks}"));
    }
    let nl = if crlf { "\r\n" } else { "\n" };
    let mut out = lines.join(nl);
    out.push_str(nl);
    out
}

/// Replace every `grub.cfg` under `EFI/` in a FAT image; the number replaced.
fn patch_fat_grub_cfgs(image: &Path, grub: &[u8]) -> Result<usize> {
    let io = |context| move |e| Error::io(context, image, e);
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(image)
        .map_err(io("opening the EFI boot image"))?;
    let fs = fatfs::FileSystem::new(file, fatfs::FsOptions::new())
        .map_err(io("reading the EFI boot image"))?;
    let mut replaced = 0;
    {
        let mut dirs = vec![fs.root_dir()];
        while let Some(dir) = dirs.pop() {
            for entry in dir.iter() {
                let entry = entry.map_err(io("reading the EFI boot image"))?;
                let name = entry.file_name();
                if name == "." || name == ".." {
                    continue;
                }
                if entry.is_dir() {
                    dirs.push(entry.to_dir());
                } else if name.eq_ignore_ascii_case("grub.cfg") {
                    let mut f = entry.to_file();
                    f.truncate().map_err(io("writing the EFI boot image"))?;
                    f.seek(SeekFrom::Start(0))
                        .map_err(io("writing the EFI boot image"))?;
                    f.write_all(grub)
                        .map_err(io("writing the EFI boot image"))?;
                    f.flush().map_err(io("writing the EFI boot image"))?;
                    replaced += 1;
                }
            }
        }
    }
    fs.unmount().map_err(io("closing the EFI boot image"))?;
    Ok(replaced)
}

/// Run xorriso: load the source, replay its boot equipment, apply the plan, write `out`.
fn run_xorriso(
    source: &Path,
    out: &Path,
    plan: &Plan,
    total: u64,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<()> {
    let _ = std::fs::remove_file(out);
    let mut cmd = crate::tool::command("xorriso");
    cmd.args(["-abort_on", "FAILURE", "-return_with", "FAILURE", "32"])
        .arg("-indev")
        .arg(source)
        .arg("-outdev")
        .arg(out)
        .args(["-boot_image", "any", "replay"]);
    if let Some(v) = &plan.volume_id {
        cmd.args(["-volid", v]);
    }
    if !plan.drop.is_empty() {
        cmd.arg("-rm_r");
        cmd.args(plan.drop.iter().map(|d| format!("/{d}")));
        cmd.arg("--");
    }
    for (iso_path, local) in &plan.staged {
        cmd.arg("-map").arg(local).arg(format!("/{iso_path}"));
    }
    cmd.args(["-pacifier", "xorriso", "-commit", "-end"]);
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            Error::Tool {
                tool: "xorriso",
                message: "is not installed (Debian package xorriso; scripts/setup.sh installs it)"
                    .into(),
            }
        } else {
            Error::io("starting xorriso", Path::new("xorriso"), e)
        }
    })?;
    let mut tail: Vec<String> = Vec::new();
    if let Some(stderr) = child.stderr.take() {
        for line in BufReader::new(stderr).split(b'\n') {
            let Ok(line) = line else { break };
            let line = String::from_utf8_lossy(&line).trim().to_owned();
            if let Some(pct) = written_percent(&line) {
                progress((total as f64 * pct / 100.0) as u64, total);
            }
            if line.contains("FAILURE") || line.contains("SORRY") || line.contains("FATAL") {
                tail.push(line);
            }
        }
    }
    let status = child
        .wait()
        .map_err(|e| Error::io("waiting for xorriso", Path::new("xorriso"), e))?;
    if !status.success() {
        return Err(Error::Tool {
            tool: "xorriso",
            message: if tail.is_empty() {
                format!("failed ({status})")
            } else {
                tail.join("; ")
            },
        });
    }
    progress(total, total);
    Ok(())
}

/// `xorriso : UPDATE : Writing:  1234s  43.2%  fifo …` → 43.2.
fn written_percent(line: &str) -> Option<f64> {
    let rest = line.split("Writing:").nth(1)?;
    rest.split_whitespace()
        .find_map(|w| w.strip_suffix('%'))
        .and_then(|p| p.parse().ok())
}

/// The bytes of a boot configuration file inside an ISO (for checks and tests).
pub fn read_file(iso_path: &Path, path: &str) -> Result<Option<Vec<u8>>> {
    let mut iso = Iso::open(iso_path)?;
    let Some(e) = iso.find(path)? else {
        return Ok(None);
    };
    let mut buf = Vec::new();
    iso.copy(&e, &mut buf, &mut |_| {})?;
    Ok(Some(buf))
}

/// Whether a boot configuration of the ISO (isolinux.cfg, a grub.cfg, BOOT.CFG) contains
/// `needle`: a built ISO whose boot entries name another answer-file URL is not the one wanted.
pub fn boot_configs_mention(iso_path: &Path, needle: &str) -> Result<bool> {
    const OTHERS: [&str; 4] = [
        "isolinux/isolinux.cfg",
        "isolinux.cfg",
        "boot.cfg",
        "efi/boot/boot.cfg",
    ];
    let mut iso = Iso::open(iso_path)?;
    for e in iso.entries()? {
        let path = e.path.to_ascii_lowercase();
        if !e.is_dir && (OTHERS.contains(&path.as_str()) || GRUB_CFGS.contains(&path.as_str())) {
            // GRUB's copy has the word in quotes: look for the URL alone.
            if read_text(&mut iso, &e)?.contains(needle) {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// Read a whole small file from a FAT image (for checks and tests).
pub fn read_fat_file(image: &Path, path: &str) -> Result<Option<Vec<u8>>> {
    let io = |context| move |e| Error::io(context, image, e);
    let file = std::fs::File::open(image).map_err(io("opening the FAT image"))?;
    let fs = fatfs::FileSystem::new(file, fatfs::FsOptions::new())
        .map_err(io("reading the FAT image"))?;
    let mut buf = Vec::new();
    let result = match fs.root_dir().open_file(path) {
        Ok(mut f) => {
            f.read_to_end(&mut buf)
                .map_err(io("reading the FAT image"))?;
            Some(buf)
        }
        Err(_) => None,
    };
    Ok(result)
}

#[cfg(test)]
mod tests {

    fn net(macs: &[&str], bond: Option<&str>, vlan: Option<&str>) -> BootNet {
        BootNet {
            ip: "192.0.2.21".into(),
            netmask: "255.255.255.0".into(),
            gateway: Some("192.0.2.1".into()),
            hostname: "node01".into(),
            nameservers: vec!["192.0.2.53".into(), "192.0.2.54".into()],
            macs: macs.iter().map(|m| m.to_string()).collect(),
            bond_opts: bond.map(Into::into),
            vlan: vlan.map(Into::into),
        }
    }

    #[test]
    fn single_device_media_boot_on_the_hosts_own_address() {
        let rhel = Flavor::Rhel {
            volume_id: "BOOTSMITH_RHEL94",
        };
        let one = net(&["52:54:00:00:00:a2"], None, None);
        assert_eq!(
            kernel_args(rhel, Answers::Http("http://192.0.2.10:8080/svc/node01/ks.cfg", Some(&one))).unwrap(),
            "inst.stage2=hd:LABEL=BOOTSMITH_RHEL94 inst.ks=http://192.0.2.10:8080/svc/node01/ks.cfg ifname=bootnet0:52:54:00:00:00:a2 ip=192.0.2.21::192.0.2.1:255.255.255.0:node01:bootnet0:none nameserver=192.0.2.53 nameserver=192.0.2.54"
        );
        let bonded = net(
            &["52:54:00:00:00:a1", "52:54:00:00:00:a2"],
            Some("mode=802.3ad,miimon=100,xmit_hash_policy=layer3+4"),
            Some("30"),
        );
        assert_eq!(
            bonded.kernel_words().unwrap(),
            "ifname=bootnet0:52:54:00:00:00:a1 ifname=bootnet1:52:54:00:00:00:a2 bond=bond0:bootnet0,bootnet1:mode=802.3ad,miimon=100,xmit_hash_policy=layer3+4 vlan=bond0.30:bond0 ip=192.0.2.21::192.0.2.1:255.255.255.0:node01:bond0.30:none nameserver=192.0.2.53 nameserver=192.0.2.54"
        );
        // Two MACs without a bond: the first NIC.
        let two = net(&["52:54:00:00:00:a1", "52:54:00:00:00:a2"], None, None);
        assert!(two
            .kernel_words()
            .unwrap()
            .starts_with("ifname=bootnet0:52:54:00:00:00:a1 ip="));
        let mut bad = one.clone();
        bad.hostname = "node 01".into();
        assert!(bad
            .kernel_words()
            .unwrap_err()
            .to_string()
            .contains("kernel command line"));
        assert!(net(&[], None, None).kernel_words().is_err());
    }

    use super::*;

    #[test]
    fn isolinux_takes_the_first_install_entry() {
        let rhel = "default vesamenu.c32\ntimeout 600\nlabel linux\n  menu label ^Install\n  kernel vmlinuz\n  append initrd=initrd.img inst.stage2=hd:LABEL=RHEL-8 quiet\nlabel check\n  menu default\n  kernel vmlinuz\n  append initrd=initrd.img rd.live.check\n";
        let out = isolinux_cfg(rhel, "Install RHEL 8", "inst.ks=x").unwrap();
        assert!(out.contains("kernel vmlinuz\n"), "{out}");
        assert!(
            out.contains("append initrd=initrd.img inst.ks=x\n"),
            "{out}"
        );
        assert!(!out.contains("rd.live.check"));
        assert!(isolinux_cfg("default x\nlabel x\n  kernel mboot.c32\n", "t", "a").is_err());
    }

    #[test]
    fn grub_keeps_commands_and_search_with_the_new_label() {
        let rhel8 = "set default=\"1\"\nsearch --no-floppy --set=root -l 'RHEL-8-4-0-BaseOS-x86_64'\nmenuentry 'Install' --class fedora {\n\tlinuxefi /images/pxeboot/vmlinuz inst.stage2=hd:LABEL=RHEL-8-4-0-BaseOS-x86_64 quiet\n\tinitrdefi /images/pxeboot/initrd.img\n}\n";
        let out = grub_cfg(
            rhel8,
            "Install 'x'",
            "A=1",
            "RHEL-8-4-0-BaseOS-x86_64",
            "NEW",
        )
        .unwrap();
        assert!(
            out.contains("search --no-floppy --set=root -l 'NEW'\n"),
            "{out}"
        );
        assert!(
            out.contains("\tlinuxefi /images/pxeboot/vmlinuz A=1\n"),
            "{out}"
        );
        assert!(
            out.contains("\tinitrdefi /images/pxeboot/initrd.img\n"),
            "{out}"
        );
        assert!(out.contains("menuentry 'Install x'"), "{out}");
        assert!(grub_cfg("menuentry x {\n}\n", "t", "a", "o", "n").is_err());
    }

    #[test]
    fn esxi_keeps_the_vendor_module_list() {
        let cfg = "bootstate=0\r\ntitle=Loading ESXi installer\r\nkernel=/b.b00\r\nkernelopt=runweasel ks=usb:/old.cfg cdromBoot\r\nmodules=/jumpstrt.gz --- /useropts.gz --- /k.b00\r\nbuild=\r\n";
        let out = esxi_boot_cfg(cfg, "ks=cdrom:/KS.CFG");
        assert!(
            out.contains("kernelopt=runweasel cdromBoot ks=cdrom:/KS.CFG\r\n"),
            "{out}"
        );
        assert!(out.contains("modules=/jumpstrt.gz --- /useropts.gz --- /k.b00\r\n"));
        assert!(!out.contains("old.cfg"));
        let bare = esxi_boot_cfg("kernel=/b.b00\nmodules=/a\n", "ks=cdrom:/KS.CFG");
        assert!(
            bare.ends_with("kernelopt=runweasel ks=cdrom:/KS.CFG\n"),
            "{bare}"
        );
    }

    #[test]
    fn kernel_command_lines_by_where_the_answers_are() {
        let rhel = Flavor::Rhel {
            volume_id: "BOOTSMITH_RHEL84",
        };
        let args = |f, a| kernel_args(f, a).unwrap();
        assert_eq!(
            args(rhel, Answers::Disk),
            "inst.stage2=hd:LABEL=BOOTSMITH_RHEL84 inst.ks=hd:LABEL=OEMDRV:/ks.cfg"
        );
        assert_eq!(
            args(
                rhel,
                Answers::Http("http://10.0.0.5:8080/svc/node01/ks.cfg", None)
            ),
            "inst.stage2=hd:LABEL=BOOTSMITH_RHEL84 inst.ks=http://10.0.0.5:8080/svc/node01/ks.cfg"
        );
        assert_eq!(
            args(Flavor::Ubuntu, Answers::Disk),
            "autoinstall ds=nocloud"
        );
        assert_eq!(
            args(
                Flavor::Ubuntu,
                Answers::Http("http://10.0.0.5:8080/svc/ubu01/", None)
            ),
            "autoinstall ds=nocloud;s=http://10.0.0.5:8080/svc/ubu01/"
        );
        assert_eq!(
            args(Flavor::Esxi, Answers::OnIso(b"ks")),
            "ks=cdrom:/KS.CFG"
        );
        assert_eq!(
            args(
                Flavor::Esxi,
                Answers::Http("http://[fd00::5]:80/svc/esx01/ks.cfg", None)
            ),
            "ks=http://[fd00::5]:80/svc/esx01/ks.cfg"
        );
        let refused = |f, a| kernel_args(f, a).unwrap_err().to_string();
        assert!(refused(Flavor::Esxi, Answers::Disk).contains("not from an answer disk"));
        assert!(refused(rhel, Answers::OnIso(b"ks")).contains("only ESXi"));
        assert!(
            refused(Flavor::Ubuntu, Answers::Http("http://h/svc/u", None))
                .contains("ending in '/'")
        );
        for bad in [
            "ftp://h/ks.cfg",
            "http://h/a b",
            "http://h/a;b",
            "http://h/'x'",
            "http://h/$x",
        ] {
            assert!(
                refused(rhel, Answers::Http(bad, None)).contains("cannot be"),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_nocloud_seed_is_quoted_for_grub_and_plain_for_isolinux() {
        let args = kernel_args(
            Flavor::Ubuntu,
            Answers::Http("http://10.0.2.2:8080/svc/ubu01/", None),
        )
        .unwrap();
        let grub = grub_cfg(
            "menuentry 'Try' {\n\tlinux /casper/vmlinuz ---\n\tinitrd /casper/initrd\n}\n",
            "Install Ubuntu",
            &args,
            "U",
            "U",
        )
        .unwrap();
        assert!(
            grub.contains(
                "\tlinux /casper/vmlinuz autoinstall 'ds=nocloud;s=http://10.0.2.2:8080/svc/ubu01/'\n"
            ),
            "{grub}"
        );
        let isolinux = isolinux_cfg(
            "label live\n  kernel /casper/vmlinuz\n  append initrd=/casper/initrd ---\n",
            "Install Ubuntu",
            &args,
        )
        .unwrap();
        assert!(
            isolinux.contains(
                "  append initrd=/casper/initrd autoinstall ds=nocloud;s=http://10.0.2.2:8080/svc/ubu01/\n"
            ),
            "{isolinux}"
        );
        // RHEL's words have nothing GRUB treats specially: as they are.
        assert_eq!(
            grub_word("inst.ks=http://10.0.2.2:80/svc/n1/ks.cfg"),
            "inst.ks=http://10.0.2.2:80/svc/n1/ks.cfg"
        );
        assert_eq!(
            grub_word("inst.ks=hd:LABEL=OEMDRV:/ks.cfg"),
            "inst.ks=hd:LABEL=OEMDRV:/ks.cfg"
        );
    }

    #[test]
    fn esxi_kickstart_over_http_replaces_the_cd_copy() {
        let cfg = "kernel=/b.b00\nkernelopt=runweasel ks=cdrom:/KS.CFG cdromBoot\nmodules=/a\n";
        let out = esxi_boot_cfg(cfg, "ks=http://10.0.0.5:80/svc/esx01/ks.cfg");
        assert!(
            out.contains("kernelopt=runweasel cdromBoot ks=http://10.0.0.5:80/svc/esx01/ks.cfg\n"),
            "{out}"
        );
        assert!(!out.contains("cdrom:/KS.CFG"), "{out}");
    }

    #[test]
    fn xorriso_progress_lines() {
        assert_eq!(
            written_percent(
                "xorriso : UPDATE : Writing:      32768s   54.4%   fifo 100%  buf  50%"
            ),
            Some(54.4)
        );
        assert_eq!(written_percent("xorriso : UPDATE : 12 files added"), None);
    }

    #[test]
    fn volume_ids() {
        assert!(check_volume_id("BOOTSMITH_RH84").is_ok());
        for bad in ["", "lower", "A B", &"X".repeat(33)] {
            assert!(check_volume_id(bad).is_err(), "{bad}");
        }
    }
}
