//! Can the servers reach what we serve? Managers fetch install media from
//! `http://<svc_ip>:<port>/svc/…`, so svc_ip must be an address of this machine and the listener
//! must accept connections on it. Checked on the overview, before an operator builds media and
//! deploys, as warnings: an address behind a NAT or proxy may be right even when it is not ours.

use std::net::{IpAddr, UdpSocket};

/// What stands between the servers and svc at `svc_ip`, in the operator's words (none: fine),
/// with svc served on `port` by a listener bound to `listen` (None: no listener).
pub fn problems(svc_ip: IpAddr, port: u16, listen: Option<IpAddr>) -> Vec<String> {
    let mut out = Vec::new();
    // Binding succeeds only for an address one of this machine's interfaces has.
    if UdpSocket::bind((svc_ip, 0)).is_err() {
        out.push(format!(
            "The boot-server address {svc_ip} is not an address of this machine: servers fetch install media from http://{svc_ip}:{port}/svc/, so it must be one of this machine's addresses (or forward to it)."
        ));
    }
    match listen {
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
