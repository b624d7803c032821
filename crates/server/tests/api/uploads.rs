//! The operator's images over HTTP: one uploaded (as the console does) is served at
//! `/upload/image/<name>` with its recognised type, and the `logo` setting names it. (The
//! casino's categories and game images are in casino_lobby.rs.)

use crate::both_databases;
use crate::common::TestApp;
use backlay_kit::uploads::upload_image;
use backlay_operator::{self as operator, Actor, OperatorContext};

fn png() -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.extend((0..200u32).map(|i| (i % 251) as u8));
    bytes
}

async fn an_uploaded_logo_is_served_at_upload_image(app: TestApp) {
    let store = app.store().await;
    let console = OperatorContext { store: &store, actor: Actor::Console, client_ip: None };
    let name = upload_image(&console, "Brand Logo.png", &png()).await.expect("upload");
    assert_eq!(name, "brand-logo.png");
    let origin = app.base.trim_end_matches("/api");

    let answer = app.client.get(format!("{origin}/upload/image/{name}")).send().await.unwrap();
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.headers()["content-type"], "image/png");
    assert_eq!(answer.headers()["x-content-type-options"], "nosniff");
    assert_eq!(answer.bytes().await.unwrap().to_vec(), png());

    // Uploading the name again replaces the image.
    let mut gif = b"GIF89a".to_vec();
    gif.extend_from_slice(&[1, 2, 3, 4]);
    assert_eq!(upload_image(&console, "brand-logo", &gif).await.unwrap(), "brand-logo.gif");
    let again =
        app.client.get(format!("{origin}/upload/image/brand-logo.gif")).send().await.unwrap();
    assert_eq!(again.headers()["content-type"], "image/gif");

    for missing in ["nothing.png", "..%2Fsecret.key", "Brand-Logo.png", "brand-logo.svg"] {
        let answer =
            app.client.get(format!("{origin}/upload/image/{missing}")).send().await.unwrap();
        assert_eq!(answer.status(), 404, "{missing}");
    }

    // The setting names the upload; the client serves it from /upload/image/<logo>.
    operator::update_settings(&console, &[("logo".into(), name.clone())]).await.unwrap();
    let setting = app.get("globalSetting/getGlobalSetting", None).await;
    assert_eq!(setting.data()["logo"], "brand-logo.png");

    // Only an admin uploads: an agent acting through the operator functions is refused.
    let agent_id = app.user_id(&app.admin().await, "agent").await;
    let agent = store.user_by_id(agent_id).await.unwrap();
    let as_agent = OperatorContext { store: &store, actor: Actor::User(agent), client_ip: None };
    let refused = upload_image(&as_agent, "x.png", &png()).await.unwrap_err();
    assert!(refused.to_string().contains("Only an admin"), "{refused}");
}
both_databases!(an_uploaded_logo_is_served_at_upload_image);

async fn the_admin_uploads_an_image_through_the_api(app: TestApp) {
    let (admin, agent, demo) = (app.admin().await, app.agent().await, app.demo().await);
    let answer = app.post_raw("admin/upload/image?name=Fav%20Icon.png", Some(&admin), png()).await;
    answer.expect(200);
    assert_eq!(answer.data()["name"], "fav-icon.png");
    assert_eq!(answer.data()["url"], "/upload/image/fav-icon.png");
    let origin = app.base.trim_end_matches("/api");
    let served =
        app.client.get(format!("{origin}/upload/image/fav-icon.png")).send().await.unwrap();
    assert_eq!(served.status(), 200);
    assert_eq!(served.bytes().await.unwrap().to_vec(), png());

    // Bigger than the API's usual 64 KiB bound is fine up to 512 KiB; over it is a 413.
    let mut large = png();
    large.resize(300 * 1024, 7);
    app.post_raw("admin/upload/image?name=banner.png", Some(&admin), large).await.expect(200);
    let mut huge = png();
    huge.resize(513 * 1024, 7);
    let too_big = app.post_raw("admin/upload/image?name=huge.png", Some(&admin), huge).await;
    too_big.expect(413);
    assert!(too_big.message().contains("at most 512 KiB"), "{}", too_big.body);

    let svg = app
        .post_raw(
            "admin/upload/image?name=logo.svg",
            Some(&admin),
            "<svg><script>alert(1)</script></svg>",
        )
        .await;
    svg.expect(400);
    assert!(svg.field_error("file").contains("PNG, JPEG, GIF, WebP or ICO"));
    app.post_raw("admin/upload/image?name=empty.png", Some(&admin), Vec::new()).await.expect(400);
    let unnamed = app.post_raw("admin/upload/image", Some(&admin), png()).await;
    unnamed.expect(400);
    assert!(unnamed.field_error("name").contains("?name=logo.png"));
    let nameless = app.post_raw("admin/upload/image?name=%25%25.png", Some(&admin), png()).await;
    nameless.expect(400);
    assert!(nameless.field_error("name").contains("letters or digits"));

    // Admin only.
    app.post_raw("admin/upload/image?name=x.png", Some(&agent), png()).await.expect(403);
    app.post_raw("admin/upload/image?name=x.png", Some(&demo), png()).await.expect(403);
    app.post_raw("admin/upload/image?name=x.png", None, png()).await.expect(401);
    let missing = app.client.get(format!("{origin}/upload/image/x.png")).send().await.unwrap();
    assert_eq!(missing.status(), 404);
    // The usual bound still holds everywhere else.
    let mut big_json = b"{\"x\":\"".to_vec();
    big_json.resize(100 * 1024, b'a');
    big_json.extend_from_slice(b"\"}");
    app.post_raw("admin/payment/details", Some(&admin), big_json).await.expect(413);
}
both_databases!(the_admin_uploads_an_image_through_the_api);
