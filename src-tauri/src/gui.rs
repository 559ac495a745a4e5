//! The desktop window. The same process runs the REST listener in the background.

use crate::cli::Listen;
use crate::commands::{self, GuiState};

/// Open the core, start the listener, show the window until it closes.
pub fn run(config: bootsmith_core::Config, listen: Listen) -> anyhow::Result<()> {
    let (app, state, listener) = tauri::async_runtime::block_on(async {
        let app = bootsmith_core::startup::open(config).await?;
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
        .invoke_handler(commands::handlers())
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
