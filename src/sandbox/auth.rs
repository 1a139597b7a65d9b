//! D1: `POST /auth/login` issues HS256 JWTs with `exp`; every other route
//! demands a valid one in `x-access-token`.

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation, decode, encode};
use serde::{Deserialize, Serialize};

/// The sandbox's one account.
pub const DEMO_USER: &str = "demo";
pub const DEMO_PASSWORD: &str = "demo";

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    sub: String,
    iat: i64,
    exp: i64,
}

/// Signs and checks tokens. The key is kept out of `Debug`.
pub struct Auth {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    ttl_secs: i64,
}

impl std::fmt::Debug for Auth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Auth")
            .field("ttl_secs", &self.ttl_secs)
            .finish_non_exhaustive()
    }
}

impl Auth {
    pub fn new(secret: &[u8], ttl_secs: i64) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        // Expiry is exact: a token is refused from its `exp` second on.
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp", "sub"]);
        Self {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
            ttl_secs,
        }
    }

    pub fn ttl_secs(&self) -> i64 {
        self.ttl_secs
    }

    /// Issues a token valid for the configured lifetime from now (the real
    /// clock, whatever clock the simulated data runs on).
    pub fn issue(&self, user: &str) -> Result<String, jsonwebtoken::errors::Error> {
        self.issue_at(user, crate::api::time::now_secs())
    }

    fn issue_at(&self, user: &str, now: i64) -> Result<String, jsonwebtoken::errors::Error> {
        let claims = Claims {
            sub: user.to_owned(),
            iat: now,
            exp: now + self.ttl_secs,
        };
        encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
    }

    /// Checks a token; the error is the message a 401 carries.
    pub fn verify(&self, token: &str) -> Result<(), &'static str> {
        match decode::<Claims>(token, &self.decoding, &self.validation) {
            Ok(_) => Ok(()),
            Err(e) => Err(match e.kind() {
                ErrorKind::ExpiredSignature => "the access token has expired",
                ErrorKind::InvalidSignature => "the access token signature is invalid",
                _ => "the access token is malformed",
            }),
        }
    }

    pub fn check_password(user: &str, password: &str) -> bool {
        user == DEMO_USER && password == DEMO_PASSWORD
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issued_tokens_verify_until_they_expire() {
        let auth = Auth::new(b"k1", 60);
        let now = crate::api::time::now_secs();
        let token = auth.issue("demo").expect("sign");
        assert_eq!(auth.verify(&token), Ok(()));
        let other = Auth::new(b"k2", 60);
        assert_eq!(
            other.verify(&token),
            Err("the access token signature is invalid")
        );
        assert_eq!(
            auth.verify("not-a-jwt"),
            Err("the access token is malformed")
        );
        let old = auth.issue_at("demo", now - 3600).expect("sign");
        assert_eq!(auth.verify(&old), Err("the access token has expired"));
    }
}
