//! The default answer files render for every family with the documented variables.

mod answer_vars;

use answer_vars::vars;
use bootsmith_media::templates::{label, new_password, render, Family};
use bootsmith_model::catalog::Catalog;

fn text(files: &[bootsmith_media::fat::ImageFile], name: &str) -> String {
    String::from_utf8(
        files
            .iter()
            .find(|f| f.name == name)
            .unwrap_or_else(|| panic!("{name} missing"))
            .contents
            .clone(),
    )
    .unwrap()
}

#[test]
fn kickstart_for_each_rhel_generation() {
    for (id, version, major) in [
        ("centos7.4", "7.4", 7),
        ("rhel8.10", "8.10", 8),
        ("rocky9", "9", 9),
        ("rhel10.1", "10.1", 10),
    ] {
        let v = vars(id, "rhel", version, major);
        let ks = text(&render(Family::Rhel, &v, None).unwrap(), "ks.cfg");
        assert!(
            ks.contains(&format!("{}/{id}/", v.svc_url)),
            "{id}: install tree URL\n{ks}"
        );
        assert!(
            ks.contains("192.0.2.21") && ks.contains("192.0.2.1") && ks.contains("node01"),
            "{id}: network\n{ks}"
        );
        assert!(ks.contains(&v.root_password_hash), "{id}: rootpw hash");
        assert!(ks.contains("ssh-ed25519"), "{id}: ssh key");
        assert!(
            !ks.contains("=eno1") && !ks.contains("=sda") && !ks.contains("drives=sd"),
            "{id}: no hard-coded NIC or disk"
        );
        assert!(ks.contains("proxy.example"), "{id}: proxy");
    }
    assert_eq!(label(Family::Rhel), "OEMDRV");
}

#[test]
fn rhvh_esxi_ubuntu_and_windows_render() {
    let ks = text(
        &render(Family::Rhvh, &vars("rhvh4.3", "rhvh", "4.3", 4), None).unwrap(),
        "ks.cfg",
    );
    assert!(ks.contains("liveimg") && ks.contains("squashfs"));

    let esx = text(
        &render(Family::Esxi, &vars("esxi8.0", "esxi", "8.0", 8), None).unwrap(),
        "KS.CFG",
    );
    assert!(
        esx.contains("vmaccepteula") && esx.contains("--vlanid=30") && esx.contains("192.0.2.21"),
        "{esx}"
    );

    let files = render(
        Family::Ubuntu,
        &vars("ubuntu24.04", "ubuntu", "24.04", 24),
        None,
    )
    .unwrap();
    let ud = text(&files, "user-data");
    assert!(
        ud.starts_with("#cloud-config")
            && ud.contains("autoinstall:")
            && ud.contains("192.0.2.21/24"),
        "{ud}"
    );
    assert!(text(&files, "meta-data").contains("node01"));
    assert_eq!(label(Family::Ubuntu), "CIDATA");
    let old = render(
        Family::Ubuntu,
        &vars("ubuntu18.04", "ubuntu", "18.04", 18),
        None,
    )
    .unwrap_err();
    assert!(old.to_string().contains("18.04"), "{old}");

    let mut w = vars("win2022", "windows", "2022", 2022);
    w.admin_password = Some("Generated-Pass-1".into());
    let files = render(Family::Windows, &w, None).unwrap();
    let xml = text(&files, "autounattend.xml");
    let mut reader = quick_xml::Reader::from_str(&xml);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("autounattend.xml is not well-formed: {e}\n{xml}"),
        }
    }
    assert!(xml.contains("node01"));
    assert!(text(&files, "network.txt").contains("IP=192.0.2.21"));
}

/// Every OS of the catalog gets its answer files for every role it allows, with that role's
/// marker where the family writes one; Ubuntu 18.04 alone is refused, by name.
#[test]
fn every_catalog_entry_renders_for_each_of_its_roles() {
    let catalog = Catalog::embedded().unwrap();
    let mut rendered = 0;
    for os in catalog.entries() {
        // The major as the deploy computes it: the leading digits of the version.
        let major: u32 = os
            .version
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|m| m.parse().ok())
            .unwrap_or_else(|| panic!("{}: version {} has no major", os.id, os.version));
        for role in &os.roles {
            let mut v = vars(&os.id, os.family.as_str(), &os.version, major);
            v.host.role = role.clone();
            v.admin_password = Some("Generated-Pass-1".into());
            match render(os.family, &v, None) {
                Ok(files) => {
                    let main = String::from_utf8(files[0].contents.clone()).unwrap();
                    assert!(
                        main.contains("node01"),
                        "{} {role}: the host\n{main}",
                        os.id
                    );
                    if role.starts_with("k8s") && os.family == Family::Rhel {
                        assert!(
                            main.contains(&format!("ROLE=\"{role}\"")),
                            "{} {role}: the role marker\n{main}",
                            os.id
                        );
                    }
                    rendered += 1;
                }
                Err(e) if os.id == "ubuntu18.04" => {
                    assert!(e.to_string().contains("preseed"), "{e}")
                }
                Err(e) => panic!("{} as {role}: {e}", os.id),
            }
        }
    }
    assert!(rendered > 100, "{rendered} answer files");
}

/// Windows Server 2025 picks its edition by the image name its install.wim carries; the
/// earlier media by index 2.
#[test]
fn windows_2025_installs_standard_with_the_desktop_by_image_name() {
    for (id, version, major, key, value) in [
        ("win2022", "2022", 2022, "/IMAGE/INDEX", "2"),
        (
            "win2025",
            "2025",
            2025,
            "/IMAGE/NAME",
            "Windows Server 2025 SERVERSTANDARD",
        ),
    ] {
        let mut w = vars(id, "windows", version, major);
        w.admin_password = Some("Generated-Pass-1".into());
        let xml = text(
            &render(Family::Windows, &w, None).unwrap(),
            "autounattend.xml",
        );
        let want = format!("<Key>{key}</Key>\n              <Value>{value}</Value>");
        assert!(xml.contains(&want), "{id}: {want}\n{xml}");
    }
}

#[test]
fn an_override_replaces_the_main_template_and_errors_name_the_line() {
    let v = vars("centos7.4", "rhel", "7.4", 7);
    // svc/centos7.4.tmpl holding `text`, in place of the built-in template.
    let with_override = |text| render(Family::Rhel, &v, Some(("svc/centos7.4.tmpl", text)));
    let files = with_override("host={{ host.name }} master={{ master.ip }}\n").unwrap();
    assert_eq!(text(&files, "ks.cfg"), "host=node01 master=192.0.2.21\n");
    let err = with_override("line one\nline two {% if %}\n").unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("svc/centos7.4.tmpl") && msg.contains("2:"),
        "{msg}"
    );
    let err = with_override("{{ no_such_variable }}").unwrap_err();
    assert!(err.to_string().contains("no_such_variable"), "{err}");
    let err = with_override("{{ get_env(name=\"HOME\") }}").unwrap_err();
    assert!(err.to_string().contains("get_env"), "{err}");
}

#[test]
fn generated_passwords_are_random_and_hashed() {
    let (a, ha) = new_password();
    let (b, hb) = new_password();
    assert_ne!(a, b);
    assert!(ha.starts_with("$6$") && !ha.contains(&a));
    assert!(sha_crypt_check(&a, &ha));
    assert_ne!(ha, hb);
}

fn sha_crypt_check(password: &str, hash: &str) -> bool {
    sha_crypt::sha512_check(password, hash).is_ok()
}

#[test]
fn every_family_label_fits_a_fat_image() {
    use bootsmith_media::fat::{read_image, write_image, ImageFile};
    use bootsmith_media::templates::{label, Family};
    let dir = tempfile::tempdir().unwrap();
    for family in [
        Family::Rhel,
        Family::Rhvh,
        Family::Esxi,
        Family::Ubuntu,
        Family::Windows,
    ] {
        let path = dir.path().join("x.img");
        let files = [ImageFile {
            name: "a.txt".into(),
            contents: b"x".to_vec(),
        }];
        write_image(&path, label(family), &files).unwrap_or_else(|e| panic!("{family:?}: {e}"));
        assert_eq!(read_image(&path).unwrap().0, label(family));
    }
}

/// Every default answer file ends by reporting the install done, with the host's own token, and
/// the families with an error hook report failures; without a callback (a preview) nothing calls.
#[test]
fn every_family_reports_back_to_bootsmith() {
    let token = "0123456789abcdef0123456789abcdef0123456789abcdef";
    let cases = [
        (Family::Rhel, "rocky9", "rhel", "9.4", 9, "ks.cfg", true),
        (Family::Rhvh, "rhvh4.4", "rhvh", "4.4", 4, "ks.cfg", true),
        (
            Family::Ubuntu,
            "ubuntu24.04",
            "ubuntu",
            "24.04",
            24,
            "user-data",
            true,
        ),
        (Family::Esxi, "esxi8.0", "esxi", "8.0", 8, "KS.CFG", true),
        (
            Family::Windows,
            "windows2022",
            "windows",
            "2022",
            2022,
            "autounattend.xml",
            false,
        ),
    ];
    for (family, id, fam, version, major, file, has_error_hook) in cases {
        let mut v = vars(id, fam, version, major);
        if family == Family::Windows {
            v.admin_password = Some("Secret-1".into());
        }
        let out = text(&render(family, &v, None).unwrap(), file);
        assert!(
            out.contains("http://192.0.2.10:8080/api/v2/hosts/node01/installed")
                && out.contains(token),
            "{id}: no installed callback in {file}:\n{out}"
        );
        assert_eq!(
            out.contains("http://192.0.2.10:8080/api/v2/hosts/node01/failed"),
            has_error_hook,
            "{id}: failure hook"
        );
        // The logs go first: the installed call spends the token they are sent with.
        let logs = out.find("http://192.0.2.10:8080/api/v2/hosts/node01/logs?file=");
        let installed = out.find("http://192.0.2.10:8080/api/v2/hosts/node01/installed");
        assert!(
            logs.is_some() && logs < installed && out.contains("X-Install-Token"),
            "{id}: no log upload before the installed callback in {file}:\n{out}"
        );
        if has_error_hook {
            // The error hook (the last failure report) sends the logs just before it.
            let failed = out
                .rfind("http://192.0.2.10:8080/api/v2/hosts/node01/failed")
                .unwrap();
            let upload = out[..failed].rfind("/api/v2/hosts/node01/logs?file=");
            assert!(
                upload.is_some_and(|at| failed - at < 1500),
                "{id}: the error hook sends no logs before it reports the failure:\n{out}"
            );
        }
        v.callback = None;
        let preview = text(&render(family, &v, None).unwrap(), file);
        assert!(
            !preview.contains("/api/v2/hosts/"),
            "{id}: a preview calls nothing"
        );
    }
    // Ubuntu with nothing else to do after the install still gets both hooks, at autoinstall level.
    let mut v = vars("ubuntu24.04", "ubuntu", "24.04", 24);
    v.network.proxy = None;
    v.network.ntpserver = String::new();
    v.host.role = "generic".into();
    let out = text(&render(Family::Ubuntu, &v, None).unwrap(), "user-data");
    let late = out
        .find("\n  late-commands:\n    # Last: send the installer's logs, then tell Bootsmith")
        .expect("late-commands");
    let error = out
        .find("\n  error-commands:\n    - |\n      # The installer's logs to Bootsmith")
        .expect("error-commands");
    assert!(late < error && out[late..].contains("/installed"));
}
