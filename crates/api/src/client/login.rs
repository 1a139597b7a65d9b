//! Logging in with the API key: one login at a time for a client and its
//! clones, its failure shared by the requests that waited for it.

use std::sync::atomic::Ordering;

use super::super::equipment::{ApiKeyLogin, LoginAnswer, UserInfo};
use super::super::error::ApiError;
use super::super::model::SecretValue;
use super::{ApiClient, Method, decode_error, decode_json};

impl ApiClient {
    /// `POST /login` (D1): an API key's name and key for a token and who it
    /// belongs to. Changes nothing in this client (see
    /// [`ApiClient::log_in_with_key`]); never retried.
    pub async fn login(&self, name: &str, api_key: &SecretValue) -> Result<LoginAnswer, ApiError> {
        let endpoint = "POST /login";
        let body = serde_json::to_vec(&ApiKeyLogin {
            name: name.to_owned(),
            api_key: api_key.clone(),
        })
        .map_err(|e| decode_error(endpoint, &format!("could not encode the login: {e}"), false))?;
        let (bytes, _) = self
            .send_once(
                Method::POST,
                self.url("login", &[])?,
                Some(body),
                endpoint,
                None,
            )
            .await?;
        decode_json(&bytes, endpoint)
    }

    /// Logs in with the API key unless another request did so since
    /// `refused` was sent (then its token is used, or its failure said):
    /// one login for all the requests refused together.
    pub(super) async fn log_in_again(
        &self,
        refused: Option<&SecretValue>,
    ) -> Result<SecretValue, ApiError> {
        let key = self.config.api_key.as_ref().ok_or(ApiError::NoToken)?;
        let finished_before = self.session.logins.load(Ordering::SeqCst);
        let _turn = self.session.login.lock().await;
        if let Some(current) = self.session.token()
            && Some(&current) != refused
        {
            return Ok(current);
        }
        self.shared_failure(finished_before)?;
        let answer = self.log_in_now(&key.name, &key.key).await?;
        Ok(self.session.logged_in(&answer))
    }

    /// Logs in with the client's API key now and uses the token from then
    /// on: who the key belongs to. Without a key, or with a token given
    /// (used until it is refused), nothing to do. A login that another
    /// request had out meanwhile is used (or its failure said), not sent
    /// again.
    pub async fn log_in_with_key(&self) -> Result<Option<UserInfo>, ApiError> {
        let Some(key) = &self.config.api_key else {
            return Ok(None);
        };
        if self.session.token().is_some() {
            return Ok(None);
        }
        let finished_before = self.session.logins.load(Ordering::SeqCst);
        let _turn = self.session.login.lock().await;
        if self.session.token().is_some() {
            return Ok(self.session.user());
        }
        self.shared_failure(finished_before)?;
        let answer = self.log_in_now(&key.name, &key.key).await?;
        self.session.logged_in(&answer);
        Ok(Some(answer.user()))
    }

    /// The failure of a login that ended since `finished_before` was read
    /// (while this request waited for its turn), to say rather than send
    /// the login again. Called holding the login lock.
    fn shared_failure(&self, finished_before: u64) -> Result<(), ApiError> {
        if self.session.logins.load(Ordering::SeqCst) == finished_before {
            return Ok(());
        }
        let failure = self.session.login_failure.read();
        match failure.unwrap_or_else(|e| e.into_inner()).clone() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// One login, its failure kept and only then counted as ended, so
    /// requests waiting for it see both together. Called holding the
    /// login lock.
    async fn log_in_now(&self, name: &str, key: &SecretValue) -> Result<LoginAnswer, ApiError> {
        let answer = self.login(name, key).await;
        let failure = &self.session.login_failure;
        *failure.write().unwrap_or_else(|e| e.into_inner()) = answer.as_ref().err().cloned();
        self.session.logins.fetch_add(1, Ordering::SeqCst);
        answer
    }
}
