//! ACI instances (APIC fabric controllers) kept for network integration.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::app::App;
use crate::error::{Error, ErrorCode, Result};
use crate::records::server_groups::check_credentials;
use crate::records::server_groups::{CredentialsInput, StoredCredentials, NO_PASSWORD};
use crate::records::{self, require_id, Kind, Lookup, Prefer};
use crate::secrets::SecretString;
use bootsmith_model::types::{ManagerAddress, Name};
use bootsmith_model::validate::Check;
use bootsmith_store::{self as store, aci::AciRow, Conn, Named};

/// An ACI instance as stored and returned; the password is encrypted.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AciInstance {
    /// Id assigned by the service.
    pub id: Uuid,
    /// Unique name.
    #[schema(value_type = String)]
    pub name: Name,
    /// APIC login data.
    pub credentials: StoredCredentials,
    /// Tenant.
    pub tenant_name: String,
    /// VRF.
    pub vrf_name: String,
    /// Bridge domain.
    pub bridge_domain: String,
    /// True when the password is not known yet (imported from KUBAM without its key file).
    pub password_missing: bool,
}

/// Body of `POST`/`PUT /api/v2/aci`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct AciInput {
    /// Required for PUT.
    pub id: Option<String>,
    /// Name.
    #[schema(schema_with = bootsmith_model::schema::name, required = true)]
    pub name: Option<String>,
    /// APIC login data.
    #[serde(default, deserialize_with = "bootsmith_model::bodies::object")]
    #[schema(required = true, nullable = false)]
    pub credentials: Option<CredentialsInput>,
    /// Tenant.
    #[schema(schema_with = bootsmith_model::schema::apic_name, required = true)]
    pub tenant_name: Option<String>,
    /// VRF.
    #[schema(schema_with = bootsmith_model::schema::apic_name, required = true)]
    pub vrf_name: Option<String>,
    /// Bridge domain.
    #[schema(schema_with = bootsmith_model::schema::apic_name, required = true)]
    pub bridge_domain: Option<String>,
}

/// Body of `DELETE /api/v2/aci`: the instance's `id` or its `name`, at least one (an empty one
/// counts as left out); when both are sent, the id decides.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct AciRef {
    /// Instance id.
    #[schema(format = Uuid)]
    pub id: Option<String>,
    /// Instance name.
    pub name: Option<String>,
}

/// APIC object names: 1–64 of letters, digits, `_.:-`.
fn apic_name(s: &str) -> Result<String, String> {
    if (1..=64).contains(&s.len())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.:-".contains(c))
    {
        Ok(s.to_owned())
    } else {
        Err(format!(
            "'{s}' is not a valid APIC name: use 1 to 64 letters, digits, '_', '.', ':' or '-'"
        ))
    }
}

/// An instance as submitted, every field checked.
pub(crate) struct Checked {
    pub name: Name,
    ip: ManagerAddress,
    user: String,
    pub password: Option<SecretString>,
    tenant: String,
    vrf: String,
    bd: String,
}

/// Check a submitted instance; `password_required` on create (the KUBAM import stores
/// instances whose password is not known yet).
pub(crate) fn check(input: &AciInput, password_required: bool) -> Result<Checked> {
    let mut c = Check::default();
    let name = c.required("name", &input.name, Name::parse);
    let tenant = c.required("tenant_name", &input.tenant_name, apic_name);
    let vrf = c.required("vrf_name", &input.vrf_name, apic_name);
    let bd = c.required("bridge_domain", &input.bridge_domain, apic_name);
    let (ip, user, password) = check_credentials(&mut c, &input.credentials, password_required);
    c.finish(
        ErrorCode::InvalidAci,
        &records::invalid_what("ACI instance", &input.name),
    )?;
    Ok(Checked {
        name: name.expect("checked"),
        ip: ip.expect("checked"),
        user: user.expect("checked"),
        password,
        tenant: tenant.expect("checked"),
        vrf: vrf.expect("checked"),
        bd: bd.expect("checked"),
    })
}

/// How ACI instances are named in messages and codes.
pub(crate) const KIND: Kind = Kind {
    what: "ACI instance",
    not_found: ErrorCode::AciNotFound,
    invalid: ErrorCode::InvalidAci,
    prefer: Prefer::Id,
    names_ignore_case: false,
};

records::with_id!(AciInstance);

/// Every ACI instance, ordered by name.
pub async fn list(app: &App) -> Result<Vec<AciInstance>> {
    store::list::<AciRow>(app.store().reader())
        .await?
        .into_iter()
        .map(|r| {
            Ok(AciInstance {
                id: Uuid::parse_str(&r.id)
                    .map_err(|_| Error::Corrupt(format!("ACI instance {}: id", r.name)))?,
                password_missing: r.password_enc == NO_PASSWORD,
                name: Name::from_stored(r.name),
                credentials: StoredCredentials {
                    ip: r.address,
                    user: r.username,
                    password: r.password_enc,
                },
                tenant_name: r.tenant_name,
                vrf_name: r.vrf_name,
                bridge_domain: r.bridge_domain,
            })
        })
        .collect()
}

async fn by_id(app: &App, id: Uuid) -> Result<AciInstance> {
    records::resolve(&KIND, list(app).await?, Lookup::Id(id))
}

/// Create an ACI instance.
pub async fn create(app: &App, input: AciInput) -> Result<AciInstance> {
    records::no_id_on_create(&KIND, input.id.as_deref())?;
    let c = check(&input, true)?;
    let id = Uuid::new_v4();
    let password = app
        .cipher()
        .encrypt(c.password.as_ref().expect("required on create"));
    insert(&mut *app.store().writing().await?, id, &c, &password).await?;
    by_id(app, id).await
}

/// Store a checked instance under `id` with its encrypted password (or [`NO_PASSWORD`]): the
/// one insert of create and the KUBAM import.
pub(crate) async fn insert(
    conn: &mut Conn,
    id: Uuid,
    c: &Checked,
    password_enc: &str,
) -> Result<()> {
    let outcome = store::insert(conn, &row(id, c, password_enc)).await?;
    records::written(&KIND, outcome, c.name.as_str(), id)
}

/// The columns of a checked instance stored under `id` with the password `password_enc`.
fn row(id: Uuid, c: &Checked, password_enc: &str) -> AciRow {
    AciRow {
        id: id.to_string(),
        name: c.name.to_string(),
        address: c.ip.to_string(),
        username: c.user.clone(),
        password_enc: password_enc.to_owned(),
        tenant_name: c.tenant.clone(),
        vrf_name: c.vrf.clone(),
        bridge_domain: c.bd.clone(),
    }
}

/// Update the instance with `id`; a password sent back encrypted, or left out, keeps the stored one.
pub async fn update(app: &App, input: AciInput) -> Result<AciInstance> {
    let id = require_id(input.id.as_deref())?;
    let c = check(&input, false)?;
    let mut tx = app.store().begin().await?;
    let stored = Named::AciInstances
        .password_enc(&mut *tx, &id.to_string())
        .await?
        .ok_or_else(|| records::not_found(&KIND, Lookup::Id(id)))?;
    let password = records::password_to_store(app.cipher(), c.password.as_ref(), stored);
    let outcome = store::update(&mut *tx, &row(id, &c, &password)).await?;
    records::written(&KIND, outcome, c.name.as_str(), id)?;
    tx.commit().await?;
    by_id(app, id).await
}

/// Delete an instance by `id` or `name`.
pub async fn delete(app: &App, input: AciRef) -> Result<AciInstance> {
    let lookup = records::which(
        &KIND,
        input.id.as_deref().filter(|s| !s.is_empty()),
        input.name.as_deref(),
    )?;
    let aci = records::find(&KIND, list(app).await?, lookup)
        .ok_or_else(|| Error::not_found(ErrorCode::AciNotFound, "There is no such ACI instance"))?;
    Named::AciInstances
        .delete(app.store().writer(), &aci.id.to_string())
        .await?;
    Ok(aci)
}
