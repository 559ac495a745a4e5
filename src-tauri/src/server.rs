//! `bootsmith serve`: the REST listener with no window.

use crate::cli::Listen;

/// Open the core and serve until Ctrl-C or SIGTERM.
pub async fn run(config: bootsmith_core::Config, listen: Listen) -> anyhow::Result<()> {
    let shutdown = shutdown_signal()?;
    let app = bootsmith_core::startup::open(config).await?;
    let state = crate::api_state(&app, &listen).await?;
    let listener = tokio::net::TcpListener::bind(listen.listen)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", listen.listen))?;
    let addr = listener.local_addr()?;
    tracing::info!(url = %format!("http://{addr}/"), "Bootsmith is serving the REST API");
    bootsmith_api::serve(listener, state, shutdown).await?;
    app.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// A future that completes on Ctrl-C or SIGTERM. The handlers are installed
/// when this is called, not when the future is first polled, so a signal that
/// arrives right after the listener is announced still stops us gracefully.
pub fn shutdown_signal() -> anyhow::Result<impl std::future::Future<Output = ()> + Send + 'static> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut term = signal(SignalKind::terminate())?;
        let mut int = signal(SignalKind::interrupt())?;
        Ok(async move {
            tokio::select! {
                _ = term.recv() => {},
                _ = int.recv() => {},
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}
