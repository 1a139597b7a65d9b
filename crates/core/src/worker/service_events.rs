//! What the service book's thread and the daily usage reads say.

use std::sync::Arc;

use super::messages::RequestId;
use crate::service::change::Saved;
use crate::service::plan::ServiceBook;
use crate::service::usage::UsageDay;
use fleetview_api::time::TimeWindow;

#[derive(Debug, Clone)]
pub enum ServiceEvent {
    /// The book after a command: `outcome` says what a write did, or why
    /// not (`None` for a read).
    Book {
        request: RequestId,
        /// The app's count of the write it answers (0: a read).
        write: u64,
        /// The service (cache scope) it is the book of.
        service: String,
        book: Arc<ServiceBook>,
        /// Why nothing can be written (a damaged or newer file).
        read_only: Option<String>,
        outcome: Option<Result<Saved, String>>,
    },
    /// A machine's daily usage over a window, for the due rules.
    Usage {
        request: RequestId,
        equipment: i64,
        window: TimeWindow,
        /// Sorted, one per day.
        days: Arc<Vec<UsageDay>>,
        /// Read from the cache alone, as of then.
        offline: Option<i64>,
    },
}

impl ServiceEvent {
    pub(crate) fn request(&self) -> RequestId {
        match self {
            Self::Book { request, .. } | Self::Usage { request, .. } => *request,
        }
    }
}
