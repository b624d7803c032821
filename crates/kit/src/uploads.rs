//! The operator's uploaded images (logos, favicons): checked and stored in the database
//! ([`backlay_store::uploads`]), and served at `/upload/image/<name>`, the path the spec's client
//! reads logos from. The `logo` and `favicon` settings hold the bare name (`logo.png`), which
//! the web client turns into `/upload/image/logo.png`.
//!
//! What is taken: PNG, JPEG, GIF, WebP and ICO, recognised by their first bytes (never by the
//! name or a declared type), at most [`MAX_IMAGE_BYTES`]; no SVG, which can carry script. A
//! name is reduced to lower-case letters, digits, `-` and `_`, with the extension of the type
//! found: `../My Logo (1).PNG` is stored as `my-logo-1.png`. An image is served with its
//! recognised type, `nosniff`, and `no-cache` (a name may be uploaded again).

use crate::actor::OperatorContext;
use crate::clock::now_ms;
use crate::error::AppError;

/// The largest image taken: a logo or favicon is far smaller.
pub const MAX_IMAGE_BYTES: usize = 512 * 1024;
/// The longest stored name, extension included.
pub const IMAGE_NAME_MAX_CHARS: usize = 64;

/// An image type this server stores, by its signature.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ImageType {
    Png,
    Jpeg,
    Gif,
    Webp,
    Ico,
}

impl ImageType {
    /// The type the bytes begin with, if one of those taken.
    pub fn sniff(bytes: &[u8]) -> Option<ImageType> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(ImageType::Png)
        } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(ImageType::Jpeg)
        } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
            Some(ImageType::Gif)
        } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
            Some(ImageType::Webp)
        } else if bytes.starts_with(&[0, 0, 1, 0]) && bytes.len() > 6 {
            Some(ImageType::Ico)
        } else {
            None
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            ImageType::Png => "image/png",
            ImageType::Jpeg => "image/jpeg",
            ImageType::Gif => "image/gif",
            ImageType::Webp => "image/webp",
            ImageType::Ico => "image/x-icon",
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            ImageType::Png => "png",
            ImageType::Jpeg => "jpg",
            ImageType::Gif => "gif",
            ImageType::Webp => "webp",
            ImageType::Ico => "ico",
        }
    }
}

/// The name an upload is stored under: the last path segment of `given`, without its
/// extension, in lower case with every run of other characters turned into one `-`, then the
/// extension of the type found. `None` when nothing usable is left.
pub fn image_name(given: &str, kind: ImageType) -> Option<String> {
    let file = given.rsplit(['/', '\\']).next().unwrap_or_default();
    let stem = match file.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => file,
    };
    let mut name = String::new();
    for c in stem.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() || c == '_' {
            name.push(c);
        } else if !name.ends_with('-') && !name.is_empty() {
            name.push('-');
        }
    }
    let extension = kind.extension();
    let room = IMAGE_NAME_MAX_CHARS - extension.len() - 1;
    let stem: String = name.trim_end_matches('-').chars().take(room).collect();
    let stem = stem.trim_end_matches('-');
    (!stem.is_empty()).then(|| format!("{stem}.{extension}"))
}

/// The address an uploaded image is served at (`/upload/image/logo.png`).
pub fn image_url(name: &str) -> String {
    format!("/upload/image/{name}")
}

/// Whether `name` is one [`image_name`] could have made (a request for anything else is a 404
/// without asking the database).
pub fn is_stored_name(name: &str) -> bool {
    name.len() <= IMAGE_NAME_MAX_CHARS
        && name.split_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty()
                && stem
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
                && ["png", "jpg", "gif", "webp", "ico"].contains(&ext)
        })
}

/// Checks and stores an image (admin or console only); answers the name it is served under.
/// An image of that name is replaced.
pub async fn upload_image(
    ctx: &OperatorContext<'_>,
    given_name: &str,
    bytes: &[u8],
) -> Result<String, AppError> {
    ctx.require_admin("upload images")?;
    if bytes.is_empty() {
        return Err(AppError::field("file", "The file is empty."));
    }
    if bytes.len() > MAX_IMAGE_BYTES {
        return Err(AppError::field(
            "file",
            format!(
                "An image may be at most {} KiB; this one is {} KiB.",
                MAX_IMAGE_BYTES / 1024,
                bytes.len().div_ceil(1024)
            ),
        ));
    }
    let kind = ImageType::sniff(bytes).ok_or_else(|| {
        AppError::field(
            "file",
            "Upload a PNG, JPEG, GIF, WebP or ICO image (SVG and other files are not taken).",
        )
    })?;
    let name = image_name(given_name, kind).ok_or_else(|| {
        AppError::field("name", "Give the image a name with letters or digits, e.g. logo.png.")
    })?;
    let mut writer = ctx.store.begin_write().await?;
    writer.put_uploaded_image(&name, kind.content_type(), bytes, now_ms()).await?;
    ctx.audit(
        &mut writer,
        "image.upload",
        format!("image:{name}"),
        serde_json::json!({ "type": kind.content_type(), "bytes": bytes.len() }),
    )
    .await?;
    writer.commit().await?;
    Ok(name)
}

/// Removes an uploaded image (admin or console only).
pub async fn remove_image(ctx: &OperatorContext<'_>, name: &str) -> Result<(), AppError> {
    ctx.require_admin("remove images")?;
    let mut writer = ctx.store.begin_write().await?;
    if !writer.remove_uploaded_image(name.trim()).await? {
        return Err(AppError::NotFound(format!("There is no uploaded image {}.", name.trim())));
    }
    ctx.audit(
        &mut writer,
        "image.remove",
        format!("image:{}", name.trim()),
        serde_json::Value::Null,
    )
    .await?;
    writer.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{image_name, is_stored_name, ImageType};

    #[test]
    fn types_are_known_by_their_first_bytes() {
        assert_eq!(ImageType::sniff(b"\x89PNG\r\n\x1a\n...."), Some(ImageType::Png));
        assert_eq!(ImageType::sniff(&[0xFF, 0xD8, 0xFF, 0xE0]), Some(ImageType::Jpeg));
        assert_eq!(ImageType::sniff(b"GIF89a..."), Some(ImageType::Gif));
        assert_eq!(ImageType::sniff(b"RIFF\0\0\0\0WEBPVP8 "), Some(ImageType::Webp));
        assert_eq!(ImageType::sniff(&[0, 0, 1, 0, 1, 0, 16, 16]), Some(ImageType::Ico));
        assert_eq!(ImageType::sniff(b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>"), None);
        assert_eq!(ImageType::sniff(b"<html>"), None);
    }

    #[test]
    fn names_are_reduced_to_safe_ones_with_the_types_extension() {
        assert_eq!(image_name("logo.png", ImageType::Png).as_deref(), Some("logo.png"));
        assert_eq!(
            image_name("../My Logo (1).PNG", ImageType::Png).as_deref(),
            Some("my-logo-1.png")
        );
        assert_eq!(image_name("C:\\x\\fav.icon", ImageType::Ico).as_deref(), Some("fav.ico"));
        assert_eq!(image_name("photo.png", ImageType::Jpeg).as_deref(), Some("photo.jpg"));
        assert_eq!(image_name("site_logo", ImageType::Gif).as_deref(), Some("site_logo.gif"));
        assert_eq!(image_name("..", ImageType::Png), None);
        assert_eq!(image_name("%%%.png", ImageType::Png), None);
        let long = image_name(&"a".repeat(100), ImageType::Webp).unwrap();
        assert_eq!(long.len(), 64);
        assert!(is_stored_name(&long));
        assert!(is_stored_name("my-logo-1.png"));
        assert!(!is_stored_name("../etc.png"));
        assert!(!is_stored_name("logo.svg"));
        assert!(!is_stored_name("Logo.png"));
    }
}
