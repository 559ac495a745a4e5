//! Client for the Cisco UCS Manager and standalone IMC XML API.

pub mod xml;
