//! The desktop window. The same process runs the REST listener in the background.

use bootsmith_core::App;

use crate::cli::Listen;
use crate::commands::{self, GuiState};

/// Open the core, start the listener, show the window until it closes.
pub fn run(config: bootsmith_core::Config, listen: Listen) -> anyhow::Result<()> {
    let (app, state, listener) = tauri::async_runtime::block_on(async {
        let app = App::open(config).await?;
        let state = crate::api_state(&app, &listen).await?;
        let listener = tokio::net::TcpListener::bind(listen.listen).await;
        anyhow::Ok((app, state, listener))
    })?;
    let listener_status = match &listener {
        Ok(l) => Ok(format!("http://{}/", l.local_addr()?)),
        Err(e) => {
            tracing::error!(listen = %listen.listen, error = %e, "the REST listener could not start; the window works without it");
            Err(format!("cannot listen on {}: {e}", listen.listen))
        }
    };
    if let Ok(listener) = listener {
        tauri::async_runtime::spawn(async move {
            if let Err(e) = bootsmith_api::serve(listener, state, std::future::pending()).await {
                tracing::error!(error = %e, "the REST listener stopped");
            }
        });
    }
    tauri::Builder::default()
        .manage(GuiState {
            app: app.clone(),
            listener: listener_status,
        })
        .invoke_handler(tauri::generate_handler![
            commands::overview,
            commands::catalog,
            commands::list_isos,
            commands::iso_map,
            commands::list_server_groups,
            commands::list_networks,
            commands::list_hosts,
            commands::list_keys,
            commands::list_aci,
            commands::create_aci,
            commands::update_aci,
            commands::delete_aci,
            commands::api_token,
            commands::server_inventory,
            commands::server_templates,
            commands::power,
            commands::power_status,
            commands::disks,
            commands::reset_disks,
            commands::fsm,
            commands::iso_details,
            commands::import_iso,
            commands::make_images,
            commands::deploy,
            commands::vmedia,
            commands::jobs_list,
            commands::job_get,
            commands::job_watch,
            commands::svc_ip,
            commands::set_svc_ip,
            commands::proxy,
            commands::set_proxy,
            commands::org,
            commands::set_org,
            commands::set_keys,
            commands::create_network,
            commands::update_network,
            commands::delete_network,
            commands::create_server_group,
            commands::update_server_group,
            commands::delete_server_group,
            commands::select_servers,
            commands::replace_hosts,
            commands::delete_host,
            commands::set_iso_map,
            commands::regenerate_token,
            commands::undeploy,
            commands::read_logs,
            commands::import_kubam,
        ])
        .build(tauri::generate_context!())
        .map_err(|e| anyhow::anyhow!("the window failed: {e}"))?
        .run(move |_, event| {
            // Tauri may end the process right after this event: log out of the managers and close the store now.
            if let tauri::RunEvent::Exit = event {
                tauri::async_runtime::block_on(app.close());
            }
        });
    Ok(())
}
