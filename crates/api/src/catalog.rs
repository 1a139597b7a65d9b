//! The catalog: data sources, and the integrations that feed a fleet's
//! data (list, create, update, delete, activate, deactivate). Writes are
//! sent once, never retried.

use reqwest::Method;

use super::client::ApiClient;
use super::error::ApiError;
use super::model::{
    CreateIntegration, CreateIntegrationResponse, DataSource, DataSourceList, Integration,
    IntegrationIdResponse, IntegrationList, UpdateIntegration, UpdateIntegrationResponse,
};

impl ApiClient {
    pub async fn data_sources(&self) -> Result<Vec<DataSource>, ApiError> {
        let list: DataSourceList = self.get_json("catalog/dataSources", &[]).await?;
        Ok(list.data_sources)
    }

    pub async fn integrations(&self) -> Result<Vec<Integration>, ApiError> {
        let list: IntegrationList = self.get_json("catalog/integrations", &[]).await?;
        Ok(list.integrations)
    }

    pub async fn create_integration(
        &self,
        body: &CreateIntegration,
    ) -> Result<CreateIntegrationResponse, ApiError> {
        self.write(Method::POST, "catalog/integrations", Some(body))
            .await
    }

    pub async fn update_integration(
        &self,
        id: i64,
        body: &UpdateIntegration,
    ) -> Result<UpdateIntegrationResponse, ApiError> {
        self.write(
            Method::PATCH,
            &format!("catalog/integrations/{id}"),
            Some(body),
        )
        .await
    }

    pub async fn delete_integration(&self, id: i64) -> Result<IntegrationIdResponse, ApiError> {
        self.write(
            Method::DELETE,
            &format!("catalog/integrations/{id}"),
            None::<&()>,
        )
        .await
    }

    pub async fn activate_integration(&self, id: i64) -> Result<IntegrationIdResponse, ApiError> {
        self.write(
            Method::POST,
            &format!("catalog/integrations/{id}/activate"),
            None::<&()>,
        )
        .await
    }

    pub async fn deactivate_integration(&self, id: i64) -> Result<IntegrationIdResponse, ApiError> {
        self.write(
            Method::POST,
            &format!("catalog/integrations/{id}/deactivate"),
            None::<&()>,
        )
        .await
    }
}
