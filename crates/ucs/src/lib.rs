//! UCS Manager / IMC XML API client. Built in the UCS connectivity issue.
