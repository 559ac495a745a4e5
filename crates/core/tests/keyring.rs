//! The data key in a real OS keyring (Secret Service over D-Bus).
//! Needs a running, unlocked secret service: `scripts/keyring-test.sh` starts a
//! private D-Bus session with gnome-keyring and runs this (make test does).

use bootsmith_core::secrets::KeyLocation;
use bootsmith_core::{records::server_groups, Config};

#[tokio::test]
#[ignore = "needs a Secret Service; run through scripts/keyring-test.sh"]
async fn the_data_key_lives_in_the_os_keyring() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        use_keyring: true,
        ..bootsmith_core::testing::config(dir.path())
    };
    let app = bootsmith_core::startup::open(config.clone()).await.unwrap();
    assert_eq!(app.key_location(), &KeyLocation::Keyring);
    assert!(
        !dir.path().join("data/secret.key").exists(),
        "no key file when the keyring works"
    );
    let input = serde_json::from_value(serde_json::json!({"name": "pod1", "type": "ucsm",
        "credentials": {"ip": "127.0.0.1:9", "user": "admin", "password": "Keyring-Pass"}, "check_login": false}))
    .unwrap();
    server_groups::create(&app, input).await.unwrap();
    app.close().await;

    let app = bootsmith_core::startup::open(config).await.unwrap();
    assert_eq!(app.key_location(), &KeyLocation::Keyring);
    let g = server_groups::get(&app, "pod1").await.unwrap();
    assert_eq!(
        server_groups::password(&app, &g).unwrap().expose(),
        "Keyring-Pass"
    );
}
