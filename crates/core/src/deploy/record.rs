//! What deploys created on each group's manager, so a later deploy removes what it no longer
//! wants and undeploy removes exactly that, never an object Bootsmith did not make.

use crate::app::App;
use crate::error::Result;
use crate::managers::{ObjectAction, PlannedObject, Recorded};
use crate::server_groups::ServerGroup;

/// The objects earlier deploys of the group created.
pub(super) async fn recorded(app: &App, group: &ServerGroup) -> Result<Vec<Recorded>> {
    let rows = sqlx::query_as::<_, (String, String)>(
        "SELECT dn, class FROM deployed_objects WHERE server_group = ? ORDER BY dn",
    )
    .bind(group.id.to_string())
    .fetch_all(app.store().reader())
    .await?;
    Ok(rows
        .into_iter()
        .map(|(dn, class)| Recorded { dn, class })
        .collect())
}

/// Remember what this run created and forget what it removed, in one transaction.
pub(super) async fn record(
    app: &App,
    group: &ServerGroup,
    objects: &[PlannedObject],
) -> Result<()> {
    let mut tx = app.store().writer().begin().await?;
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    for o in objects {
        match o.action {
            ObjectAction::Create => {
                sqlx::query(
                    "INSERT OR IGNORE INTO deployed_objects (server_group, dn, class, created_at) VALUES (?, ?, ?, ?)",
                )
                .bind(group.id.to_string())
                .bind(&o.dn)
                .bind(&o.class)
                .bind(&now)
                .execute(&mut *tx)
                .await?;
            }
            ObjectAction::Delete => {
                // Removing an object removes its subtree on the manager.
                sqlx::query(
                    "DELETE FROM deployed_objects WHERE server_group = ? AND (dn = ? OR dn LIKE ? ESCAPE '\\')",
                )
                .bind(group.id.to_string())
                .bind(&o.dn)
                .bind(format!("{}/%", o.dn.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")))
                .execute(&mut *tx)
                .await?;
            }
            ObjectAction::Modify | ObjectAction::Unchanged => {}
        }
    }
    tx.commit().await?;
    Ok(())
}

/// Forget everything recorded for the group (after an undeploy: objects already gone from
/// the manager are forgotten too).
pub(super) async fn forget_all(app: &App, group: &ServerGroup) -> Result<()> {
    sqlx::query("DELETE FROM deployed_objects WHERE server_group = ?")
        .bind(group.id.to_string())
        .execute(app.store().writer())
        .await?;
    Ok(())
}
