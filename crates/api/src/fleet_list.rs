//! The fleet's identities and latest values (D2): `GET /v2/fleet/equipments`
//! and `/snapshot`, paged by 50 (D5) and filtered by `search`, and one
//! machine's record and snapshot. The deprecated fleet history is read only
//! when a service has no list (it answers 404; see `fleet.rs`).

use futures_util::stream::Stream;
use serde::de::DeserializeOwned;

use super::client::ApiClient;
use super::equipment::{EquipmentRecord, EquipmentSnapshot};
use super::error::ApiError;
use super::fleet::{ListPage, MAX_PAGE, paged};
use super::model::{Envelope, Page};

impl ApiClient {
    async fn list_page<R: DeserializeOwned>(
        &self,
        path: &str,
        search: &str,
        limit: i64,
        offset: i64,
    ) -> Result<ListPage<R>, ApiError> {
        let mut query = vec![
            ("limit", limit.clamp(1, MAX_PAGE).to_string()),
            ("offset", offset.max(0).to_string()),
        ];
        if !search.trim().is_empty() {
            query.push(("search", search.trim().to_owned()));
        }
        let env: Envelope<Page<R>> = self.get_json(path, &query).await?;
        Ok(ListPage {
            offset,
            total: env.data.total,
            rows: env.data.rows,
        })
    }

    /// Every page of a list, `MAX_PAGE` at a time.
    fn all_pages<'a, R: DeserializeOwned + 'a>(
        &'a self,
        path: &'static str,
        search: &'a str,
    ) -> impl Stream<Item = Result<ListPage<R>, ApiError>> + 'a {
        paged(move |offset| self.list_page(path, search, MAX_PAGE, offset))
    }

    /// One page of `GET /v2/fleet/equipments`.
    pub async fn equipments_page(
        &self,
        search: &str,
        limit: i64,
        offset: i64,
    ) -> Result<ListPage<EquipmentRecord>, ApiError> {
        self.list_page("v2/fleet/equipments", search, limit, offset)
            .await
    }

    /// The whole fleet's identities, page by page.
    pub fn equipments<'a>(
        &'a self,
        search: &'a str,
    ) -> impl Stream<Item = Result<ListPage<EquipmentRecord>, ApiError>> + 'a {
        self.all_pages("v2/fleet/equipments", search)
    }

    /// `GET /v2/fleet/equipments/{id}`.
    pub async fn equipment(&self, id: i64) -> Result<EquipmentRecord, ApiError> {
        let env: Envelope<EquipmentRecord> = self
            .get_json(&format!("v2/fleet/equipments/{id}"), &[])
            .await?;
        Ok(env.data)
    }

    /// One page of `GET /v2/fleet/equipments/snapshot`.
    pub async fn snapshots_page(
        &self,
        search: &str,
        limit: i64,
        offset: i64,
    ) -> Result<ListPage<EquipmentSnapshot>, ApiError> {
        self.list_page("v2/fleet/equipments/snapshot", search, limit, offset)
            .await
    }

    /// The whole fleet's snapshots, page by page.
    pub fn snapshots<'a>(
        &'a self,
        search: &'a str,
    ) -> impl Stream<Item = Result<ListPage<EquipmentSnapshot>, ApiError>> + 'a {
        self.all_pages("v2/fleet/equipments/snapshot", search)
    }

    /// `GET /v2/fleet/equipments/{id}/snapshot`.
    pub async fn snapshot(&self, id: i64) -> Result<EquipmentSnapshot, ApiError> {
        let env: Envelope<EquipmentSnapshot> = self
            .get_json(&format!("v2/fleet/equipments/{id}/snapshot"), &[])
            .await?;
        Ok(env.data)
    }
}
