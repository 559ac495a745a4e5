//! What the app keeps of the catalog packs between changes: each pack file as last read
//! (applied, or refused with why), behind the lock every change takes. Apart from the
//! packs' logic so the app can hold it without reaching up to the services.

use serde::Serialize;
use utoipa::ToSchema;

use bootsmith_model::catalog::Pack;

/// The packs as last read, applied or refused, and the lock every change of them takes.
#[derive(Debug, Default)]
pub struct Packs {
    pub(super) state: tokio::sync::Mutex<Vec<Loaded>>,
}

/// A pack file as last read, applied or refused.
#[derive(Debug, Clone)]
pub(super) struct Loaded {
    /// The pack as read; none when its file is not a pack at all.
    pub(super) pack: Option<Pack>,
    pub(super) info: PackInfo,
    /// The OS ids whose kickstart templates were rendered when it was applied.
    pub(super) kickstarts: Vec<String>,
}

/// One pack as `GET /api/v2/catalog/packs` lists it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PackInfo {
    /// The pack's name (its file is `svc/catalog.d/<name>.json`).
    pub name: String,
    /// Its version, when the file could be read.
    pub version: Option<String>,
    /// Its file, relative to svc.
    pub file: String,
    /// Whether its entries are in the catalog now.
    pub applied: bool,
    /// The OS ids it adds or replaces.
    pub entries: Vec<String>,
    /// The OS ids it brings a template for.
    pub templates: Vec<String>,
    /// Why it was refused (a file read at start or on reload), when it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}
