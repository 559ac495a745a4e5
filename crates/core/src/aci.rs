//! ACI instances (APIC fabric controllers) kept for network integration.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::app::App;
use crate::error::{Error, Problem, Result};
use crate::secrets::SecretString;
use crate::server_groups::{
    require_id, unique_name, CredentialsInput, StoredCredentials, NO_PASSWORD,
};
use crate::types::{ManagerAddress, Name};
use crate::validate::{self, Check};

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
    #[schema(schema_with = crate::schema::name, required = true)]
    pub name: Option<String>,
    /// APIC login data.
    #[serde(default, deserialize_with = "crate::error::object")]
    #[schema(required = true, nullable = false)]
    pub credentials: Option<CredentialsInput>,
    /// Tenant.
    #[schema(schema_with = crate::schema::apic_name, required = true)]
    pub tenant_name: Option<String>,
    /// VRF.
    #[schema(schema_with = crate::schema::apic_name, required = true)]
    pub vrf_name: Option<String>,
    /// Bridge domain.
    #[schema(schema_with = crate::schema::apic_name, required = true)]
    pub bridge_domain: Option<String>,
}

/// Body of `DELETE /api/v2/aci`: `id` or `name`.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct AciRef {
    /// Instance id.
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
    let (ip, user, password) = match &input.credentials {
        None => {
            c.fail("credentials", "is required ({ip, user, password})");
            (None, None, None)
        }
        Some(cr) => {
            let ip = c.required("credentials.ip", &cr.ip, ManagerAddress::parse);
            let user = c.required("credentials.user", &cr.user, validate::text(128));
            let password = cr.password.clone().filter(|p| !p.expose().is_empty());
            if password.is_none() && password_required {
                c.fail("credentials.password", "is required");
            }
            (ip, user, password)
        }
    };
    c.finish("invalid_aci", "The ACI instance is invalid")?;
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

type Row = (
    String,
    String,
    String,
    String,
    String,
    String,
    String,
    String,
);

/// Every ACI instance, ordered by name.
pub async fn list(app: &App) -> Result<Vec<AciInstance>> {
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT id, name, address, username, password_enc, tenant_name, vrf_name, bridge_domain FROM aci_instances ORDER BY name",
    )
    .fetch_all(app.store().reader())
    .await?;
    rows.into_iter()
        .map(
            |(id, name, ip, user, password, tenant_name, vrf_name, bridge_domain)| {
                Ok(AciInstance {
                    id: Uuid::parse_str(&id)
                        .map_err(|_| Error::Corrupt(format!("ACI instance {name}: id")))?,
                    password_missing: password == NO_PASSWORD,
                    name: Name::from_stored(name),
                    credentials: StoredCredentials { ip, user, password },
                    tenant_name,
                    vrf_name,
                    bridge_domain,
                })
            },
        )
        .collect()
}

async fn by_id(app: &App, id: Uuid) -> Result<AciInstance> {
    list(app)
        .await?
        .into_iter()
        .find(|a| a.id == id)
        .ok_or_else(|| {
            Error::not_found(
                "aci_not_found",
                format!("There is no ACI instance with id {id}"),
            )
        })
}

/// Create an ACI instance.
pub async fn create(app: &App, input: AciInput) -> Result<AciInstance> {
    let c = check(&input, true)?;
    let id = Uuid::new_v4();
    let password = app
        .cipher()
        .encrypt(c.password.as_ref().expect("required on create"));
    insert(
        &mut *app.store().writer().acquire().await?,
        id,
        &c,
        &password,
    )
    .await?;
    by_id(app, id).await
}

/// Store a checked instance under `id` with its encrypted password (or [`NO_PASSWORD`]): the
/// one insert of create and the KUBAM import.
pub(crate) async fn insert(
    conn: &mut sqlx::SqliteConnection,
    id: Uuid,
    c: &Checked,
    password_enc: &str,
) -> Result<()> {
    let res = sqlx::query(
        "INSERT INTO aci_instances (id, name, address, username, password_enc, tenant_name, vrf_name, bridge_domain) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(id.to_string())
    .bind(c.name.as_str())
    .bind(c.ip.as_str())
    .bind(&c.user)
    .bind(password_enc)
    .bind(&c.tenant)
    .bind(&c.vrf)
    .bind(&c.bd)
    .execute(conn)
    .await;
    unique_name(res, &c.name)
}

/// Update the instance with `id`; a password sent back encrypted, or left out, keeps the stored one.
pub async fn update(app: &App, input: AciInput) -> Result<AciInstance> {
    let id = require_id(input.id.as_deref())?;
    let c = check(&input, false)?;
    let mut tx = app.store().writer().begin().await?;
    let stored: Option<String> =
        sqlx::query_scalar("SELECT password_enc FROM aci_instances WHERE id = ?")
            .bind(id.to_string())
            .fetch_optional(&mut *tx)
            .await?;
    let Some(stored) = stored else {
        return Err(Error::not_found(
            "aci_not_found",
            format!("There is no ACI instance with id {id}"),
        ));
    };
    let password = match &c.password {
        None => stored,
        Some(p) if app.cipher().is_ours(p.expose()) => p.expose().to_owned(),
        Some(p) => app.cipher().encrypt(p),
    };
    let res = sqlx::query(
        "UPDATE aci_instances SET name = ?, address = ?, username = ?, password_enc = ?, tenant_name = ?, vrf_name = ?, bridge_domain = ? WHERE id = ?",
    )
    .bind(c.name.as_str())
    .bind(c.ip.as_str())
    .bind(&c.user)
    .bind(&password)
    .bind(&c.tenant)
    .bind(&c.vrf)
    .bind(&c.bd)
    .bind(id.to_string())
    .execute(&mut *tx)
    .await;
    unique_name(res, &c.name)?;
    tx.commit().await?;
    by_id(app, id).await
}

/// Delete an instance by `id` or `name`.
pub async fn delete(app: &App, input: AciRef) -> Result<AciInstance> {
    let all = list(app).await?;
    let found = match (
        input.id.as_deref().filter(|s| !s.is_empty()),
        input.name.as_deref().filter(|s| !s.is_empty()),
    ) {
        (Some(id), _) => {
            let id = require_id(Some(id))?;
            all.into_iter().find(|a| a.id == id)
        }
        (None, Some(name)) => all.into_iter().find(|a| a.name.as_str() == name),
        (None, None) => {
            return Err(Error::invalid(
                "invalid_aci",
                "Say which ACI instance to delete",
                vec![Problem::field("id", "give the id or the name")],
            ))
        }
    };
    let aci =
        found.ok_or_else(|| Error::not_found("aci_not_found", "There is no such ACI instance"))?;
    sqlx::query("DELETE FROM aci_instances WHERE id = ?")
        .bind(aci.id.to_string())
        .execute(app.store().writer())
        .await?;
    Ok(aci)
}
