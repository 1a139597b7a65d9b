//! Long answers written a piece at a time (D13).
//!
//! A producer on a blocking thread writes JSON into a [`JsonSink`], which
//! hands it to the connection in pieces of about [`PIECE_BYTES`] through a
//! bounded channel: while the channel is full the producer waits, so a
//! request holds a few pieces at most, however long its window. Producers
//! run under a permit of [`HeavyWork`], so a bounded number work at once and
//! the others queue; none is refused for load.

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use futures_util::StreamExt as _;
use tokio::runtime::Handle;
use tokio::sync::{AcquireError, OwnedSemaphorePermit, Semaphore, mpsc};

use super::simulate::series::Flow;

/// Bytes gathered before they are handed to the connection.
pub(crate) const PIECE_BYTES: usize = 64 * 1024;
/// Pieces waiting for the connection before the producer waits too.
const PIECES_QUEUED: usize = 4;
/// A client that takes nothing for this long is dropped, so that it does
/// not keep a turn of the heavy work.
const STALLED_AFTER: Duration = Duration::from_secs(60);

/// What a producer hands the connection.
#[derive(Debug)]
enum Piece {
    Bytes(Bytes),
    /// The answer is complete. A channel closed without it means the
    /// producer failed: the connection is then broken off, so a client never
    /// takes a cut answer for a whole one.
    End,
}

/// Turns for heavy requests (the series and history operations): as many
/// at once as there are cores, at least 2; the others wait in order.
#[derive(Debug, Clone)]
pub(crate) struct HeavyWork(Arc<Semaphore>);

impl HeavyWork {
    pub(crate) fn new(turns: usize) -> Self {
        Self(Arc::new(Semaphore::new(turns.max(1))))
    }

    /// The default bound: the cores, at least 2.
    pub(crate) fn for_this_machine() -> Self {
        Self::new(
            std::thread::available_parallelism()
                .map_or(2, |n| n.get())
                .max(2),
        )
    }

    /// Waits for a turn (the semaphore is fair: first come, first served).
    /// Fails only if the semaphore were closed, which it never is.
    pub(crate) async fn turn(&self) -> Result<OwnedSemaphorePermit, AcquireError> {
        self.0.clone().acquire_owned().await
    }
}

/// Where the answers' writers put JSON: the bytes so far, and a point at
/// which they may be handed on.
pub trait JsonOut {
    /// The bytes not yet handed on; write JSON here, then call [`Self::flow`].
    fn out(&mut self) -> &mut Vec<u8>;
    /// Hands the bytes on if there are enough of them. `Break` when nobody
    /// wants the rest.
    fn flow(&mut self) -> Flow;
}

/// A whole answer in memory: for tests and benches of the writers.
impl JsonOut for Vec<u8> {
    fn out(&mut self) -> &mut Vec<u8> {
        self
    }
    fn flow(&mut self) -> Flow {
        Flow::Continue(())
    }
}

/// Where a producer writes a streamed answer.
#[derive(Debug)]
pub(crate) struct JsonSink {
    buf: Vec<u8>,
    tx: mpsc::Sender<Piece>,
    runtime: Handle,
}

impl JsonOut for JsonSink {
    fn out(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }

    /// Hands the bytes on once they make a piece, waiting while the
    /// connection is behind. `Break` when the client has gone.
    fn flow(&mut self) -> Flow {
        if self.buf.len() < PIECE_BYTES {
            return Flow::Continue(());
        }
        let piece = std::mem::replace(&mut self.buf, Vec::with_capacity(PIECE_BYTES * 5 / 4));
        self.send(Piece::Bytes(piece.into()))
    }
}

impl JsonSink {
    fn send(&self, piece: Piece) -> Flow {
        let sent = self
            .runtime
            .block_on(async { tokio::time::timeout(STALLED_AFTER, self.tx.send(piece)).await });
        match sent {
            Ok(Ok(())) => Flow::Continue(()),
            Ok(Err(_)) => Flow::Break(()),
            Err(_) => {
                tracing::warn!("a client took nothing for {STALLED_AFTER:?}: answer dropped");
                Flow::Break(())
            }
        }
    }

    /// Hands on the last bytes, then says the answer is complete.
    fn finish(mut self) {
        let rest = std::mem::take(&mut self.buf);
        if !rest.is_empty() && self.send(Piece::Bytes(rest.into())).is_break() {
            return;
        }
        let _ = self.send(Piece::End);
    }
}

/// A 200 JSON answer whose body `produce` writes on a blocking thread, in
/// pieces, holding `turn` until it is done. If `produce` stops before the
/// end (it breaks off or panics), so does the body, with an error: the
/// connection is broken off.
pub(crate) fn streamed(
    turn: OwnedSemaphorePermit,
    produce: impl FnOnce(&mut JsonSink) -> Flow + Send + 'static,
) -> Response {
    let (tx, rx) = mpsc::channel(PIECES_QUEUED);
    let mut sink = JsonSink {
        buf: Vec::with_capacity(PIECE_BYTES * 5 / 4),
        tx,
        runtime: Handle::current(),
    };
    tokio::task::spawn_blocking(move || {
        let _turn = turn;
        if produce(&mut sink).is_continue() {
            sink.finish();
        }
    });
    let pieces = futures_util::stream::unfold(Some(rx), |rx| async move {
        let mut rx = rx?;
        match rx.recv().await {
            Some(Piece::Bytes(b)) => Some((Ok(b), Some(rx))),
            Some(Piece::End) => None,
            None => Some((
                Err(std::io::Error::other("the answer could not be completed")),
                None,
            )),
        }
    })
    // Layers such as gzip may ask again once it has ended.
    .fuse();
    let mut resp = Response::new(Body::from_stream(pieces));
    *resp.status_mut() = StatusCode::OK;
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    resp
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// Rows of 100 bytes, `n` of them, counting those written.
    fn rows(n: usize, written: Arc<AtomicUsize>) -> impl FnOnce(&mut JsonSink) -> Flow + Send {
        move |out| {
            out.out().push(b'[');
            for i in 0..n {
                if i > 0 {
                    out.out().push(b',');
                }
                out.out()
                    .extend_from_slice(format!("\"{:097}\"", i).as_bytes());
                written.fetch_add(1, Ordering::Relaxed);
                out.flow()?;
            }
            out.out().push(b']');
            Flow::Continue(())
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn pieces_make_the_whole_answer() {
        let heavy = HeavyWork::new(1);
        let turn = heavy.turn().await.expect("a turn");
        let written = Arc::new(AtomicUsize::new(0));
        let resp = streamed(turn, rows(20_000, written.clone()));
        let body = axum::body::to_bytes(resp.into_body(), usize::MAX)
            .await
            .expect("a whole body");
        let parsed: Vec<String> = serde_json::from_slice(&body).expect("JSON");
        assert_eq!(parsed.len(), 20_000);
        assert_eq!(parsed[19_999], format!("{:097}", 19_999));
        // The turn is given back once the answer is written.
        let again = tokio::time::timeout(Duration::from_secs(10), heavy.turn()).await;
        assert!(again.is_ok(), "the turn came back");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_ended_answer_stays_ended() {
        let turn = HeavyWork::new(1).turn().await.expect("a turn");
        let mut body = streamed(turn, rows(3, Arc::default()))
            .into_body()
            .into_data_stream();
        while body.next().await.is_some() {}
        // Asked again (as a compressing layer does), it is still over.
        assert!(body.next().await.is_none());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_reader_that_leaves_stops_the_writer_and_frees_its_turn() {
        let heavy = HeavyWork::new(1);
        let turn = heavy.turn().await.expect("a turn");
        let written = Arc::new(AtomicUsize::new(0));
        let n = 1_000_000; // 100 MB if it were all written
        let mut body = streamed(turn, rows(n, written.clone()))
            .into_body()
            .into_data_stream();
        let first = body.next().await.expect("a piece").expect("bytes");
        assert!(!first.is_empty());
        drop(body);
        let again = tokio::time::timeout(Duration::from_secs(10), heavy.turn()).await;
        assert!(again.is_ok(), "the turn came back");
        // It stopped within the pieces the channel holds.
        let rows_per_piece = PIECE_BYTES / 100 + 1;
        let done = written.load(Ordering::Relaxed);
        assert!(
            done <= rows_per_piece * (PIECES_QUEUED + 3),
            "{done} rows written for a reader that left"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_writer_that_fails_breaks_the_answer_off() {
        let heavy = HeavyWork::new(1);
        let turn = heavy.turn().await.expect("a turn");
        let resp = streamed(turn, |out| {
            out.out().extend_from_slice(b"{\"rows\":[");
            panic!("a bug while writing");
        });
        let body = axum::body::to_bytes(resp.into_body(), usize::MAX).await;
        assert!(body.is_err(), "a cut answer is not a whole one: {body:?}");
    }
}
