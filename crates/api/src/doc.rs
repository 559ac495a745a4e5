//! The parts of the OpenAPI document that follow from how the router is built rather than
//! from one handler: the token in front of `/api/*`, the JSON-body extractor's refusals, the
//! query and path extractors' refusals. Written once here so no operation can forget them; and
//! what utoipa's annotations cannot say (links between operations, bodies and headers that are
//! left out rather than null).

use utoipa::openapi::path::{Operation, PathItem};
use utoipa::openapi::schema::SchemaType;
use utoipa::openapi::{
    ContentBuilder, HeaderBuilder, OpenApi, Ref, RefOr, Response, ResponseBuilder, Schema, Type,
};

/// The shared error answers, by the name they have under `components/responses`.
const COMMON: [(&str, &str, &str); 4] = [
    (
        "Unauthorized",
        "401",
        "No or a wrong API token (`unauthorized`)",
    ),
    (
        "BadRequest",
        "400",
        "Bad input: a body that is not JSON or has the wrong shape (`malformed_json`, `invalid_body`, `missing_body`), a malformed query string or path, or a value the rules refuse",
    ),
    (
        "PayloadTooLarge",
        "413",
        "The body is over 2 MiB (`body_too_large`)",
    ),
    (
        "UnsupportedMediaType",
        "415",
        "A body without `Content-Type: application/json` (`unsupported_media_type`)",
    ),
];

/// Operations that talk to a server group's manager, and so can answer what a manager does:
/// a refused login, an untrusted certificate, a failure, a time-out.
const MANAGER_CALLS: [&str; 19] = [
    "list_servers",
    "list_nics",
    "list_templates",
    "power_servers",
    "get_power_status",
    "list_disks",
    "reset_disks",
    "list_disks_alias",
    "reset_disks_alias",
    "get_fsm",
    "get_fsm_by_body",
    "write_vmedia",
    "write_vmedia_alias",
    "deploy_server_group",
    "deploy_server_group_alias",
    "undeploy_server_group",
    "create_server_group",
    "update_server_group",
    "server_console",
];

/// The manager's answers, by the name they have under `components/responses`.
const MANAGER: [(&str, &str, &str); 4] = [
    (
        "UnauthorizedOrLoginRefused",
        "401",
        "No or a wrong API token (`unauthorized`), or the manager refused the group's login (`ucs_login_failed`, `bmc_login_failed`)",
    ),
    (
        "UntrustedCertificate",
        "422",
        "The manager's certificate is not trusted (`untrusted_certificate`, with its `fingerprint` to send back)",
    ),
    (
        "ManagerFailed",
        "502",
        "The manager failed, refused the call (with its `ucs_code`; a BMC's own message) or could not be reached",
    ),
    (
        "ManagerTimeout",
        "504",
        "The manager did not answer in time (`ucs_timeout`, `bmc_timeout`)",
    ),
];

/// Where the answer of one operation leads: `(from operation, status, link name, to operation,
/// path parameters, request body)`, with runtime expressions for the values. Records are named
/// in the body of the calls that change them, so without links a client (or a fuzzer) cannot
/// tell which later call acts on the record just made.
type LinkSpec = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
    Option<fn() -> serde_json::Value>,
);

const LINKS: &[LinkSpec] = &[
    (
        "create_network",
        "201",
        "DeleteNetwork",
        "delete_network",
        &[],
        Some(|| serde_json::json!({"id": "$response.body#/id"})),
    ),
    (
        "create_aci",
        "201",
        "DeleteAci",
        "delete_aci",
        &[],
        Some(|| serde_json::json!({"id": "$response.body#/id"})),
    ),
    (
        "create_server_group",
        "201",
        "DeleteServerGroup",
        "delete_server_group",
        &[],
        Some(|| serde_json::json!({"name": "$response.body#/name"})),
    ),
    (
        "create_server_group",
        "201",
        "ListServers",
        "list_servers",
        &[("server_group", "$response.body#/name")],
        None,
    ),
    (
        "create_server_group",
        "201",
        "ListTemplates",
        "list_templates",
        &[("server_group", "$response.body#/name")],
        None,
    ),
    (
        "create_server_group",
        "201",
        "GetPowerStatus",
        "get_power_status",
        &[("server_group", "$response.body#/name")],
        None,
    ),
    (
        "list_jobs",
        "200",
        "GetFirstJob",
        "get_job",
        &[("id", "$response.body#/jobs/0/id")],
        None,
    ),
    (
        "list_jobs",
        "200",
        "StreamFirstJob",
        "stream_job_events",
        &[("id", "$response.body#/jobs/0/id")],
        None,
    ),
];

fn add_links(doc: &mut OpenApi) {
    for (from, status, name, to, params, body) in LINKS {
        let mut link = serde_json::json!({"operationId": to});
        if !params.is_empty() {
            link["parameters"] = params
                .iter()
                .map(|(k, v)| (k.to_string(), serde_json::Value::from(*v)))
                .collect();
        }
        if let Some(body) = body {
            link["requestBody"] = body();
        }
        let op = doc
            .paths
            .paths
            .values_mut()
            .flat_map(operations)
            .find(|op| op.operation_id.as_deref() == Some(from))
            .unwrap_or_else(|| panic!("link from unknown operation {from}"));
        let Some(RefOr::T(response)) = op.responses.responses.get_mut(*status) else {
            panic!("link from {from} {status}, which it does not answer");
        };
        // Written as an extension: utoipa's `Link` serialises its fields in snake_case
        // (`operation_id`), which no OpenAPI reader knows.
        let links = response
            .extensions
            .get_or_insert_with(Default::default)
            .entry("links".to_owned())
            .or_insert_with(|| serde_json::json!({}));
        links[*name] = link;
    }
}

/// Complete the document: the answers every operation of its kind can give (and the shared
/// responses they point to), the links, and no `null` where a value is left out instead.
pub(crate) fn complete(doc: &mut OpenApi) {
    add_links(doc);
    split_inputs(doc);
    one_of_fields(doc);
    non_empty_lists(doc);
    parameter_schemas(doc);
    let components = doc.components.get_or_insert_with(Default::default);
    for (name, status, description) in COMMON.iter().chain(&MANAGER) {
        components.responses.insert(
            name.to_string(),
            RefOr::T(error_response(status, description)),
        );
    }
    for (path, item) in doc.paths.paths.iter_mut() {
        for op in operations(item) {
            optional_body_is_not_null(op);
            headers_are_not_null(op);
            // Before the token's 401, so a manager call's 401 names both causes.
            if op
                .operation_id
                .as_deref()
                .is_some_and(|id| MANAGER_CALLS.contains(&id))
            {
                for (name, status, _) in MANAGER {
                    add(op, status, name);
                }
            }
            // `/api/*` sits behind the token middleware; `/`, `/svc/*` and what the operation
            // itself declares open (the document, the installers' callbacks) do not.
            if path.starts_with("/api/") && !is_open(op) {
                add(op, "401", "Unauthorized");
            }
            required_query(op);
            let json_body = op
                .request_body
                .as_ref()
                .is_some_and(|b| b.content.contains_key("application/json"));
            if json_body {
                add(op, "400", "BadRequest");
                add(op, "413", "PayloadTooLarge");
                add(op, "415", "UnsupportedMediaType");
            }
            // A query string or path segment that does not parse is refused by its extractor.
            if op.parameters.as_ref().is_some_and(|ps| !ps.is_empty()) && path.starts_with("/api/")
            {
                add(op, "400", "BadRequest");
            }
        }
    }
}

/// Record bodies that create and update share in the code (one input type, so both run the
/// same checks), as two schemas in the document: `<Kind>Create` without `id` (a create
/// refuses one) and `<Kind>Update` with `id` required. By input schema, then the create and
/// update operations.
const SPLIT_INPUTS: [(&str, &str, &str); 3] = [
    ("NetworkInput", "create_network", "update_network"),
    (
        "ServerGroupInput",
        "create_server_group",
        "update_server_group",
    ),
    ("AciInput", "create_aci", "update_aci"),
];

fn split_inputs(doc: &mut OpenApi) {
    use utoipa::openapi::schema::Schema as S;
    let Some(components) = doc.components.as_mut() else {
        return;
    };
    let mut renamed = Vec::new();
    for (input, create, update) in SPLIT_INPUTS {
        let Some(RefOr::T(S::Object(shared))) = components.schemas.get(input).cloned() else {
            continue;
        };
        let kind = input.trim_end_matches("Input");
        let mut on_create = shared.clone();
        on_create.properties.remove("id");
        on_create.required.retain(|r| r != "id");
        let mut on_update = shared;
        if let Some(RefOr::T(S::Object(id))) = on_update.properties.get_mut("id") {
            id.description = Some("The record's id, as GET answers it".into());
            id.format = Some(utoipa::openapi::schema::SchemaFormat::KnownFormat(
                utoipa::openapi::schema::KnownFormat::Uuid,
            ));
            id.schema_type = SchemaType::Type(Type::String);
        }
        if !on_update.required.iter().any(|r| r == "id") {
            on_update.required.insert(0, "id".into());
        }
        components
            .schemas
            .insert(format!("{kind}Create"), S::Object(on_create).into());
        components
            .schemas
            .insert(format!("{kind}Update"), S::Object(on_update).into());
        components.schemas.remove(input);
        renamed.push((create, format!("{kind}Create")));
        renamed.push((update, format!("{kind}Update")));
    }
    for item in doc.paths.paths.values_mut() {
        for op in operations(item) {
            let Some((_, schema)) = renamed
                .iter()
                .find(|(id, _)| op.operation_id.as_deref() == Some(*id))
            else {
                continue;
            };
            if let Some(content) = op
                .request_body
                .as_mut()
                .and_then(|b| b.content.get_mut("application/json"))
            {
                content.schema = Some(Ref::from_schema_name(schema.as_str()).into());
            }
        }
    }
}

/// Delete bodies that name a record by one of several fields, by schema: at least one of the
/// fields must be a non-empty string (the core counts an empty one as left out, and refuses a
/// body naming nothing with 400). Written as JSON Schema's `not` over "every field empty or
/// absent", which client generators leave alone while validators and fuzzers read it.
const ONE_OF_FIELDS: [(&str, &[&str]); 3] = [
    ("NetworkRef", &["id", "name"]),
    ("AciRef", &["id", "name"]),
    ("ServerGroupRef", &["name", "id", "uid"]),
];

fn one_of_fields(doc: &mut OpenApi) {
    let Some(components) = doc.components.as_mut() else {
        return;
    };
    for (name, fields) in ONE_OF_FIELDS {
        let Some(RefOr::T(Schema::Object(schema))) = components.schemas.get_mut(name) else {
            panic!("no object schema {name} to require one of {fields:?} in");
        };
        let none: serde_json::Map<String, serde_json::Value> = fields
            .iter()
            .map(|f| (f.to_string(), serde_json::json!({"maxLength": 0})))
            .collect();
        schema
            .extensions
            .get_or_insert_with(Default::default)
            .insert("not".to_owned(), serde_json::json!({"properties": none}));
    }
}

/// Operations whose JSON body is a list the core refuses empty: a host list that would remove
/// every host (`empty_host_list`), image runs for no host.
const NON_EMPTY_LISTS: [&str; 3] = ["replace_hosts", "replace_hosts_put", "create_images"];

fn non_empty_lists(doc: &mut OpenApi) {
    for item in doc.paths.paths.values_mut() {
        for op in operations(item) {
            if !op
                .operation_id
                .as_deref()
                .is_some_and(|id| NON_EMPTY_LISTS.contains(&id))
            {
                continue;
            }
            let list = op
                .request_body
                .as_mut()
                .and_then(|b| b.content.get_mut("application/json"))
                .and_then(|c| c.schema.as_mut());
            match list {
                Some(RefOr::T(Schema::Array(list))) => list.min_items = Some(1),
                _ => panic!("{:?} has no list body", op.operation_id),
            }
        }
    }
}

/// A parameter by operation and name, with the function that writes its schema.
type ParameterSchema = (&'static str, &'static str, fn() -> Schema);

/// Parameters whose schema the core writes (one rule, one place); the annotations can only
/// name a type.
const PARAMETER_SCHEMAS: [ParameterSchema; 1] =
    [("upload_iso", "file", bootsmith_model::schema::iso_name)];

fn parameter_schemas(doc: &mut OpenApi) {
    for item in doc.paths.paths.values_mut() {
        for op in operations(item) {
            for (id, name, schema) in PARAMETER_SCHEMAS {
                if op.operation_id.as_deref() != Some(id) {
                    continue;
                }
                let p = op
                    .parameters
                    .iter_mut()
                    .flatten()
                    .find(|p| p.name == name)
                    .unwrap_or_else(|| panic!("{id} has no parameter {name}"));
                p.schema = Some(schema().into());
            }
        }
    }
}

/// Query parameters the core requires although their field is an `Option` (so that it can
/// answer their absence with a sentence), by operation: utoipa marks such fields optional.
const REQUIRED_QUERY: [(&str, &str); 1] = [("server_console", "server")];

fn required_query(op: &mut Operation) {
    use utoipa::openapi::path::ParameterIn;
    use utoipa::openapi::Required;
    let Some(id) = op.operation_id.as_deref() else {
        return;
    };
    let wanted: Vec<&str> = REQUIRED_QUERY
        .iter()
        .filter(|(o, _)| *o == id)
        .map(|(_, p)| *p)
        .collect();
    for p in op.parameters.iter_mut().flatten() {
        if p.parameter_in == ParameterIn::Query && wanted.contains(&p.name.as_str()) {
            p.required = Required::True;
        }
    }
}

/// An operation that declares no security (`security: [{}]`) needs no token.
fn is_open(op: &Operation) -> bool {
    serde_json::to_value(&op.security).is_ok_and(|v| v == serde_json::json!([{}]))
}

/// An optional body is written `Option<T>` in the annotations, which utoipa turns into
/// "T or null"; but the body is optional by being left out, and a JSON `null` is refused
/// like any other non-object. The document says so: the schema is `T`, the body not required.
fn optional_body_is_not_null(op: &mut Operation) {
    let Some(body) = op.request_body.as_mut() else {
        return;
    };
    if body.required == Some(utoipa::openapi::Required::True) {
        return;
    }
    for content in body.content.values_mut() {
        if let Some(RefOr::T(Schema::Array(list))) = &mut content.schema {
            list.schema_type = SchemaType::Type(Type::Array);
        }
        if let Some(schema) = content.schema.as_mut() {
            strip_null(schema);
        }
    }
}

/// A header is there or not; it cannot be JSON `null`, which utoipa adds for `Option<T>`.
fn headers_are_not_null(op: &mut Operation) {
    use utoipa::openapi::path::ParameterIn;
    for p in op.parameters.iter_mut().flatten() {
        if p.parameter_in == ParameterIn::Header {
            if let Some(schema) = p.schema.as_mut() {
                strip_null(schema);
            }
        }
    }
}

/// `T or null` → `T`.
fn strip_null(schema: &mut RefOr<Schema>) {
    if let RefOr::T(Schema::OneOf(one_of)) = schema {
        let not_null: Vec<_> = one_of
            .items
            .iter()
            .filter(|s| !matches!(s, RefOr::T(Schema::Object(o)) if o.schema_type == SchemaType::Type(Type::Null)))
            .cloned()
            .collect();
        if let [only] = &not_null[..] {
            *schema = only.clone();
        }
    }
}

fn error_response(status: &str, description: &str) -> Response {
    let mut r = ResponseBuilder::new().description(description).content(
        "application/json",
        ContentBuilder::new()
            .schema(Some(Ref::from_schema_name("ErrorBody")))
            .build(),
    );
    if status == "401" {
        r = r.header(
            "WWW-Authenticate",
            HeaderBuilder::new()
                .schema(utoipa::openapi::ObjectBuilder::new().schema_type(Type::String))
                .description(Some("`Bearer`"))
                .build(),
        );
    }
    r.build()
}

/// Keep an operation's own description of `status` when it has one.
fn add(op: &mut Operation, status: &str, common: &str) {
    op.responses
        .responses
        .entry(status.to_owned())
        .or_insert_with(|| RefOr::Ref(Ref::from_response_name(common)));
}

/// Every operation of a path, whatever its method.
pub(crate) fn operations(item: &mut PathItem) -> impl Iterator<Item = &mut Operation> {
    [
        item.get.as_mut(),
        item.put.as_mut(),
        item.post.as_mut(),
        item.delete.as_mut(),
        item.options.as_mut(),
        item.head.as_mut(),
        item.patch.as_mut(),
        item.trace.as_mut(),
    ]
    .into_iter()
    .flatten()
}
