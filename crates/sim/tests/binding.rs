//! A service profile and its updating template, as UCS Manager keeps them: the template owns
//! the policies it names (the profile cannot name others while bound), unbinding keeps them
//! in the profile, and binding again brings the template's back.

use bootsmith_sim::{Sim, SimConfig};
use bootsmith_ucs::xml::Mo;

mod common;
use common::{
    assert_accepted, conf_mos, cookie_of, error_code, instance, parse_reply, post_raw, profile,
    template,
};

async fn conf(sim: &Sim, cookie: &str, objs: Vec<Mo>) -> Mo {
    let (_, body) = post_raw(sim, "/nuova", &conf_mos(cookie, objs).to_xml()).await;
    parse_reply(&body)
}

#[tokio::test]
async fn a_bound_profile_takes_its_template_s_policies_until_it_is_unbound() {
    let sim = Sim::start(SimConfig::ucsm()).await.unwrap();
    let (_, body) = post_raw(
        &sim,
        "/nuova",
        r#"<aaaLogin inName="admin" inPassword="password"/>"#,
    )
    .await;
    let cookie = cookie_of(&parse_reply(&body));
    let vmedia = |name: &str| {
        Mo::new("cimcvmediaMountConfigPolicy")
            .with("dn", format!("org-root/mnt-cfg-policy-{name}"))
            .with("name", name)
    };
    let r = conf(
        &sim,
        &cookie,
        vec![
            Mo::new("lsbootPolicy")
                .with("dn", "org-root/boot-policy-boot1")
                .with("name", "boot1"),
            vmedia("vm1"),
            vmedia("other"),
            template()
                .with("bootPolicyName", "boot1")
                .with("vmediaPolicyName", "vm1"),
            instance("sp-a"),
        ],
    )
    .await;
    assert_accepted(&r);
    let a = sim.get("org-root/ls-sp-a").unwrap();
    assert_eq!(a.get("operVmediaPolicyName"), "org-root/mnt-cfg-policy-vm1");

    // Bound: another vMedia policy on the profile alone is refused, and nothing changes.
    let r = conf(
        &sim,
        &cookie,
        vec![profile("sp-a").with("vmediaPolicyName", "other")],
    )
    .await;
    assert_eq!(error_code(&r), Some("101"), "{}", r.to_xml());
    assert!(
        r.get("errorDescr")
            .contains("bound to updating template org-root/ls-tmpl"),
        "{}",
        r.to_xml()
    );
    let a = sim.get("org-root/ls-sp-a").unwrap();
    assert_eq!(a.get("vmediaPolicyName"), "");
    // The template's own value is no change, so it is taken.
    let r = conf(
        &sim,
        &cookie,
        vec![profile("sp-a").with("vmediaPolicyName", "vm1")],
    )
    .await;
    assert_accepted(&r);

    // Unbound with no vMedia policy in one write: the template's boot policy stays its own.
    let r = conf(
        &sim,
        &cookie,
        vec![profile("sp-a")
            .with("srcTemplName", "")
            .with("vmediaPolicyName", "")],
    )
    .await;
    assert_accepted(&r);
    let a = sim.get("org-root/ls-sp-a").unwrap();
    assert_eq!(
        (
            a.get("srcTemplName"),
            a.get("operSrcTemplName"),
            a.get("bootPolicyName"),
            a.get("operBootPolicyName"),
            a.get("vmediaPolicyName"),
        ),
        ("", "", "boot1", "org-root/boot-policy-boot1", "")
    );
    assert_ne!(a.get("operVmediaPolicyName"), "org-root/mnt-cfg-policy-vm1");
    // Unbound, the profile's policies are its own to change.
    let r = conf(
        &sim,
        &cookie,
        vec![profile("sp-a").with("vmediaPolicyName", "other")],
    )
    .await;
    assert_accepted(&r);

    // Bound again: the template's vMedia policy is in force again.
    let r = conf(
        &sim,
        &cookie,
        vec![profile("sp-a").with("srcTemplName", "tmpl")],
    )
    .await;
    assert_accepted(&r);
    let a = sim.get("org-root/ls-sp-a").unwrap();
    assert_eq!(
        (a.get("operSrcTemplName"), a.get("operVmediaPolicyName")),
        ("org-root/ls-tmpl", "org-root/mnt-cfg-policy-vm1")
    );
}
