//! What a feature did with a failed request of its own, in a file of its
//! own so every feature can say it without importing the app's state.

/// After a feature has taken a failure of its request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// Said where it shows (a row, beside a form) or not worth saying:
    /// no notice.
    Said,
    /// To be told as the app tells failures (a notice, or the offline mark).
    Notice,
}
