//! How input fields look in the OpenAPI document. The inputs are `Option<String>` so the core
//! can report every missing or invalid field at once; the document still says which fields are
//! required and which values the parsers in [`crate::types`] accept, so generated clients and
//! fuzzers send what the service takes. Each schema mirrors the parser named in its doc.

use utoipa::openapi::schema::{
    AnyOfBuilder, ArrayBuilder, ObjectBuilder, SchemaFormat, SchemaType, Type,
};
use utoipa::openapi::{RefOr, Schema};

/// `Name::parse`: network group, server group and ACI instance names: printable, no `/`, no
/// leading or trailing space, 1 to 64 characters.
const NAME: &str = "^[^\\s/\\u0000-\\u001f\\u007f-\\u009f]([^/\\u0000-\\u001f\\u007f-\\u009f]{0,62}[^\\s/\\u0000-\\u001f\\u007f-\\u009f])?$";
/// `HostName::parse`: no leading or trailing `-`.
const HOST_NAME: &str = "^[A-Za-z0-9][A-Za-z0-9-]{0,30}[A-Za-z0-9]$";
/// `VlanName::parse`.
const VLAN_NAME: &str = "^[A-Za-z0-9_.:-]{1,32}$";
/// `VlanId::parse`: 1 to 4094, no sign or leading zero.
const VLAN_ID: &str = "^([1-9][0-9]{0,2}|[1-3][0-9]{3}|40[0-8][0-9]|409[0-4])$";
/// `apic_name` of the ACI module.
const APIC_NAME: &str = "^[A-Za-z0-9_.:-]{1,64}$";
/// `BladeId::parse`: `<chassis>/<slot>`, or `<domain>/<chassis>/<slot>` under UCS Central.
const BLADE: &str = "^[1-9][0-9]{0,8}/[1-9][0-9]{0,8}(/[1-9][0-9]{0,8})?$";
/// `RackId::parse`.
const RACK: &str = "^[1-9][0-9]{0,8}$";
/// `NodeId::parse`: a blade or a rack server.
const NODE: &str = "^[1-9][0-9]{0,8}(/[1-9][0-9]{0,8}){0,2}$";
/// `Subnet::parse`: an IPv4 or IPv6 address, `/` and a prefix length.
const SUBNET: &str = "^(((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])/(3[0-2]|[12]?[0-9])|[0-9A-Fa-f:]*:[0-9A-Fa-f:]*/(12[0-8]|1[01][0-9]|[1-9]?[0-9]))$";
/// `MacAddress::parse`: six hex octets split by `:` or `-`, or three groups of four split by `.`.
pub(crate) const MAC: &str = "^\\s*([0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}|[0-9A-Fa-f]{2}(-[0-9A-Fa-f]{2}){5}|[0-9A-Fa-f]{4}(\\.[0-9A-Fa-f]{4}){2})\\s*$";
/// `Ipv6Interface::parse`: an IPv6 address, `/` and a prefix length 1–128.
pub(crate) const IPV6_PREFIXED: &str =
    "^\\s*[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*/(12[0-8]|1[01][0-9]|[1-9]?[0-9])\\s*$";
/// `iso_import::download::check_url`: an http(s) address with a host.
const WEB_ADDRESS: &str = "^\\s*[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+(/\\S*)?\\s*$";
/// `validate::text`: no control characters, not blank.
const TEXT: &str = "^[^\\u0000-\\u001f\\u007f-\\u009f]*[^\\s\\u0000-\\u001f\\u007f-\\u009f][^\\u0000-\\u001f\\u007f-\\u009f]*$";
/// `Netmask::parse`: a contiguous dotted IPv4 mask, or a prefix length 0–128 with an optional `/`.
const NETMASK: &str = "^((255\\.){3}(255|254|252|248|240|224|192|128|0)|(255\\.){2}(254|252|248|240|224|192|128|0)\\.0|255\\.(254|252|248|240|224|192|128|0)\\.0\\.0|(254|252|248|240|224|192|128|0)\\.0\\.0\\.0|/?([0-9]|[1-9][0-9]|1[01][0-9]|12[0-8]))$";
/// `ManagerAddress::parse`: a host name, IPv4 or bracketed IPv6 address, an optional port
/// and an optional `http://` or `https://`.
const MANAGER: &str = "^(https?://)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\\[[0-9A-Fa-f:.]+\\])(:([0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?$";
/// An optional number read by `str::parse::<u64>` after trimming (so `+` is allowed).
const NUMBER: &str = "^(\\s*\\+?[0-9]{1,19}\\s*)?$";
/// A blank value counts as absent for an optional field.
const BLANK: &str = "^\\s*$";

fn string(pattern: &str, description: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(pattern))
        .description(Some(description))
}

fn format(f: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(SchemaFormat::Custom(f.to_owned())))
}

/// The same rule for an optional field: also null or blank (both mean "not set").
fn optional(required: impl Into<RefOr<Schema>>) -> Schema {
    AnyOfBuilder::new()
        .item(required)
        .item(
            ObjectBuilder::new()
                .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
                .pattern(Some(BLANK)),
        )
        .build()
        .into()
}

/// A group or instance name (required).
pub fn name() -> Schema {
    string(
        NAME,
        "1 to 64 printable characters without '/' and without leading or trailing spaces",
    )
    .into()
}

/// A host name (required).
pub fn host_name() -> Schema {
    string(HOST_NAME, "2 to 32 letters, digits or '-' (not first or last, no dots): it is also the service-profile name and a file name").into()
}

/// An IPv4 or IPv6 address (required).
pub fn ip() -> Schema {
    AnyOfBuilder::new()
        .item(format("ipv4"))
        .item(format("ipv6"))
        .description(Some("An IPv4 or IPv6 address"))
        .build()
        .into()
}

/// An IPv4 or IPv6 address or a DNS host name (required).
pub fn host_or_ip() -> Schema {
    AnyOfBuilder::new()
        .item(format("ipv4"))
        .item(format("ipv6"))
        .item(format("hostname"))
        .description(Some("An IP address or a DNS host name"))
        .build()
        .into()
}

/// A netmask (required).
pub fn netmask() -> Schema {
    string(
        NETMASK,
        "A contiguous dotted mask like 255.255.255.0, or a prefix length like 24 or /64",
    )
    .into()
}

/// An HTTP(S) proxy URL (optional).
pub fn proxy() -> Schema {
    optional(
        string(
            "^https?://[^\\s/?#]+",
            "http://host:port or https://host:port",
        )
        .format(Some(SchemaFormat::Custom("uri".into()))),
    )
}

/// `OrgDn::parse`: `org-root[/org-<name>…]`, or a bare org name completed under org-root.
const ORG: &str =
    "^(root|org-root(/org-[A-Za-z0-9_.:-]{1,16})*|[A-Za-z0-9_.:][A-Za-z0-9_.:-]{0,15})$";

fn org_dn() -> ObjectBuilder {
    string(
        ORG,
        "An org DN (org-root or org-root/org-<name>…), or a bare org name (lab = org-root/org-lab)",
    )
}

/// A UCS org (optional; blank means the default).
pub fn org() -> Schema {
    optional(org_dn())
}

/// A setting's value that must be sent: the value, or blank to clear it (not null).
fn clearable(value: impl Into<RefOr<Schema>>) -> Schema {
    AnyOfBuilder::new()
        .item(value)
        .item(string(BLANK, "Blank: clear the setting"))
        .build()
        .into()
}

/// Text that must not be blank (required), such as the text of a file.
pub fn file_text() -> Schema {
    string(TEXT, "The file's text, not blank").into()
}

/// The default org setting: an org, or blank to clear it.
pub fn org_setting() -> Schema {
    clearable(org_dn())
}

/// The default proxy setting: a proxy URL, or blank to clear it.
pub fn proxy_setting() -> Schema {
    clearable(
        string(
            "^https?://[^\\s/?#]+",
            "http://host:port or https://host:port",
        )
        .format(Some(SchemaFormat::Custom("uri".into()))),
    )
}

/// Free text for people (optional), up to 256 characters.
pub fn description() -> Schema {
    optional(string(TEXT, "Up to 256 characters, no control characters").max_length(Some(256)))
}

/// An IPv4 or IPv6 address (optional).
pub fn optional_ip() -> Schema {
    optional(ip())
}

/// An 802.1Q VLAN id (optional).
pub fn vlan_id() -> Schema {
    optional(string(VLAN_ID, "A VLAN id from 1 to 4094"))
}

/// A UCS VLAN name (optional).
pub fn vlan_name() -> Schema {
    optional(string(
        VLAN_NAME,
        "1 to 32 letters, digits, '-', '_', '.' or ':'",
    ))
}

/// An APIC object name (required).
pub fn apic_name() -> Schema {
    string(APIC_NAME, "1 to 64 letters, digits, '_', '.', ':' or '-'").into()
}

/// A manager's address (required).
pub fn manager_address() -> Schema {
    string(MANAGER, "An IP or host name, optionally with :port or an http:// or https:// prefix (`10.0.0.5`, `10.0.0.5:8443`, `http://127.0.0.1:9000`)").into()
}

/// A user name (required).
pub fn user() -> Schema {
    string(TEXT, "Up to 128 characters, no control characters")
        .max_length(Some(128))
        .into()
}

/// A name of an existing record, such as a host's network group (required).
pub fn reference() -> Schema {
    string(NAME, "The name of an existing record").into()
}

/// A name of an existing record (optional).
pub fn optional_reference() -> Schema {
    optional(string(NAME, "The name of an existing record"))
}

/// A server selector: `{"blades": [...], "rack_servers": [...]}`.
pub fn selector() -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(
            "Servers of a group; `rack` is the seed's other spelling of `rack_servers` (send one of the two)",
        ))
        .property("blades", blades())
        .property("rack_servers", rack_servers())
        .property("rack", rack_servers())
        // JSON Schema's `not`, which utoipa has no builder for: both spellings at once is a
        // duplicate field, refused as an invalid body.
        .extensions(Some(
            [(
                "not",
                serde_json::json!({"required": ["rack", "rack_servers"]}),
            )]
            .into_iter()
            .collect(),
        ))
        .build()
        .into()
}

/// The lowest log level shown, in any case; empty means every line.
pub fn log_level() -> Schema {
    let any_case = |word: &str| -> String {
        word.chars()
            .map(|c| format!("[{}{}]", c.to_ascii_lowercase(), c.to_ascii_uppercase()))
            .collect()
    };
    let words: Vec<String> = ["trace", "debug", "info", "warn", "warning", "error"]
        .iter()
        .map(|w| any_case(w))
        .collect();
    string(
        &format!("^(\\s*({})\\s*)?$", words.join("|")),
        "trace, debug, info, warn (or warning) or error, in any case",
    )
    .examples(["warn"])
    .into()
}

/// The `next` cursor of a log page: a byte offset; empty means the end of the log.
pub fn log_cursor() -> Schema {
    string(NUMBER, "The `next` of the previous page").into()
}

/// The `Last-Event-ID` header: the seq of the last event received; empty means from the start.
pub fn last_event_id() -> Schema {
    string(NUMBER, "The seq of the last event received").into()
}

/// Blade ids of a selector.
fn blades() -> Schema {
    list(string(
        BLADE,
        "A blade: <chassis>/<slot> like 1/3 (<domain>/<chassis>/<slot> under UCS Central)",
    ))
}

/// Rack server ids of a selector.
fn rack_servers() -> Schema {
    list(string(RACK, "A rack server's number, like 1"))
}

/// The server a host is tied to (optional).
pub fn node() -> Schema {
    optional(string(
        NODE,
        "A blade <chassis>/<slot> like 1/3, or a rack server number like 2",
    ))
}

fn list(item: ObjectBuilder) -> Schema {
    ArrayBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Array, Type::Null]))
        .items(item)
        .build()
        .into()
}

/// A subnet in CIDR form (optional). The pattern states the shape; that no host bits are set
/// and that the gateway lies in it are checked by the service.
pub fn subnet() -> Schema {
    optional(string(
        SUBNET,
        "A subnet as address/prefix, like 192.0.2.0/24 or 2001:db8::/64 (no host bits set)",
    ))
}

/// A server of a group, by its id (required).
pub fn server_id() -> Schema {
    string(
        NODE,
        "A blade <chassis>/<slot> like 1/3 (<domain>/<chassis>/<slot> under UCS Central), or a rack server number like 2",
    )
    .into()
}

/// An http:// or https:// address (required).
pub fn web_address() -> Schema {
    string(
        WEB_ADDRESS,
        "An http:// or https:// address, like http://fileserver.lab/isos/rhel-9.iso",
    )
    .into()
}

/// A job's result, by its kind: a `DeployResult` (`deploy`, `vmedia`, `undeploy`), `Images`
/// (`images`) or `ImportResult` (`iso_import`, `iso_fetch`). Their required fields differ, so
/// exactly one matches, and generated clients get types instead of an empty object.
pub fn job_result() -> Schema {
    use utoipa::openapi::schema::OneOfBuilder;
    use utoipa::openapi::Ref;
    OneOfBuilder::new()
        .item(Ref::from_schema_name("DeployResult"))
        .item(Ref::from_schema_name("Images"))
        .item(Ref::from_schema_name("ImportResult"))
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .description(Some(
            "What the work returned (a deploy's, an image run's or an ISO import's result); absent while it runs and when it failed",
        ))
        .into()
}

/// Hosts per install stage: keyed by the stages' names, and `none` for hosts with nothing
/// built yet.
pub fn installs() -> Schema {
    use utoipa::openapi::schema::{AdditionalProperties, KnownFormat};
    let keys = std::iter::once("none").chain(crate::stage::ALL.map(|s| s.as_str()));
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .property_names(Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some(keys)),
        ))
        .additional_properties(Some(AdditionalProperties::RefOr(
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
                .minimum(Some(0))
                .into(),
        )))
        .description(Some(
            "Hosts per install stage (`none`: nothing built yet), e.g. `{\"installing\": 3, \"installed\": 9}`.",
        ))
        .into()
}

/// `isos::check_new_name`: one plain name at the top of svc (no `/` or `\`, no leading dot, no
/// control characters) ending in `.iso` in any case. Its limit of 255 is in bytes, which a
/// schema cannot count: `maxLength` says 255 characters, the server refuses longer in bytes.
const ISO_NAME: &str =
    r"^[^./\\\u0000-\u001f\u007f-\u009f][^/\\\u0000-\u001f\u007f-\u009f]*\.[iI][sS][oO]$";
/// `isos::svc_file`: `/svc/` and a path inside svc (no `\` or NUL, not hidden) ending in `.iso`.
/// The segments' own rules (no `.`, `..` or empty one) and that the file exists are checked by
/// the service.
const SVC_ISO: &str = r"^/svc/[^./\\\u0000][^\\\u0000]*\.[iI][sS][oO]$";
/// `iso_import::source_name` then `check_new_name`: an absolute path whose last part is an ISO
/// file name.
const ISO_PATH: &str =
    r"^/(.*/)?[^./\\\u0000-\u001f\u007f-\u009f][^/\\\u0000-\u001f\u007f-\u009f]*\.[iI][sS][oO]$";

fn iso_name_string() -> ObjectBuilder {
    string(
        ISO_NAME,
        "A file name ending in .iso (any case): no '/' or '\\', no leading dot, no control characters, at most 255 bytes",
    )
    .max_length(Some(255))
}

/// The name of a new ISO file in svc (required).
pub fn iso_name() -> Schema {
    iso_name_string().into()
}

/// The name of a new ISO file in svc (optional: null or empty means "from the URL").
pub fn optional_iso_name() -> Schema {
    AnyOfBuilder::new()
        .item(iso_name_string())
        .item(
            ObjectBuilder::new()
                .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
                .max_length(Some(0)),
        )
        .description(Some(
            "The name in svc; when null or empty, the last part of the URL's path",
        ))
        .build()
        .into()
}

/// An ISO file of svc as the ISO map names it (required).
pub fn svc_iso() -> Schema {
    string(
        SVC_ISO,
        "`/svc/<path>.iso`: an ISO file in svc, the extension in any case",
    )
    .into()
}

/// The absolute path of an ISO file to import (required).
pub fn iso_path() -> Schema {
    string(
        ISO_PATH,
        "An absolute path whose last part is a file name ending in .iso (any case), the name it gets in svc",
    )
    .into()
}

/// The servers an action is for: a selector naming at least one server, or null or left out for
/// the group's selected servers. An empty selection is refused (`empty_selection`), so a script
/// whose filter matched nothing acts on nothing.
pub fn some_servers() -> Schema {
    use utoipa::openapi::schema::OneOfBuilder;
    use utoipa::openapi::Ref;
    let none_named: serde_json::Map<String, serde_json::Value> = ["blades", "rack_servers", "rack"]
        .iter()
        .map(|f| (f.to_string(), serde_json::json!({"maxItems": 0})))
        .collect();
    OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .item(Ref::from_schema_name("SelectorInput"))
        .description(Some(
            "Which servers, at least one; when null or left out, the group's selected servers (every server of its manager when it has none selected)",
        ))
        // JSON Schema's `not`, which utoipa has no builder for: a selector whose lists are all
        // empty or absent names no server.
        .extensions(Some(
            [(
                "not",
                serde_json::json!({"type": "object", "properties": none_named}),
            )]
            .into_iter()
            .collect(),
        ))
        .into()
}

/// `install_disk::wwn_digits`: `0x`, `naa.` or `eui.` (or nothing) and 16 or 32 hex digits.
const WWN: &str =
    "^\\s*(0[xX]|[nN][aA][aA]\\.|[eE][uU][iI]\\.)?([0-9A-Fa-f]{16}|[0-9A-Fa-f]{32})\\s*$";

/// `InstallDiskHint::parse`: Ironic's root-device hints, at least one, every one matched. Its
/// limits are `install_disk`'s, handed in (text and name lengths, the largest size in GiB), so
/// this module names no value type.
pub fn install_disk(max_text: usize, max_name: usize, max_gib: u64) -> RefOr<Schema> {
    use utoipa::openapi::schema::{AdditionalProperties, OneOfBuilder};
    let text = |max: usize, description: &str| string(TEXT, description).max_length(Some(max));
    let gib = || {
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(1))
            .maximum(Some(max_gib as f64))
    };
    let closed =
        |o: ObjectBuilder| o.additional_properties(Some(AdditionalProperties::FreeForm(false)));
    let size = OneOfBuilder::new()
        .item(gib().description(Some(
            "Exactly this many whole GiB (a 480 GB disk is 447 GiB)",
        )))
        .item(
            closed(
                ObjectBuilder::new()
                    .schema_type(Type::Object)
                    .property("min", gib())
                    .property("max", gib())
                    .min_properties(Some(1)),
            )
            .description(Some(
                "A range of whole GiB, either bound optional, min ≤ max",
            )),
        );
    closed(
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .min_properties(Some(1))
            .description(Some(
                "The disk to install on, in Ironic's root-device-hint vocabulary: every key given must match one disk of the server (text without case). Left out: the smallest local disk of at least 16 GiB, never a SAN LUN, USB disk, SD card, multipath or answer disk",
            ))
            .property("serial", text(max_text, "The disk's serial number"))
            .property(
                "wwn",
                string(WWN, "The disk's world-wide name: 0x and 16 or 32 hex digits, like 0x5000c500a1b2c3d4")
                    .max_length(Some(max_text)),
            )
            .property("model", text(max_text, "The disk's model, whole"))
            .property("vendor", text(max_text, "The disk's vendor, whole"))
            .property("size_gb", size)
            .property(
                "name",
                text(
                    max_name,
                    "A device path (/dev/sda, /dev/disk/by-path/…) or the name or slot the server's manager gives the disk",
                ),
            )
            .property(
                "rotational",
                ObjectBuilder::new()
                    .schema_type(Type::Boolean)
                    .description(Some("A spinning disk (true) or an SSD or NVMe disk (false)")),
            ),
    )
    .into()
}
