//! What each input looks like, said once: the sentence an `invalid_body` error ends with
//! ("expected a network group {name, …}") and the JSON shape checked before reading, for
//! the REST API's bodies and the window's record arguments alike.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::Result;
use crate::{
    callbacks, compute, deploy, install_logs, kubam, lifecycle, logs, media::iso_import,
    media::isos, packs, records::aci, records::hosts, records::keys, records::networks,
    records::params, records::server_groups, records::settings,
};
use bootsmith_model::bodies::{from_json, Shape};

/// An input type: what it should look like.
pub trait Body: DeserializeOwned {
    /// A short description of the expected input.
    const EXPECTED: &'static str;
    /// What the input is at its top level.
    const SHAPE: Shape = Shape::Object;
}

/// Read `value` as a `T`, refusing another shape with `T`'s description.
pub fn read<T: Body>(value: Value) -> Result<T> {
    from_json(value, T::SHAPE, T::EXPECTED)
}

macro_rules! bodies {
    ($($ty:ty => $text:expr),* $(,)?) => {
        $(impl Body for $ty { const EXPECTED: &'static str = $text; })*
    };
}

bodies! {
    settings::SvcIpInput => "{\"svc_ip\": \"<address>\"}",
    settings::ProxyInput => "{\"proxy\": \"http://<host>:<port>\"}",
    settings::OrgInput => "{\"org\": \"org-root/org-<name>\"}",
    keys::KeysInput => "{\"keys\": [\"ssh-ed25519 AAAA…\"]}",
    iso_import::ImportInput => "{\"path\": \"/absolute/path/of/the.iso\", \"os\": \"<os id, optional>\"}",
    iso_import::FetchInput => "{\"url\": \"http://<host>/<name>.iso\", \"sha256\": \"<64 hex digits, optional>\", \"file_name\": \"<name in svc, optional>\"}",
    isos::IsoMapInput => "{\"iso_map\": [{\"file\": \"/svc/<name>.iso\", \"os\": \"<os id>\"}]}",
    server_groups::ServerGroupInput => "a server group {name, type, credentials: {ip, user, password}}",
    server_groups::ServerGroupRef => "{\"name\": \"<server group>\"}",
    server_groups::SelectInput => "{\"servers\": {\"blades\": [\"1/1\"], \"rack_servers\": [\"1\"]}}",
    networks::NetworkInput => "a network group {name, netmask, gateway, nameserver, ntpserver}",
    networks::NetworkRef => "{\"id\": \"<id>\"} or {\"name\": \"<name>\"}",
    hosts::HostRef => "{\"name\": \"<host>\"}",
    aci::AciInput => "an ACI instance {name, credentials: {ip, user, password}, tenant_name, vrf_name, bridge_domain}",
    aci::AciRef => "{\"id\": \"<id>\"} or {\"name\": \"<name>\"}",
    compute::SelectorBody => "{\"servers\": {\"blades\": [\"1/1\"], \"rack_servers\": [\"1\"]}}",
    compute::GroupSelectorBody => "{\"server_group\": \"<name>\", \"servers\": {\"blades\": [\"1/1\"]}}",
    kubam::KubamImportInput => "{\"yaml\": \"<the text of kubam.yaml>\", \"key\": \"<the text of .kubam, optional>\"}",
    deploy::DeployRequest => "a deploy request {dry_run, until, restart, allow_stale}",
    callbacks::Callback => "{\"token\": \"<the host's install token>\", \"reason\": \"<why it failed, for …/failed>\"}",
    lifecycle::TimeoutsInput => "install settings {deployed_minutes, media_mounted_minutes, booting_minutes, installing_minutes, unmount_after_install}",
    kubam::ImportOptions => "import options {dry_run, skip_existing}",
    logs::LogQuery => "a log query {level, q, limit, before}",
    install_logs::LogTextQuery => "a log read {tail}",
    compute::ConsoleQuery => "{\"server\": \"<server id, like 1/3>\"}",
    params::ParamsInput => "{\"<key>\": \"<value>\"} or {\"<key>\": {\"value\": \"…\", \"secret\": true}}",
    packs::PackBody => "a catalog pack {\"name\", \"version\", \"entries\": [<catalog entries>], \"templates\": {\"<os id>\": \"<template>\"}}",
}

impl Body for Vec<String> {
    const EXPECTED: &'static str =
        "a list of host names [\"<host>\", …] (or no body for every host)";
    const SHAPE: Shape = Shape::List;
}

impl Body for Vec<hosts::HostInput> {
    const EXPECTED: &'static str =
        "the full list of hosts [{name, ip, os, role, network_group}, …]";
    const SHAPE: Shape = Shape::Records;
}
