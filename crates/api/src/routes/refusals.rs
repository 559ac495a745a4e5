//! Named sets of the refusals several actions answer alike (`SelectorErrors`, `GroupErrors`, …),
//! for the table's OpenAPI entries: `responses((status = 200, …), refusals::SelectorErrors)`
//! documents each once, so one wording is changed in one place.

use std::collections::BTreeMap;

use utoipa::openapi::{ContentBuilder, Ref, RefOr, Response, ResponseBuilder};
use utoipa::IntoResponses;

/// The manager's refusal of a request it reads as invalid, which any call to it may get.
const MANAGER_REFUSED: &str = "The manager refused the request as invalid";

/// A group whose selection names servers its manager may not have.
const SELECTION_NOT_FOUND: &str = "No such server group (`server_group_not_found`), or a selected server the manager does not have (`server_not_found`) or a domain a UCS Central does not have (`domain_not_found`)";

/// An `ErrorBody` answer, as `(status = …, body = ErrorBody, description = …)` documents one.
fn refusal(description: &str) -> RefOr<Response> {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("ErrorBody")))
                .build(),
        )
        .build()
        .into()
}

/// A set of refusals: a type whose `responses` are these statuses, each with its sentence.
macro_rules! refusals {
    ($( $(#[doc = $doc:literal])* $name:ident { $($status:literal => $description:expr),+ $(,)? } )*) => { $(
        $(#[doc = $doc])*
        pub(crate) struct $name;

        impl IntoResponses for $name {
            fn responses() -> BTreeMap<String, RefOr<Response>> {
                BTreeMap::from([$(($status.to_owned(), refusal($description))),+])
            }
        }
    )* };
}

refusals! {
    /// A call to a server group's manager.
    GroupErrors {
        "400" => MANAGER_REFUSED,
        "404" => "No such server group (`server_group_not_found`)",
    }

    /// A call to the servers a selector names (none: every server of the group).
    SelectorErrors {
        "400" => "An invalid selector (`invalid_selection`), or the manager refused the request as invalid",
        "404" => SELECTION_NOT_FOUND,
    }

    /// The selected servers, for an action whose invalid inputs are more than the selector's.
    SelectionNotFound {
        "404" => SELECTION_NOT_FOUND,
    }

    /// A write to a server group's manager, logging in to it first.
    ManagerLoginErrors {
        "401" => "No or a wrong API token (`unauthorized`), or the manager refused the login (`ucs_login_failed`)",
        "422" => "The manager's certificate is not trusted (`untrusted_certificate`, with its `fingerprint` to send back)",
        "502" => "The manager could not be reached (`ucs_unreachable`), its certificate changed (`certificate_changed`), or it failed",
    }

    /// A deploy's writes to the manager.
    DeployFailed {
        "502" => "The manager failed, or refused the write (with its `ucs_code`; nothing was written), or could not be reached",
    }

    /// A record whose name another one has.
    NameTaken {
        "409" => "The name is taken (`duplicate_name`)",
    }

    /// A record named by `id` or `name`.
    NoIdOrName {
        "400" => "Neither `id` nor `name` given, or a malformed `id`",
    }

    /// A host named in the path.
    HostNotFound {
        "404" => "No such host (`host_not_found`)",
    }

    /// A server group named in the path or body.
    NoSuchGroup {
        "404" => "No such group (`server_group_not_found`)",
    }

    /// A file written into svc.
    DiskFull {
        "507" => "The disk of svc is full (`disk_full`); nothing was kept",
    }
}
