//! `bootsmith serve`: the REST listener with no window.

use bootsmith_api::ApiState;
use bootsmith_core::App;

use crate::cli::Listen;

/// Open the core and serve until Ctrl-C or SIGTERM.
pub async fn run(config: bootsmith_core::Config, listen: Listen) -> anyhow::Result<()> {
    let app = App::open(config).await?;
    let state = ApiState::new(app.clone(), !listen.no_auth).await?;
    let listener = tokio::net::TcpListener::bind(listen.listen)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", listen.listen))?;
    let addr = listener.local_addr()?;
    tracing::info!(url = %format!("http://{addr}/"), "Bootsmith is serving the REST API");
    bootsmith_api::serve(listener, state, shutdown_signal()).await?;
    app.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// Completes on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
