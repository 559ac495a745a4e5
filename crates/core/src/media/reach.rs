//! Can the servers reach what we serve? Managers fetch install media from
//! `http://<svc_ip>:<port>/svc/…`, so svc_ip must be an address of this machine and the listener
//! must accept connections on it. Checked on the overview, before an operator builds media and
//! deploys, as warnings: an address behind a NAT or proxy may be right even when it is not ours.

use std::net::{IpAddr, UdpSocket};

use crate::app::App;
use crate::jobs::{JobCtx, StepState};

/// What stands between the servers and svc at `svc_ip`, in the operator's words (none: fine).
pub fn problems(app: &App, svc_ip: IpAddr) -> Vec<String> {
    let mut out = Vec::new();
    let port = app.svc_port();
    // Binding succeeds only for an address one of this machine's interfaces has.
    if UdpSocket::bind((svc_ip, 0)).is_err() {
        out.push(format!(
            "The boot-server address {svc_ip} is not an address of this machine: servers fetch install media from http://{svc_ip}:{port}/svc/, so it must be one of this machine's addresses (or forward to it)."
        ));
    }
    match app.svc_listen_ip() {
        None => out.push(
            "No HTTP listener serves svc: servers cannot fetch install media. Start Bootsmith with a listening address (--listen)."
                .to_owned(),
        ),
        Some(bound) if bound.is_loopback() && !svc_ip.is_loopback() => out.push(format!(
            "Bootsmith listens on {bound} only, so servers cannot fetch install media from {svc_ip}:{port}: start it with --listen 0.0.0.0:{port} (or --listen {svc_ip}:{port})."
        )),
        Some(bound) if !bound.is_unspecified() && !bound.is_loopback() && bound != svc_ip => {
            out.push(format!(
                "Bootsmith listens on {bound}, not on the boot-server address {svc_ip}: servers cannot fetch install media from {svc_ip}:{port}; listen on {svc_ip} or on 0.0.0.0."
            ))
        }
        Some(_) => {}
    }
    out
}

/// Say [`problems`] with the boot-server address as `warning` steps (`reachability`) of `job`
/// (the images job, before it builds media that point the servers at it); nothing when no
/// address is set (the job is refused earlier).
pub async fn warn(app: &App, job: &JobCtx) {
    let Ok(Some(ip)) = crate::settings::svc_ip(app).await else {
        return;
    };
    for p in problems(app, ip.0) {
        job.step(None, "reachability", StepState::Warning, Some(&p));
    }
}
