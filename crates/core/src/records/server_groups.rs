//! Server groups: a UCS Manager domain, a UCS Central, a standalone IMC or a group of Redfish
//! BMCs, with login data and the servers selected for deployment.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::app::App;
use crate::error::{Error, ErrorCode, Result};
// Choosing a group's servers asks its manager, so it lives with compute; the action table
// and the REST door still name it here.
pub use crate::compute::selection::{select_servers, SelectInput, Selection};
pub use crate::managers::GroupKind;
use crate::managers::{password_missing, Capability, Connection, Login, ManagedGroup};
use crate::records::settings;
use crate::records::{self, params, require_id, Kind, Lookup, Prefer};
use crate::secrets::{Cipher, SecretString};
use bootsmith_model::install_disk::{self as hint, InstallDiskHint};
use bootsmith_model::params::{ParamKey, ParamSchema, Params, SentParam};
use bootsmith_model::selector::{SelectorInput, ServerSelector};
use bootsmith_model::types::{BladeId, ManagerAddress, Name, OrgDn, RackId, VlanName};
use bootsmith_model::validate::{self, Check};
use bootsmith_store::{self as store, server_groups::GroupRow, Conn, Named};
use std::collections::BTreeMap;

/// Login data as returned: the password is encrypted, never in clear.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StoredCredentials {
    /// Manager address (IP or name, optional port and scheme).
    pub ip: String,
    /// User name.
    pub user: String,
    /// The password, encrypted (`enc:v1:…`); send it back unchanged to keep it.
    pub password: String,
}

/// One BMC of a Redfish group as returned, and as its further BMCs are stored: the password
/// encrypted, never in clear.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StoredBmc {
    /// The BMC's address (IP or name, optional port and scheme).
    pub ip: String,
    /// User name.
    pub user: String,
    /// The password, encrypted (`enc:v1:…`); send it back unchanged to keep it.
    pub password: String,
    /// Skip verification of its certificate.
    #[serde(default)]
    pub insecure: bool,
    /// SHA-256 fingerprint of its certificate that the operator accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
}

/// A server group as stored and returned.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ServerGroup {
    /// Id assigned by the service.
    pub id: Uuid,
    /// The same id under the name one seed form uses.
    pub uid: Uuid,
    /// Name hosts refer to.
    #[schema(value_type = String)]
    pub name: Name,
    /// `ucsm` or `imc`.
    #[serde(rename = "type")]
    pub kind: GroupKind,
    /// Login data.
    pub credentials: StoredCredentials,
    /// Servers selected for deployment.
    pub server_pool: ServerSelector,
    /// UCS VLAN name.
    #[schema(value_type = Option<String>)]
    pub vlan: Option<VlanName>,
    /// Skip verification of the manager's certificate (the operator's explicit choice).
    pub insecure: bool,
    /// SHA-256 fingerprint of the manager's certificate that the operator accepted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    /// Free text for people.
    pub description: Option<String>,
    /// The UCS org DN deploys work under; none means the default org (`/api/v1/org`, else org-root).
    #[schema(value_type = Option<String>)]
    pub org: Option<OrgDn>,
    /// True when the group has no password yet (imported from KUBAM without its key file):
    /// every action on it answers `422 password_missing` until one is entered.
    pub password_missing: bool,
    /// What the group's manager can do; anything else answers `422 not_supported` (none for
    /// a type whose driver is not built yet).
    pub capabilities: &'static [Capability],
    /// A Redfish group's BMCs, first to last (the first is also `credentials`); left out for
    /// other types.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bmcs: Vec<StoredBmc>,
    /// The disk its hosts install on where a host gives none; left out: the default disk.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub install_disk: Option<InstallDiskHint>,
    /// Template parameters of its hosts, over their network groups' and under their own.
    #[serde(skip_serializing_if = "Params::is_empty")]
    #[schema(value_type = Option<std::collections::BTreeMap<String, ParamSchema>>)]
    pub params: Params,
}

impl ServerGroup {
    /// The group as the manager seam sees it.
    pub fn managed(&self) -> ManagedGroup {
        ManagedGroup {
            id: self.id,
            name: self.name.clone(),
            kind: self.kind,
            address: self.credentials.ip.clone(),
            user: self.credentials.user.clone(),
            password: self.credentials.password.clone(),
            password_missing: self.password_missing,
            insecure: self.insecure,
            fingerprint: self.fingerprint.clone(),
            server_pool: self.server_pool.clone(),
            more: self
                .bmcs
                .iter()
                .skip(1)
                .map(|b| Login {
                    address: b.ip.clone(),
                    user: b.user.clone(),
                    password: b.password.clone(),
                    insecure: b.insecure,
                    fingerprint: b.fingerprint.clone(),
                })
                .collect(),
            install_disk: self.install_disk.clone(),
        }
    }

    /// The org this group's deploys write under: its own, else the default one, else org-root.
    pub async fn effective_org(&self, app: &App) -> Result<OrgDn> {
        Ok(match &self.org {
            Some(o) => o.clone(),
            None => settings::org(app)
                .await?
                .unwrap_or_else(|| OrgDn::from_stored("org-root".into())),
        })
    }
}

/// Login data as sent.
#[derive(Debug, Deserialize, ToSchema)]
pub struct CredentialsInput {
    /// Manager address.
    #[schema(schema_with = bootsmith_model::schema::manager_address, required = true)]
    pub ip: Option<String>,
    /// User name.
    #[schema(schema_with = bootsmith_model::schema::user, required = true)]
    pub user: Option<String>,
    /// Password in clear (required when creating), or the encrypted value returned by GET to
    /// keep the stored one; left out when updating, the stored one is kept.
    #[schema(value_type = Option<String>)]
    pub password: Option<SecretString>,
}

/// One BMC of a Redfish group as sent: its login (a password required for a BMC the group did
/// not have) and how to trust it.
#[derive(Debug, Deserialize, ToSchema)]
pub struct BmcInput {
    /// Address, user and password, as in `credentials`.
    #[serde(flatten)]
    pub login: CredentialsInput,
    /// Skip verification of its certificate (default: the group's `insecure`).
    pub insecure: Option<bool>,
    /// Accept its certificate with this SHA-256 fingerprint.
    pub fingerprint: Option<String>,
}

/// Body of `POST`/`PUT /api/v2/servers`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ServerGroupInput {
    /// Required for PUT.
    pub id: Option<String>,
    /// Alternative spelling of `id`.
    pub uid: Option<String>,
    /// Group name.
    #[schema(schema_with = bootsmith_model::schema::name, required = true)]
    pub name: Option<String>,
    /// The kind of manager.
    #[serde(rename = "type")]
    #[schema(value_type = GroupKind, required = true)]
    pub kind: Option<String>,
    /// Login data (required, except for a Redfish group that lists its `bmcs`; given beside
    /// `bmcs`, as GET answers a Redfish group, it must name the first of them).
    #[serde(default, deserialize_with = "bootsmith_model::bodies::object")]
    #[schema(nullable = false)]
    pub credentials: Option<CredentialsInput>,
    /// Selected servers.
    #[serde(default, deserialize_with = "bootsmith_model::bodies::object")]
    pub server_pool: Option<SelectorInput>,
    /// UCS VLAN name.
    #[schema(schema_with = bootsmith_model::schema::vlan_name)]
    pub vlan: Option<String>,
    /// Skip certificate verification.
    pub insecure: Option<bool>,
    /// Accept the manager's certificate with this SHA-256 fingerprint (a Redfish group's: its
    /// first BMC's, which `bmcs` may give instead).
    pub fingerprint: Option<String>,
    /// Log in to check the credentials before storing (default true); false stores offline.
    pub check_login: Option<bool>,
    /// Free text for people (up to 256 characters).
    #[schema(schema_with = bootsmith_model::schema::description)]
    pub description: Option<String>,
    /// UCS org DN for deploys (`org-root/org-lab`); empty or absent: the default org.
    #[schema(schema_with = bootsmith_model::schema::org)]
    pub org: Option<String>,
    /// A Redfish group's BMCs (one server each), in place of `credentials` (or beside it,
    /// naming the same first BMC); only for type `redfish`.
    #[schema(min_items = 1)]
    pub bmcs: Option<Vec<BmcInput>>,
    /// The disk its hosts install on where a host gives none, as Ironic's root-device hints
    /// (`{"model": "…", "size_gb": {"min": 400}}`); null or left out: the default disk.
    #[schema(value_type = Option<InstallDiskHint>)]
    pub install_disk: Option<serde_json::Value>,
    /// Template parameters of its hosts (`{"repo_url": "http://…"}`, a secret as
    /// `{"key": {"value": "…", "secret": true}}`; sent back as read, `********` keeps it), over
    /// their network groups' and under their own.
    #[serde(default)]
    #[schema(value_type = Option<std::collections::BTreeMap<String, ParamSchema>>)]
    pub params: Option<serde_json::Value>,
}

/// Body of `DELETE /api/v2/servers`: the group's `name` or its `id` (`uid` is the other
/// spelling), at least one (an empty one counts as left out); when both are sent, the name
/// decides.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ServerGroupRef {
    /// Group name.
    pub name: Option<String>,
    /// Group id.
    #[schema(format = Uuid)]
    pub id: Option<String>,
    /// Group id, other spelling.
    #[schema(format = Uuid)]
    pub uid: Option<String>,
}

/// The stored password of a group that has none yet (`password_missing`).
pub(crate) const NO_PASSWORD: &str = "";

/// Check login data as sent (a server group's or an ACI instance's): the address, the user,
/// and the password unless it may be left out; an empty password counts as none.
pub(crate) fn check_credentials(
    c: &mut Check,
    credentials: &Option<CredentialsInput>,
    password_required: bool,
) -> (Option<ManagerAddress>, Option<String>, Option<SecretString>) {
    let Some(cr) = credentials else {
        c.fail("credentials", "is required ({ip, user, password})");
        return (None, None, None);
    };
    let ip = c.required("credentials.ip", &cr.ip, ManagerAddress::parse);
    let user = c.required("credentials.user", &cr.user, validate::text(128));
    let password = cr.password.clone().filter(|p| !p.expose().is_empty());
    if password.is_none() && password_required {
        c.fail("credentials.password", "is required");
    }
    (ip, user, password)
}

/// A group as submitted, every field checked: what create, update and the KUBAM import store.
pub(crate) struct Checked {
    pub name: Name,
    pub kind: GroupKind,
    ip: ManagerAddress,
    user: String,
    pub password: Option<SecretString>,
    pool: Option<ServerSelector>,
    vlan: Option<VlanName>,
    insecure: bool,
    fingerprint: Option<String>,
    check_login: bool,
    description: Option<String>,
    org: Option<OrgDn>,
    /// A Redfish group's further BMCs.
    more: Vec<CheckedBmc>,
    install_disk: Option<InstallDiskHint>,
    /// The parameters as sent; encrypted (and kept secrets taken from the stored group) on store.
    params: BTreeMap<ParamKey, SentParam>,
}

/// One further BMC as submitted, checked; its password may still be the stored one's to keep.
struct CheckedBmc {
    ip: ManagerAddress,
    user: String,
    password: Option<SecretString>,
    insecure: bool,
    fingerprint: Option<String>,
}

/// A SHA-256 fingerprint as operators paste it, normalised.
fn fingerprint(f: &str) -> std::result::Result<String, String> {
    bootsmith_ucs::tls::normalize_fingerprint(f).ok_or_else(|| {
        format!("'{f}' is not a SHA-256 fingerprint (64 hex digits, optionally separated by ':')")
    })
}

/// Check a Redfish group's `bmcs` list: every BMC's fields (a password unless it may be left
/// out), and no address twice. Its BMCs, first to last, where all checked out.
fn check_bmcs(
    c: &mut Check,
    list: &[BmcInput],
    insecure: bool,
    password_required: bool,
) -> Vec<CheckedBmc> {
    if list.is_empty() {
        c.fail(
            "bmcs",
            "lists no BMC; give at least one {ip, user, password}",
        );
    }
    let mut out = Vec::new();
    for (i, b) in list.iter().enumerate() {
        let at = |f: &str| format!("bmcs[{i}].{f}");
        let ip = c.required(&at("ip"), &b.login.ip, ManagerAddress::parse);
        let user = c.required(&at("user"), &b.login.user, validate::text(128));
        let fp = c.optional(&at("fingerprint"), &b.fingerprint, fingerprint);
        let password = b.login.password.clone().filter(|p| !p.expose().is_empty());
        if password.is_none() && password_required {
            c.fail(&at("password"), "is required");
        }
        if let Some(ip) = &ip {
            if list[..i].iter().any(|o| {
                o.login
                    .ip
                    .as_deref()
                    .and_then(|a| ManagerAddress::parse(a).ok())
                    .as_ref()
                    == Some(ip)
            }) {
                c.fail(&at("ip"), format!("{ip} is listed twice"));
            }
        }
        if let (Some(ip), Some(user), Some(fingerprint)) = (ip, user, fp) {
            out.push(CheckedBmc {
                ip,
                user,
                password,
                insecure: b.insecure.unwrap_or(insecure),
                fingerprint,
            });
        }
    }
    out
}

/// Whether `credentials` name the same BMC as the first of `bmcs` (address and user), as GET
/// answers a Redfish group; with the password either gives. Where one of them is still the
/// encrypted value GET answered and the other a new password, the new one is the change (a
/// client edited one of the two places); two different passwords are refused.
fn same_bmc(
    c: &mut Check,
    credentials: &CredentialsInput,
    first: &CredentialsInput,
) -> (bool, Option<SecretString>) {
    let address = |a: &Option<String>| {
        a.as_deref()
            .map(|a| ManagerAddress::parse(a).map_err(|_| a.to_owned()))
    };
    if address(&credentials.ip) != address(&first.ip) || credentials.user != first.user {
        return (false, None);
    }
    let given = |p: &Option<SecretString>| p.clone().filter(|p| !p.expose().is_empty());
    let as_read = |p: &SecretString| p.expose().starts_with(crate::secrets::ENCRYPTED_PREFIX);
    match (given(&credentials.password), given(&first.password)) {
        (Some(a), Some(b)) if as_read(&a) && !as_read(&b) => (true, Some(b)),
        (Some(a), Some(b)) if !as_read(&a) && as_read(&b) => (true, Some(a)),
        (Some(a), Some(b)) if a.expose() != b.expose() => {
            c.fail(
                "credentials.password",
                "differs from bmcs[0].password, the same BMC's; send one of them",
            );
            (true, None)
        }
        (a, b) => (true, b.or(a)),
    }
}

/// Check a submitted group; `password_required` on create (the import stores groups whose
/// password is not known yet).
pub(crate) fn check(input: &ServerGroupInput, password_required: bool) -> Result<Checked> {
    let mut c = Check::default();
    let name = c.required("name", &input.name, Name::parse);
    let kind = c.required("type", &input.kind, GroupKind::parse);
    let vlan = c.optional("vlan", &input.vlan, VlanName::parse);
    let description = c.optional("description", &input.description, validate::text(256));
    let org = c.optional("org", &input.org, OrgDn::parse);
    let install_disk = hint::optional(&mut c, "install_disk", input.install_disk.as_ref());
    let params = bootsmith_model::params::sent(&mut c, "params", input.params.as_ref());
    let mut fingerprint = c.optional("fingerprint", &input.fingerprint, fingerprint);
    let insecure = input.insecure.unwrap_or(false);
    let mut more = Vec::new();
    let (ip, user, password) = match (&input.bmcs, kind) {
        (Some(_), Some(k)) if k != GroupKind::Redfish => {
            c.fail(
                "bmcs",
                "only Redfish groups list BMCs; give the manager's login in credentials",
            );
            (None, None, None)
        }
        (Some(list), _) => {
            // GET answers a Redfish group's first BMC twice, in bmcs and as credentials and
            // fingerprint: both are accepted back when they name the same BMC.
            let (same, password) = match (&input.credentials, list.first()) {
                (Some(cr), Some(b)) => same_bmc(&mut c, cr, &b.login),
                (Some(_), None) => (false, None),
                (None, _) => (true, None),
            };
            if !same {
                c.fail(
                    "credentials",
                    "give the BMCs either in credentials (one) or in bmcs (one or more), not both",
                );
            }
            let top = fingerprint.clone().flatten();
            let mut bmcs = check_bmcs(&mut c, list, insecure, password_required).into_iter();
            match bmcs.next() {
                Some(first) => {
                    match (&top, &first.fingerprint) {
                        (Some(t), Some(f)) if t != f => c.fail(
                            "fingerprint",
                            "differs from bmcs[0].fingerprint; give each BMC's fingerprint in bmcs",
                        ),
                        _ => {}
                    }
                    fingerprint = Some(first.fingerprint.or(top));
                    more = bmcs.collect();
                    let password = password.or(first.password);
                    (Some(first.ip), Some(first.user), password)
                }
                None => (None, None, None),
            }
        }
        (None, _) => check_credentials(&mut c, &input.credentials, password_required),
    };
    let pool = match &input.server_pool {
        None => Some(None),
        Some(sel) => match sel.check("server_pool") {
            Ok(s) => Some(Some(s)),
            Err(p) => {
                c.problems.extend(p);
                None
            }
        },
    };
    if kind == Some(GroupKind::Imc)
        && pool
            .as_ref()
            .and_then(|p| p.as_ref())
            .is_some_and(|p| !p.blades.is_empty())
    {
        c.fail(
            "server_pool.blades",
            "an IMC group is one rack server and has no blades",
        );
    }
    c.finish(
        ErrorCode::InvalidServerGroup,
        &records::invalid_what("server group", &input.name),
    )?;
    Ok(Checked {
        name: name.expect("checked"),
        kind: kind.expect("checked"),
        ip: ip.expect("checked"),
        user: user.expect("checked"),
        password,
        pool: pool.expect("checked"),
        vlan: vlan.expect("checked"),
        insecure: match (&input.bmcs, input.bmcs.as_deref().and_then(<[_]>::first)) {
            (Some(_), Some(first)) => first.insecure.unwrap_or(insecure),
            _ => insecure,
        },
        fingerprint: fingerprint.expect("checked"),
        check_login: input.check_login.unwrap_or(true),
        description: description.expect("checked"),
        org: org.expect("checked"),
        more,
        install_disk: install_disk.expect("checked"),
        params: params.expect("checked"),
    })
}

impl Checked {
    /// The parameters to store: secrets encrypted, one sent back masked kept from `before`.
    fn params(&self, cipher: &Cipher, before: &Params) -> Result<Params> {
        let mut c = Check::default();
        let kept = params::resolve(&mut c, cipher, "params", self.params.clone(), before);
        c.finish(
            ErrorCode::InvalidServerGroup,
            &records::invalid_what("server group", &Some(self.name.to_string())),
        )?;
        Ok(kept.expect("checked"))
    }
}

/// Log in with the submitted settings (and log out) through the group type's driver.
async fn verify_login(c: &Checked, password: &SecretString, more: &[SecretString]) -> Result<()> {
    let login = Connection {
        address: c.ip.as_str().to_owned(),
        user: c.user.clone(),
        password: password.clone(),
        insecure: c.insecure,
        fingerprint: c.fingerprint.clone(),
        more: c
            .more
            .iter()
            .zip(more)
            .map(|(b, p)| Connection {
                address: b.ip.as_str().to_owned(),
                user: b.user.clone(),
                password: p.clone(),
                insecure: b.insecure,
                fingerprint: b.fingerprint.clone(),
                more: Vec::new(),
            })
            .collect(),
    };
    crate::managers::check_login(c.kind, c.name.as_str(), &login).await
}

/// How server groups are named in messages and codes.
pub(crate) const KIND: Kind = Kind {
    what: "server group",
    not_found: ErrorCode::ServerGroupNotFound,
    invalid: ErrorCode::InvalidServerGroup,
    prefer: Prefer::Name,
    names_ignore_case: false,
};

records::with_id!(ServerGroup);

/// Every server group, ordered by name.
pub async fn list(app: &App) -> Result<Vec<ServerGroup>> {
    let rows = store::list::<GroupRow>(app.store().reader()).await?;
    let picks = store::server_groups::picks(app.store().reader()).await?;
    rows.into_iter()
        .map(|r| {
            let mut pool = ServerSelector::default();
            for p in picks.iter().filter(|p| p.group_id == r.id) {
                // Stored values passed validation when written; skip any a newer version cannot read.
                match p.kind.as_str() {
                    "blade" => pool.blades.extend(BladeId::parse(&p.server).ok()),
                    _ => pool.rack_servers.extend(RackId::parse(&p.server).ok()),
                }
            }
            let id = Uuid::parse_str(&r.id)
                .map_err(|_| Error::Corrupt(format!("server group id {}", r.id)))?;
            let kind = GroupKind::parse(&r.kind).unwrap_or(GroupKind::Ucsm);
            let bmcs = match kind {
                GroupKind::Redfish => {
                    let more: Vec<StoredBmc> = match &r.bmcs {
                        None => Vec::new(),
                        Some(j) => serde_json::from_str(j).map_err(|e| {
                            Error::Corrupt(format!("server group {}: its BMC list: {e}", r.name))
                        })?,
                    };
                    std::iter::once(StoredBmc {
                        ip: r.address.clone(),
                        user: r.username.clone(),
                        password: r.password_enc.clone(),
                        insecure: r.insecure,
                        fingerprint: r.fingerprint.clone(),
                    })
                    .chain(more)
                    .collect()
                }
                _ => Vec::new(),
            };
            let install_disk = records::install_disk::from_stored(r.install_disk.as_deref())
                .map_err(|e| {
                    Error::Corrupt(format!("server group {}: install_disk: {e}", r.name))
                })?;
            let params = params::stored(r.params.as_deref(), &format!("server group {}", r.name))?;
            Ok(ServerGroup {
                id,
                uid: id,
                name: Name::from_stored(r.name),
                kind,
                password_missing: r.password_enc == NO_PASSWORD,
                credentials: StoredCredentials {
                    ip: r.address,
                    user: r.username,
                    password: r.password_enc,
                },
                server_pool: pool,
                vlan: r.vlan.map(VlanName::from_stored),
                insecure: r.insecure,
                fingerprint: r.fingerprint,
                description: r.description,
                org: r.org.map(OrgDn::from_stored),
                capabilities: crate::managers::capabilities(kind),
                bmcs,
                install_disk,
                params,
            })
        })
        .collect()
}

/// One group by name, or `server_group_not_found`.
pub async fn get(app: &App, name: &str) -> Result<ServerGroup> {
    records::resolve(&KIND, list(app).await?, Lookup::Name(name))
}

/// The clear-text password of a group, for logging in to its manager.
pub fn password(app: &App, group: &ServerGroup) -> Result<SecretString> {
    stored_password(app, group.name.as_str(), &group.credentials.password)
}

/// Decrypt a group's stored password; a group without one is `password_missing`, not the
/// undecryptable-secret error (or a login failure) that would hide what to do.
pub(crate) fn stored_password(app: &App, group: &str, stored: &str) -> Result<SecretString> {
    if stored == NO_PASSWORD {
        return Err(password_missing(group));
    }
    app.cipher().decrypt(stored)
}

/// Create a group.
pub async fn create(app: &App, input: ServerGroupInput) -> Result<ServerGroup> {
    records::no_id_on_create(&KIND, input.id.as_deref())?;
    let c = check(&input, true)?;
    let id = Uuid::new_v4();
    let clear = c.password.as_ref().expect("required on create");
    let more: Vec<SecretString> = c
        .more
        .iter()
        .map(|b| b.password.clone().expect("required on create"))
        .collect();
    if c.check_login {
        verify_login(&c, clear, &more).await?;
    }
    let password = app.cipher().encrypt(clear);
    let more: Vec<String> = more.iter().map(|p| app.cipher().encrypt(p)).collect();
    let params = c.params(app.cipher(), &Params::default())?;
    let mut tx = app.store().begin().await?;
    store_new(&mut tx, id, &c, &password, &more, &params).await?;
    tx.commit().await?;
    tracing::info!(group = %c.name, kind = c.kind.as_str(), "server group created");
    get(app, c.name.as_str()).await
}

/// Store a checked group under `id` with its already encrypted password (or [`NO_PASSWORD`]);
/// the KUBAM import's insert (its groups have one login each). A taken name is
/// `409 duplicate_name`.
pub(crate) async fn insert(
    conn: &mut Conn,
    id: Uuid,
    c: &Checked,
    password_enc: &str,
) -> Result<()> {
    store_new(conn, id, c, password_enc, &[], &Params::default()).await
}

/// Store a checked group under `id` with its encrypted passwords (the first login's, and each
/// further BMC's in order) and its parameters as they are kept.
async fn store_new(
    conn: &mut Conn,
    id: Uuid,
    c: &Checked,
    password_enc: &str,
    more: &[String],
    params: &Params,
) -> Result<()> {
    let outcome = store::insert(&mut *conn, &row(id, c, password_enc, more, params)).await?;
    records::written(&KIND, outcome, c.name.as_str(), id)?;
    write_pool(
        conn,
        id,
        c.pool.as_ref().unwrap_or(&ServerSelector::default()),
    )
    .await
}

/// The columns of a checked group stored under `id` with the password `password_enc` (and
/// its further BMCs' encrypted passwords, in order) and `params`.
fn row(id: Uuid, c: &Checked, password_enc: &str, more: &[String], params: &Params) -> GroupRow {
    let bmcs: Vec<StoredBmc> = c
        .more
        .iter()
        .zip(more)
        .map(|(b, p)| StoredBmc {
            ip: b.ip.to_string(),
            user: b.user.clone(),
            password: p.clone(),
            insecure: b.insecure,
            fingerprint: b.fingerprint.clone(),
        })
        .collect();
    GroupRow {
        id: id.to_string(),
        name: c.name.to_string(),
        kind: c.kind.as_str().to_owned(),
        address: c.ip.to_string(),
        username: c.user.clone(),
        password_enc: password_enc.to_owned(),
        vlan: c.vlan.as_ref().map(ToString::to_string),
        insecure: c.insecure,
        fingerprint: c.fingerprint.clone(),
        description: c.description.clone(),
        org: c.org.as_ref().map(ToString::to_string),
        bmcs: (c.kind == GroupKind::Redfish && !bmcs.is_empty())
            .then(|| serde_json::to_string(&bmcs).expect("plain strings serialize")),
        install_disk: records::install_disk::to_stored(c.install_disk.as_ref()),
        params: params.to_stored(),
    }
}

/// Update a group found by `id`; a password sent back encrypted, or left out, keeps the stored one.
pub async fn update(app: &App, input: ServerGroupInput) -> Result<ServerGroup> {
    let id = require_id(input.id.as_deref().or(input.uid.as_deref()))?;
    let c = check(&input, false)?;
    // Read before the login check: the check talks to the network and must not hold the write transaction.
    let stored = Named::ServerGroups
        .password_enc(app.store().reader(), &id.to_string())
        .await?
        .ok_or_else(|| records::not_found(&KIND, Lookup::Id(id)))?;
    // A Redfish group's BMC keeps the stored password of the BMC at the same address (they
    // may come in another order); a further BMC the group did not have needs its own.
    let (known, params_before) = list(app)
        .await?
        .into_iter()
        .find(|g| g.id == id)
        .map(|g| (g.bmcs, g.params))
        .unwrap_or_default();
    let params = c.params(app.cipher(), &params_before)?;
    let stored = known
        .iter()
        .find(|k| k.ip == c.ip.as_str())
        .map_or(stored, |k| k.password.clone());
    let password = records::password_to_store(app.cipher(), c.password.as_ref(), stored);
    let mut more = Vec::new();
    for (i, b) in c.more.iter().enumerate() {
        let stored = known
            .iter()
            .find(|k| k.ip == b.ip.as_str())
            .map(|k| k.password.clone())
            .unwrap_or_default();
        let p = records::password_to_store(app.cipher(), b.password.as_ref(), stored);
        if p == NO_PASSWORD {
            return Err(Error::invalid_field(
                ErrorCode::InvalidServerGroup,
                &records::invalid_what("server group", &input.name),
                format!("bmcs[{}].password", i + 1),
                "is required for a BMC the group did not have",
            ));
        }
        more.push(p);
    }
    if c.check_login {
        let clear = more
            .iter()
            .map(|p| app.cipher().decrypt(p))
            .collect::<Result<Vec<_>>>()?;
        verify_login(
            &c,
            &stored_password(app, c.name.as_str(), &password)?,
            &clear,
        )
        .await?;
    }
    let mut tx = app.store().begin().await?;
    let outcome = store::update(&mut *tx, &row(id, &c, &password, &more, &params)).await?;
    records::written(&KIND, outcome, c.name.as_str(), id)?;
    if let Some(pool) = &c.pool {
        write_pool(&mut tx, id, pool).await?;
    }
    tx.commit().await?;
    tracing::info!(group = %c.name, "server group updated");
    get(app, c.name.as_str()).await
}

/// Delete a group by name (or id); refused while hosts use it.
pub async fn delete(app: &App, input: ServerGroupRef) -> Result<ServerGroup> {
    let id = input.id.as_deref().filter(|s| !s.is_empty());
    let uid = input.uid.as_deref().filter(|s| !s.is_empty());
    // Both spellings sent: the second is checked too, as the first is by `which`.
    if let (Some(_), Some(uid)) = (id, uid) {
        require_id(Some(uid))?;
    }
    let lookup = records::which(&KIND, id.or(uid), input.name.as_deref())?;
    let group = records::resolve(&KIND, list(app).await?, lookup)?;
    records::delete_unless_used(
        app.store(),
        &KIND,
        Named::ServerGroups,
        ErrorCode::ServerGroupInUse,
        &group,
    )
    .await?;
    app.managers().forget(group.id);
    tracing::info!(group = %group.name, "server group deleted");
    Ok(group)
}

/// Store `pool` as the selection of the group with `id`.
pub(crate) async fn write_pool(conn: &mut Conn, id: Uuid, pool: &ServerSelector) -> Result<()> {
    let servers: Vec<(&str, String)> = pool
        .blades
        .iter()
        .map(|b| ("blade", b.to_string()))
        .chain(pool.rack_servers.iter().map(|r| ("rack", r.to_string())))
        .collect();
    Ok(store::server_groups::select(conn, &id.to_string(), &servers).await?)
}
