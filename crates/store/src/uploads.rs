//! Images the operator uploaded (`uploaded_images`): logos and favicons, served by the web
//! server at `/upload/image/<name>` and named by the `logo` and `favicon` settings. They live
//! in the database rather than on one machine's disk, so every node serves the same file and a
//! backup holds them. What may be stored (types, size, names) is the server's rule; the
//! table's CHECKs repeat the bounds.

use sqlx::Row;

use crate::{Store, StoreResult, Writer};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UploadedImage {
    pub name: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
    pub uploaded_at_ms: i64,
}

/// An image's name and size, for listings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageEntry {
    pub name: String,
    pub content_type: String,
    pub size_bytes: i64,
    pub uploaded_at_ms: i64,
}

impl Store {
    pub async fn uploaded_image(&self, name: &str) -> StoreResult<Option<UploadedImage>> {
        let row = sqlx::query(
            "SELECT name, content_type, bytes, uploaded_at_ms FROM uploaded_images WHERE name = $1",
        )
        .bind(name)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(UploadedImage {
            name: row.try_get("name")?,
            content_type: row.try_get("content_type")?,
            bytes: row.try_get("bytes")?,
            uploaded_at_ms: row.try_get("uploaded_at_ms")?,
        }))
    }

    /// Every uploaded image, by name.
    pub async fn uploaded_images(&self) -> StoreResult<Vec<ImageEntry>> {
        let rows = sqlx::query(
            "SELECT name, content_type, size_bytes, uploaded_at_ms FROM uploaded_images ORDER BY name",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| {
                Ok(ImageEntry {
                    name: row.try_get("name")?,
                    content_type: row.try_get("content_type")?,
                    size_bytes: row.try_get("size_bytes")?,
                    uploaded_at_ms: row.try_get("uploaded_at_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}

impl Writer {
    /// Stores an image under its name, replacing one of the same name (a new logo under the
    /// name the setting already holds reaches every page at once).
    pub async fn put_uploaded_image(
        &mut self,
        name: &str,
        content_type: &str,
        bytes: &[u8],
        now_ms: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO uploaded_images (name, content_type, bytes, size_bytes, uploaded_at_ms) \
             VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (name) DO UPDATE SET content_type = excluded.content_type, \
             bytes = excluded.bytes, size_bytes = excluded.size_bytes, uploaded_at_ms = excluded.uploaded_at_ms",
        )
        .bind(name)
        .bind(content_type)
        .bind(bytes.to_vec())
        .bind(bytes.len() as i64)
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        Ok(())
    }

    /// Whether there was an image of that name to remove.
    pub async fn remove_uploaded_image(&mut self, name: &str) -> StoreResult<bool> {
        let deleted = sqlx::query("DELETE FROM uploaded_images WHERE name = $1")
            .bind(name)
            .execute(self.conn())
            .await?
            .rows_affected();
        Ok(deleted > 0)
    }
}
