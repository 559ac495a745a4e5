//! The desktop window. The same process runs the REST listener in the background.

use bootsmith_core::App;

use crate::cli::Listen;
use crate::commands::{self, GuiState};

/// WebKit's settings for this window, put in the environment before GTK starts: WebKit reads
/// them once, and its web and network processes inherit them. A value the user set wins.
///
/// `WEBKIT_DISABLE_COMPOSITING_MODE=1` paints the page on the CPU rather than through OpenGL
/// layers: the web process then starts no GL driver and keeps no layer tiles. After walking
/// every screen it held about 150 MiB less (RSS of WebKitWebProcess 345 → 196 MiB on a virtual
/// display with Mesa's software GL; `benches/footprint.rs`), and the window, forms and tables
/// with no animation or WebGL, paints as fast. `WEBKIT_DISABLE_COMPOSITING_MODE=0` brings
/// WebKit's own default back.
pub fn set_webkit_defaults() {
    const DEFAULTS: &[(&str, &str)] = &[("WEBKIT_DISABLE_COMPOSITING_MODE", "1")];
    for (key, value) in DEFAULTS {
        if std::env::var_os(key).is_none() {
            // Sound only while this is the only thread: run_gui calls it before GTK and tokio start.
            std::env::set_var(key, value);
        }
    }
}

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
        // The ISOs screen's file chooser; the page only opens it (see capabilities/default.json).
        .plugin(tauri_plugin_dialog::init())
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
