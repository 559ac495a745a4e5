//! What the plan says of the NICs each host installs over: a host that names several MACs
//! on a network group without a bond gets its address on the first only.

use crate::records::hosts::Host;
use crate::records::networks::NetworkGroup;

/// A warning for each of `hosts` whose MACs make no bond: two or more, but its network group
/// (among `nets`) has no `bond`.
pub(super) fn warnings(hosts: &[Host], nets: &[NetworkGroup]) -> Vec<String> {
    hosts
        .iter()
        .filter(|h| h.macs.len() > 1)
        .filter(|h| {
            nets.iter()
                .find(|n| n.name == h.network_group)
                .is_some_and(|n| n.bond.is_none())
        })
        .map(|h| {
            format!(
                "{}: names {} MACs, but its network group {} has no bond, so it installs over the first only ({}); give the network group a bond to use them all",
                h.name,
                h.macs.len(),
                h.network_group,
                h.macs[0]
            )
        })
        .collect()
}
