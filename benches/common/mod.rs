//! An in-process Bootsmith API on loopback over a fresh data dir, for the benchmarks.

use serde_json::Value;

/// A running API and a client that sends the token.
pub struct Api {
    pub app: bootsmith_core::App,
    pub base: String,
    token: String,
    client: reqwest::Client,
    _dir: tempfile::TempDir,
}

impl Api {
    pub async fn start() -> Api {
        let bootsmith_core::testing::TempApp { app, dir } =
            bootsmith_core::testing::TempApp::new().await;
        let state = bootsmith_api::ApiState::new(app.clone(), true)
            .await
            .unwrap();
        let token = bootsmith_core::auth::token(&app)
            .await
            .unwrap()
            .expose()
            .to_owned();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(bootsmith_api::serve(
            listener,
            state,
            std::future::pending(),
        ));
        Api {
            app,
            base,
            token,
            client: reqwest::Client::new(),
            _dir: dir,
        }
    }

    /// Send a request and return the JSON answer; any failure status aborts the benchmark.
    pub async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut req = self
            .client
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let r = req.send().await.unwrap();
        assert!(r.status().is_success(), "{}", r.status());
        r.json().await.unwrap()
    }
}
