//! The `hosts` table: what to install where, in the order the list was submitted.
//!
//! The list is read as ONE row: the database folds the rows into a JSON array, which is
//! decoded here. SQLite's driver hands every result row from its worker thread to the async
//! side one by one (a copy of each value, a channel send, often a thread wake-up); for a
//! thousand hosts that hand-over, not SQLite, was most of the time of `GET /api/v2/hosts`.
//! (PostgreSQL's form of the same query is `json_agg(json_build_array(…) ORDER BY position)`.)

use serde::Deserialize;
use sqlx::Executor;

use super::{Conn, Db, Named};
use crate::error::{Error, Result};

/// A host's columns, as stored (values checked by the core's `hosts` before writing).
#[derive(Debug, Clone, Deserialize)]
pub struct HostRow {
    /// Host name = service-profile name (unique, case-insensitive).
    pub name: String,
    /// Address.
    pub ip: String,
    /// OS id.
    pub os: String,
    /// Role.
    pub role: String,
    /// Name of its network group.
    pub network_group: String,
    /// Name of its server group.
    pub server_group: Option<String>,
    /// Service-profile template DN.
    pub service_profile_template: Option<String>,
    /// Node it is bound to.
    pub server: Option<String>,
    /// The install disk's hint, as JSON.
    pub install_disk: Option<String>,
    /// The MACs of its NICs, as a JSON list (NULL for none).
    pub macs: Option<String>,
    /// Static IPv6 address with its prefix.
    pub ipv6: Option<String>,
    /// Its template parameters, as JSON (secrets encrypted).
    pub params: Option<String>,
}

/// Every host, in submitted order.
pub async fn list<'c>(db: impl Executor<'c, Database = Db>) -> Result<Vec<HostRow>> {
    // Aggregates over no rows still answer one row (`[]` here, NULL in PostgreSQL).
    let json: Option<String> = sqlx::query_scalar(
        "SELECT json_group_array(json_array(name, ip, os, role, network_group, server_group, service_profile_template, server, install_disk, macs, ipv6, params) ORDER BY position) FROM hosts",
    )
    .fetch_one(db)
    .await?;
    match json {
        None => Ok(Vec::new()),
        Some(text) => serde_json::from_str(&text)
            .map_err(|e| Error::Corrupt(format!("the host list as stored: {e}"))),
    }
}

/// `(name, os)` of every host.
pub async fn names_and_os<'c>(
    db: impl Executor<'c, Database = Db>,
) -> Result<Vec<(String, String)>> {
    Ok(sqlx::query_as("SELECT name, os FROM hosts")
        .fetch_all(db)
        .await?)
}

/// Names of the hosts that use the group `name` of `table`, in list order (hosts refer to
/// network and server groups by name; nothing refers to an ACI instance).
pub async fn using<'c>(
    db: impl Executor<'c, Database = Db>,
    table: Named,
    name: &str,
) -> Result<Vec<String>> {
    let sql = match table {
        Named::NetworkGroups => "SELECT name FROM hosts WHERE network_group = $1 ORDER BY position",
        Named::ServerGroups => "SELECT name FROM hosts WHERE server_group = $1 ORDER BY position",
        Named::AciInstances => return Ok(Vec::new()),
    };
    Ok(sqlx::query_scalar(sql).bind(name).fetch_all(db).await?)
}

/// Replace the whole list with `rows`.
pub async fn replace(conn: &mut Conn, rows: &[HostRow]) -> Result<()> {
    sqlx::query("DELETE FROM hosts").execute(&mut *conn).await?;
    append(conn, rows).await
}

/// Add `rows` after the stored hosts.
pub async fn append(conn: &mut Conn, rows: &[HostRow]) -> Result<()> {
    let first: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(position), -1) + 1 FROM hosts")
        .fetch_one(&mut *conn)
        .await?;
    for (i, h) in rows.iter().enumerate() {
        sqlx::query(
            "INSERT INTO hosts (name, position, ip, os, role, network_group, server_group, service_profile_template, server, install_disk, macs, ipv6, params)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        )
        .bind(&h.name)
        .bind(first + i as i64)
        .bind(&h.ip)
        .bind(&h.os)
        .bind(&h.role)
        .bind(&h.network_group)
        .bind(&h.server_group)
        .bind(&h.service_profile_template)
        .bind(&h.server)
        .bind(&h.install_disk)
        .bind(&h.macs)
        .bind(&h.ipv6)
        .bind(&h.params)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Remove the host named `name` (compared without case, as the column is declared).
pub async fn delete<'c>(db: impl Executor<'c, Database = Db>, name: &str) -> Result<()> {
    sqlx::query("DELETE FROM hosts WHERE name = $1")
        .bind(name)
        .execute(db)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, ip: &str) -> HostRow {
        HostRow {
            name: name.into(),
            ip: ip.into(),
            os: "centos7.4".into(),
            role: "generic".into(),
            network_group: "net".into(),
            server_group: None,
            service_profile_template: Some("org-root/ls-\"quoted\"".into()),
            server: None,
            install_disk: None,
            macs: None,
            ipv6: None,
            params: None,
        }
    }

    /// The one-row JSON read gives back every value as written, in list order, and an
    /// empty table as an empty list.
    #[tokio::test]
    async fn the_list_reads_back_in_order_through_one_json_row() {
        let dir = tempfile::tempdir().unwrap();
        let store = super::super::Store::open(dir.path()).await.unwrap();
        assert!(list(store.reader()).await.unwrap().is_empty());
        sqlx::query("INSERT INTO network_groups (id, name, netmask, gateway, nameserver, ntpserver) VALUES ('n1', 'net', '24', '10.0.0.1', '10.0.0.2', 'ntp')")
            .execute(store.writer())
            .await
            .unwrap();
        let mut tx = store.begin().await.unwrap();
        let hinted = HostRow {
            install_disk: Some(r#"{"serial":"S/N \"1\"","size_gb":{"min":400}}"#.into()),
            macs: Some(r#"["aa:bb:cc:dd:ee:01","aa:bb:cc:dd:ee:02"]"#.into()),
            ipv6: Some("2001:db8::10/64".into()),
            params: Some(r#"{"tz":"UTC"}"#.into()),
            ..row("alpha", "10.0.0.4")
        };
        replace(&mut tx, &[row("zeta", "10.0.0.3"), hinted])
            .await
            .unwrap();
        append(&mut tx, &[row("mid", "2001:db8::1")]).await.unwrap();
        tx.commit().await.unwrap();
        let got = list(store.reader()).await.unwrap();
        let names: Vec<&str> = got.iter().map(|h| h.name.as_str()).collect();
        assert_eq!(names, ["zeta", "alpha", "mid"]);
        assert_eq!(got[2].ip, "2001:db8::1");
        assert_eq!(got[0].server_group, None);
        assert_eq!(got[0].install_disk, None);
        assert_eq!(
            got[1].install_disk.as_deref(),
            Some(r#"{"serial":"S/N \"1\"","size_gb":{"min":400}}"#),
            "a hint comes back as the text written, not as nested JSON"
        );
        assert_eq!(
            got[1].macs.as_deref(),
            Some(r#"["aa:bb:cc:dd:ee:01","aa:bb:cc:dd:ee:02"]"#)
        );
        assert_eq!(got[1].ipv6.as_deref(), Some("2001:db8::10/64"));
        assert_eq!(
            (got[0].macs.as_deref(), got[0].ipv6.as_deref()),
            (None, None)
        );
        assert_eq!(
            got[0].service_profile_template.as_deref(),
            Some("org-root/ls-\"quoted\"")
        );
        assert_eq!(
            using(store.reader(), Named::NetworkGroups, "net")
                .await
                .unwrap(),
            ["zeta", "alpha", "mid"]
        );
        delete(store.writer(), "ZETA").await.unwrap();
        assert_eq!(list(store.reader()).await.unwrap().len(), 2);
    }
}
