//! A tiny fake BMC on loopback (axum) for protocol edge cases sushy-tools cannot show:
//! sessions in their vendor shapes, 401 mid-flow, 202 task monitors, Retry-After, SYS518,
//! ETag enforcement, insert ladders. A resource tree in memory answers GET/PATCH/DELETE, the
//! standard VirtualMedia and Reset actions change it, and a per-test hook injects behaviour.

#![allow(dead_code)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

/// How the fake answers a session POST.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sessions {
    /// 404: no session service (Basic only).
    None,
    /// 201 with `Location`.
    Location,
    /// 201 without `Location`, the session as the body (`@odata.id`; Cisco CIMC).
    BodyOdataId,
    /// 201 without `Location`, `{"code": 201, "message": "<uri>"}` (HPE iLO emulator).
    HpeMessage,
}

/// One request as the fake saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path: String,
    pub if_match: Option<String>,
    /// `token`, `basic` or `none`.
    pub auth: String,
    pub accept_encoding: Option<String>,
    /// `OData-Version` and `Accept`, as sent.
    pub odata: (Option<String>, Option<String>),
    pub body: Value,
}

/// An answer a hook gives instead of the default.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub body: Value,
}

/// `Answer` shorthand.
pub fn answer(status: u16, headers: &[(&'static str, &str)], body: Value) -> Option<Answer> {
    Some(Answer {
        status,
        headers: headers.iter().map(|(k, v)| (*k, (*v).to_owned())).collect(),
        body,
    })
}

/// A Redfish error body with one ExtendedInfo message.
pub fn redfish_error(id: &str, message: &str, args: &[&str]) -> Value {
    json!({"error": {"code": "Base.1.8.GeneralError", "message": "See ExtendedInfo",
        "@Message.ExtendedInfo": [{"MessageId": id, "Message": message, "MessageArgs": args}]}})
}

/// State of the fake.
#[derive(Default)]
pub struct Inner {
    pub resources: HashMap<String, Value>,
    /// Extra headers on GETs of a path (ETag, Allow).
    pub headers: HashMap<String, Vec<(&'static str, String)>>,
    pub log: Vec<Seen>,
    pub tokens: Vec<String>,
    pub issued: u32,
    /// Counters hooks may use.
    pub counters: HashMap<String, u32>,
}

impl Inner {
    /// Bump and return a named counter.
    pub fn bump(&mut self, name: &str) -> u32 {
        let c = self.counters.entry(name.to_owned()).or_default();
        *c += 1;
        *c
    }
}

type Hook = Arc<dyn Fn(&Seen, &mut Inner) -> Option<Answer> + Send + Sync>;

#[derive(Clone)]
struct App {
    inner: Arc<Mutex<Inner>>,
    sessions: Sessions,
    hook: Hook,
}

/// A running fake BMC.
pub struct Fake {
    pub url: String,
    pub inner: Arc<Mutex<Inner>>,
}

impl Fake {
    /// Requests seen so far.
    pub fn log(&self) -> Vec<Seen> {
        self.inner.lock().unwrap().log.clone()
    }

    /// Requests with this method whose path ends with `suffix`.
    pub fn seen(&self, method: &str, suffix: &str) -> Vec<Seen> {
        self.log()
            .into_iter()
            .filter(|s| s.method == method && s.path.ends_with(suffix))
            .collect()
    }

    /// A resource as it is now.
    pub fn resource(&self, path: &str) -> Value {
        self.inner.lock().unwrap().resources[path].clone()
    }

    /// Replace or add a resource.
    pub fn put(&self, path: &str, v: Value) {
        self.inner
            .lock()
            .unwrap()
            .resources
            .insert(path.to_owned(), v);
    }

    /// Set extra GET headers of a path.
    pub fn set_headers(&self, path: &str, h: &[(&'static str, &str)]) {
        self.inner.lock().unwrap().headers.insert(
            path.to_owned(),
            h.iter().map(|(k, v)| (*k, (*v).to_owned())).collect(),
        );
    }
}

/// The resource tree of a small BMC of `vendor`: System 1 managed by Manager 1, whose
/// VirtualMedia has slot 1 (Floppy, USBStick) and slot 2 (CD, DVD) with actions, and one
/// Storage with a drive and a volume.
pub fn tree(vendor: &str, firmware: &str) -> HashMap<String, Value> {
    let s = "/redfish/v1/Systems/1";
    let m = "/redfish/v1/Managers/1";
    let vm = format!("{m}/VirtualMedia");
    let slot = |id: &str, types: &[&str]| {
        json!({"@odata.id": format!("{vm}/{id}"), "Id": id, "MediaTypes": types,
            "Inserted": false, "Image": "", "ConnectedVia": "NotConnected", "WriteProtected": true,
            "Actions": {
                "#VirtualMedia.InsertMedia": {"target": format!("{vm}/{id}/Actions/VirtualMedia.InsertMedia")},
                "#VirtualMedia.EjectMedia": {"target": format!("{vm}/{id}/Actions/VirtualMedia.EjectMedia")}}})
    };
    let st = format!("{s}/Storage");
    let mut r = HashMap::new();
    r.insert(
        "/redfish/v1/".into(),
        json!({"@odata.id": "/redfish/v1/", "RedfishVersion": "1.15.0", "Vendor": vendor,
            "Systems": {"@odata.id": "/redfish/v1/Systems"}, "Managers": {"@odata.id": "/redfish/v1/Managers"},
            "SessionService": {"@odata.id": "/redfish/v1/SessionService"},
            "Links": {"Sessions": {"@odata.id": "/redfish/v1/SessionService/Sessions"}}}),
    );
    r.insert(
        "/redfish/v1/Systems".into(),
        json!({"Members": [{"@odata.id": s}]}),
    );
    r.insert(
        s.into(),
        json!({"@odata.id": s, "Id": "1", "Manufacturer": vendor, "Model": "Box 1", "SerialNumber": "SN1",
            "PowerState": "Off", "ProcessorSummary": {"Count": 2, "CoreCount": 32, "Model": "Xeon"},
            "MemorySummary": {"TotalSystemMemoryGiB": 128}, "BiosVersion": "1.2.3",
            "Boot": {"BootSourceOverrideEnabled": "Disabled", "BootSourceOverrideTarget": "None",
                "BootSourceOverrideMode": "UEFI",
                "BootSourceOverrideTarget@Redfish.AllowableValues": ["None", "Pxe", "Cd", "Hdd", "UsbCd"]},
            "Actions": {"#ComputerSystem.Reset": {"target": format!("{s}/Actions/ComputerSystem.Reset"),
                "ResetType@Redfish.AllowableValues": ["On", "ForceOff", "GracefulShutdown", "ForceRestart", "Nmi", "PowerCycle"]}},
            "Links": {"ManagedBy": [{"@odata.id": m}]},
            "Storage": {"@odata.id": st},
            "EthernetInterfaces": {"@odata.id": format!("{s}/EthernetInterfaces")}}),
    );
    r.insert(
        format!("{s}/EthernetInterfaces"),
        json!({"Members": [{"@odata.id": format!("{s}/EthernetInterfaces/NIC.Integrated.1-1-1")},
                           {"@odata.id": format!("{s}/EthernetInterfaces/NIC.Integrated.1-2-1")}]}),
    );
    r.insert(
        format!("{s}/EthernetInterfaces/NIC.Integrated.1-1-1"),
        json!({"Id": "NIC.Integrated.1-1-1", "MACAddress": "b8:ce:f6:5a:10:01", "LinkStatus": "LinkUp",
            "InterfaceEnabled": true}),
    );
    r.insert(
        format!("{s}/EthernetInterfaces/NIC.Integrated.1-2-1"),
        json!({"Id": "NIC.Integrated.1-2-1", "MACAddress": "", "PermanentMACAddress": "B8:CE:F6:5A:10:02",
            "LinkStatus": "NoLink"}),
    );
    r.insert(
        "/redfish/v1/Managers".into(),
        json!({"Members": [{"@odata.id": m}]}),
    );
    r.insert(
        m.into(),
        json!({"@odata.id": m, "Id": "1", "FirmwareVersion": firmware, "VirtualMedia": {"@odata.id": vm}}),
    );
    r.insert(
        vm.clone(),
        json!({"Members": [{"@odata.id": format!("{vm}/1")}, {"@odata.id": format!("{vm}/2")}]}),
    );
    r.insert(format!("{vm}/1"), slot("1", &["Floppy", "USBStick"]));
    r.insert(format!("{vm}/2"), slot("2", &["CD", "DVD"]));
    r.insert(
        st.clone(),
        json!({"Members": [{"@odata.id": format!("{st}/RAID.1")}]}),
    );
    r.insert(
        format!("{st}/RAID.1"),
        json!({"Id": "RAID.1", "Name": "RAID controller",
            "Drives": [{"@odata.id": format!("{st}/RAID.1/Drives/0")}],
            "Volumes": {"@odata.id": format!("{st}/RAID.1/Volumes")}}),
    );
    r.insert(
        format!("{st}/RAID.1/Drives/0"),
        json!({"Id": "0", "Name": "Disk 0", "CapacityBytes": 960_000_000_000u64, "MediaType": "SSD",
            "Protocol": "SATA", "Status": {"Health": "OK", "State": "Enabled"},
            "Manufacturer": "Micron", "Model": "MTFDDAK960TDS", "SerialNumber": "21033A4E",
            "Identifiers": [{"DurableNameFormat": "UUID", "DurableName": "0bd1c7a6-4ea6-4c0e-9f1e-0c3c2d1f5a77"},
                            {"DurableNameFormat": "NAA", "DurableName": "500A07511234ABCD"}],
            "Actions": {"#Drive.SecureErase": {"target": format!("{st}/RAID.1/Drives/0/Actions/Drive.SecureErase")}}}),
    );
    r.insert(
        format!("{st}/RAID.1/Volumes"),
        json!({"Members": [{"@odata.id": format!("{st}/RAID.1/Volumes/1")}]}),
    );
    r.insert(
        format!("{st}/RAID.1/Volumes/1"),
        json!({"Id": "1", "Name": "VD0", "CapacityBytes": 960_000_000_000u64, "RAIDType": "RAID1",
            "Links": {"Drives": [{"@odata.id": format!("{st}/RAID.1/Drives/0")}]}}),
    );
    r
}

fn merge(into: &mut Value, patch: &Value) {
    match (into, patch) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                merge(a.entry(k.clone()).or_insert(Value::Null), v);
            }
        }
        (a, b) => *a = b.clone(),
    }
}

fn respond(a: Answer) -> Response {
    let mut h = HeaderMap::new();
    for (k, v) in a.headers {
        h.insert(
            HeaderName::from_static(k),
            HeaderValue::from_str(&v).unwrap(),
        );
    }
    let status = StatusCode::from_u16(a.status).unwrap();
    if a.body.is_null() {
        (status, h).into_response()
    } else {
        (status, h, axum::Json(a.body)).into_response()
    }
}

async fn handle(
    State(app): State<App>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path().to_owned();
    let auth = if let Some(t) = headers.get("x-auth-token") {
        format!("token:{}", t.to_str().unwrap())
    } else if headers.contains_key("authorization") {
        "basic".to_owned()
    } else {
        "none".to_owned()
    };
    let seen = Seen {
        method: method.to_string(),
        path: path.clone(),
        if_match: headers
            .get("if-match")
            .map(|v| v.to_str().unwrap().to_owned()),
        auth: auth.clone(),
        accept_encoding: headers
            .get("accept-encoding")
            .map(|v| v.to_str().unwrap().to_owned()),
        odata: (
            headers
                .get("odata-version")
                .map(|v| v.to_str().unwrap().to_owned()),
            headers
                .get("accept")
                .map(|v| v.to_str().unwrap().to_owned()),
        ),
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    };
    let mut inner = app.inner.lock().unwrap();
    inner.log.push(seen.clone());
    let sessions = "/redfish/v1/SessionService/Sessions";
    if method == Method::POST && path == sessions {
        if app.sessions == Sessions::None {
            return StatusCode::NOT_FOUND.into_response();
        }
        if seen.body["UserName"] != "admin" || seen.body["Password"] != "password" {
            return respond(Answer {
                status: 401,
                headers: vec![],
                body: redfish_error("Base.1.8.NoValidSession", "Invalid credentials", &[]),
            });
        }
        inner.issued += 1;
        let id = inner.issued;
        let token = format!("tok{id}");
        inner.tokens.push(token.clone());
        let uri = format!("{sessions}/{id}");
        let mut h = vec![("x-auth-token", token)];
        let body = match app.sessions {
            Sessions::Location => {
                h.push(("location", uri.clone()));
                json!({"@odata.id": uri, "Id": id.to_string()})
            }
            Sessions::BodyOdataId => json!({"@odata.id": uri, "Id": id.to_string()}),
            _ => json!({"code": 201, "message": uri}),
        };
        return respond(Answer {
            status: 201,
            headers: h,
            body,
        });
    }
    if path != "/redfish/v1/" {
        let ok = match auth.strip_prefix("token:") {
            Some(t) => inner.tokens.iter().any(|x| x == t),
            None => {
                auth == "basic"
                    && headers.get("authorization").unwrap().to_str().unwrap()
                        == "Basic YWRtaW46cGFzc3dvcmQ="
            }
        };
        if !ok {
            return respond(Answer {
                status: 401,
                headers: vec![],
                body: redfish_error("Base.1.8.NoValidSession", "No valid session", &[]),
            });
        }
    }
    if let Some(a) = (app.hook)(&seen, &mut inner) {
        return respond(a);
    }
    match method {
        Method::GET => match inner.resources.get(&path).cloned() {
            Some(v) => {
                let h = inner.headers.get(&path).cloned().unwrap_or_default();
                respond(Answer {
                    status: 200,
                    headers: h,
                    body: v,
                })
            }
            None => StatusCode::NOT_FOUND.into_response(),
        },
        Method::PATCH => match inner.resources.get_mut(&path) {
            Some(v) => {
                merge(v, &seen.body);
                StatusCode::NO_CONTENT.into_response()
            }
            None => StatusCode::NOT_FOUND.into_response(),
        },
        Method::DELETE => {
            if path.starts_with(sessions) {
                let id = path.rsplit('/').next().unwrap().to_owned();
                inner.tokens.retain(|t| *t != format!("tok{id}"));
            } else {
                inner.resources.remove(&path);
            }
            StatusCode::NO_CONTENT.into_response()
        }
        Method::POST => {
            if let Some(slot) = path.strip_suffix("/Actions/VirtualMedia.InsertMedia") {
                let image = seen.body["Image"].clone();
                if let Some(v) = inner.resources.get_mut(slot) {
                    merge(
                        v,
                        &json!({"Image": image, "Inserted": true, "ConnectedVia": "URI"}),
                    );
                }
            } else if let Some(slot) = path.strip_suffix("/Actions/VirtualMedia.EjectMedia") {
                if let Some(v) = inner.resources.get_mut(slot) {
                    merge(
                        v,
                        &json!({"Image": "", "Inserted": false, "ConnectedVia": "NotConnected"}),
                    );
                }
            } else if let Some(sys) = path.strip_suffix("/Actions/ComputerSystem.Reset") {
                let state = match seen.body["ResetType"].as_str() {
                    Some("ForceOff" | "GracefulShutdown") => "Off",
                    _ => "On",
                };
                if let Some(v) = inner.resources.get_mut(sys) {
                    merge(v, &json!({"PowerState": state}));
                }
            }
            StatusCode::NO_CONTENT.into_response()
        }
        _ => StatusCode::METHOD_NOT_ALLOWED.into_response(),
    }
}

/// Start a fake with `resources`, a session style and a hook (return `None` for the default).
pub async fn start(
    resources: HashMap<String, Value>,
    sessions: Sessions,
    hook: impl Fn(&Seen, &mut Inner) -> Option<Answer> + Send + Sync + 'static,
) -> Fake {
    serve(resources, sessions, Arc::new(hook), None).await
}

async fn serve(
    resources: HashMap<String, Value>,
    sessions: Sessions,
    hook: Hook,
    tls: Option<Arc<tokio_rustls::rustls::ServerConfig>>,
) -> Fake {
    let inner = Arc::new(Mutex::new(Inner {
        resources,
        ..Inner::default()
    }));
    let app = App {
        inner: inner.clone(),
        sessions,
        hook,
    };
    let router = axum::Router::new().fallback(handle).with_state(app);
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let url = match tls {
        None => {
            tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
            format!("http://{addr}")
        }
        Some(config) => {
            let tls = TlsListener {
                tcp: listener,
                acceptor: tokio_rustls::TlsAcceptor::from(config),
            };
            tokio::spawn(async move { axum::serve(tls, router).await.unwrap() });
            format!("https://{addr}")
        }
    };
    Fake { url, inner }
}

/// Start a fake on HTTPS with a fresh self-signed certificate; also its SHA-256 fingerprint.
pub async fn start_tls(resources: HashMap<String, Value>) -> (Fake, String) {
    use tokio_rustls::rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
    use tokio_rustls::rustls::{crypto::ring, ServerConfig};
    let ck = rcgen::generate_simple_self_signed(vec!["127.0.0.1".into()]).unwrap();
    let cert = ck.cert.der().clone();
    let fingerprint = bootsmith_redfish::tls::fingerprint(cert.as_ref());
    let config = ServerConfig::builder_with_provider(Arc::new(ring::default_provider()))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![cert],
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(ck.key_pair.serialize_der())),
        )
        .unwrap();
    let fake = serve(
        resources,
        Sessions::Location,
        Arc::new(|_: &Seen, _: &mut Inner| None),
        Some(Arc::new(config)),
    )
    .await;
    (fake, fingerprint)
}

/// Completes the TLS handshake before handing connections to axum.
struct TlsListener {
    tcp: tokio::net::TcpListener,
    acceptor: tokio_rustls::TlsAcceptor,
}

impl axum::serve::Listener for TlsListener {
    type Io = tokio_rustls::server::TlsStream<tokio::net::TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let Ok((tcp, addr)) = self.tcp.accept().await else {
                continue;
            };
            // A client that rejects our certificate fails here; keep serving the others.
            if let Ok(tls) = self.acceptor.accept(tcp).await {
                return (tls, addr);
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.tcp.local_addr()
    }
}
