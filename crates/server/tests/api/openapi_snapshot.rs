//! The web app's copy of the OpenAPI document (web/src/api/openapi.json, from which its API
//! types are generated) is the document the server serves: a change to the API's annotations
//! fails here until `npm run gen:api` in web/ refreshes the copy and the types.

use backlay_server::openapi_document;

const SNAPSHOT: &str = "web/src/api/openapi.json";

#[test]
fn the_web_apps_openapi_snapshot_is_the_served_document() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/src/api/openapi.json");
    let committed: serde_json::Value = std::fs::read_to_string(path)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    let served = serde_json::to_value(openapi_document()).expect("the document is JSON");
    assert!(
        committed == served,
        "{SNAPSHOT} is stale against the server's OpenAPI document: run `npm run gen:api` in web/ \
         and commit it with web/src/api/schema.ts"
    );
}
