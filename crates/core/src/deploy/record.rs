//! What deploys created on each group's manager, so a later deploy removes what it no longer
//! wants and undeploy removes exactly that, never an object Bootsmith did not make. The SQL
//! is the store's (`store::deployed_objects`).

use crate::app::App;
use crate::error::Result;
use crate::managers::ManagedGroup;
use crate::managers::{ObjectAction, PlannedObject, Recorded};
use bootsmith_model::time::Time;
use bootsmith_store::deployed_objects;

/// The objects earlier deploys of the group created.
pub(super) async fn recorded(app: &App, group: &ManagedGroup) -> Result<Vec<Recorded>> {
    let rows = deployed_objects::recorded(app.store().reader(), &group.id.to_string()).await?;
    Ok(rows
        .into_iter()
        .map(|(dn, class)| Recorded { dn, class })
        .collect())
}

/// Remember what this run created and forget what it removed, in one transaction.
pub(super) async fn record(
    app: &App,
    group: &ManagedGroup,
    objects: &[PlannedObject],
) -> Result<()> {
    let of = |action: ObjectAction| objects.iter().filter(move |o| o.action == action);
    let created: Vec<(&str, &str)> = of(ObjectAction::Create)
        .map(|o| (o.dn.as_str(), o.class.as_str()))
        .collect();
    let removed: Vec<&str> = of(ObjectAction::Delete).map(|o| o.dn.as_str()).collect();
    Ok(deployed_objects::record_changes(
        app.store(),
        &group.id.to_string(),
        &created,
        &removed,
        Time::now(),
    )
    .await?)
}

/// Forget everything recorded for the group (after an undeploy: objects already gone from
/// the manager are forgotten too).
pub(super) async fn forget_all(app: &App, group: &ManagedGroup) -> Result<()> {
    Ok(deployed_objects::forget_all(app.store().writer(), &group.id.to_string()).await?)
}
