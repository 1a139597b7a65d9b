//! D1: the logins issue HS256 JWTs with `exp`; every other route demands a
//! valid one in `x-access-token`.

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation, decode, encode};
use serde::{Deserialize, Serialize};

use super::clock::Clock;

/// The sandbox's one account, and its one API key (D1).
pub(crate) const DEMO_USER: &str = "demo";
pub(crate) const DEMO_PASSWORD: &str = "demo";
pub const DEMO_API_KEY_NAME: &str = "demo";
pub const DEMO_API_KEY: &str = "demo";

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    sub: String,
    iat: i64,
    exp: i64,
}

/// Signs and checks tokens. The key is kept out of `Debug`.
pub(crate) struct Auth {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    ttl_secs: i64,
    clock: Clock,
}

impl std::fmt::Debug for Auth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Auth")
            .field("ttl_secs", &self.ttl_secs)
            .field("clock", &self.clock)
            .finish_non_exhaustive()
    }
}

impl Auth {
    pub(crate) fn new(secret: &[u8], ttl_secs: i64, clock: Clock) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        // `verify` checks expiry against `clock`; the library would check it
        // against the computer's clock.
        validation.validate_exp = false;
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp", "sub"]);
        Self {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
            ttl_secs,
            clock,
        }
    }

    /// Issues a token valid for the configured lifetime from now: the
    /// computer's clock whatever instant the simulated data stands at,
    /// unless time is moved by hand ([`Clock::token_now`]).
    pub(crate) fn issue(&self, user: &str) -> Result<String, jsonwebtoken::errors::Error> {
        self.issue_at(user, self.clock.token_now())
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
    pub(crate) fn verify(&self, token: &str) -> Result<(), &'static str> {
        match decode::<Claims>(token, &self.decoding, &self.validation) {
            // Expiry is exact, with no leeway: a token is accepted before its
            // `exp` second and refused from it on: `exp` is the first second
            // it is no longer valid.
            Ok(data) if data.claims.exp <= self.clock.token_now() => {
                Err("the access token has expired")
            }
            Ok(_) => Ok(()),
            Err(e) => Err(match e.kind() {
                ErrorKind::InvalidSignature => "the access token signature is invalid",
                _ => "the access token is malformed",
            }),
        }
    }

    pub(crate) fn check_password(user: &str, password: &str) -> bool {
        user == DEMO_USER && password == DEMO_PASSWORD
    }

    pub(crate) fn check_api_key(name: &str, key: &str) -> bool {
        name == DEMO_API_KEY_NAME && key == DEMO_API_KEY
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;

    #[test]
    fn issued_tokens_verify_until_they_expire() {
        let auth = Auth::new(b"k1", 60, Clock::System);
        let now = fleetview_api::time::now_secs();
        let token = auth.issue("demo").expect("sign");
        assert_eq!(auth.verify(&token), Ok(()));
        let other = Auth::new(b"k2", 60, Clock::System);
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

    #[test]
    fn tokens_expire_on_a_clock_moved_by_hand() {
        let hand = ManualClock::new(1_750_000_000);
        let auth = Auth::new(b"k1", 60, Clock::Manual(hand.clone()));
        let token = auth.issue("demo").expect("sign");
        hand.advance(59);
        assert_eq!(auth.verify(&token), Ok(()), "valid before its exp second");
        hand.advance(1);
        assert_eq!(
            auth.verify(&token),
            Err("the access token has expired"),
            "expired at its exp second"
        );
        // Another key is refused for its signature, whatever the time.
        let other = Auth::new(b"k2", 60, Clock::Manual(hand));
        assert_eq!(
            other.verify(&token),
            Err("the access token signature is invalid")
        );
    }
}
