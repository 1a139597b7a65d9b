//! Log lines kept to be read by a test: what was said, in the words the
//! log file would have.

use std::sync::{Arc, Mutex};

/// A `tracing` writer keeping every line written to it.
#[derive(Debug, Clone, Default)]
pub struct Logs(Arc<Mutex<Vec<u8>>>);

impl Logs {
    /// Everything written so far.
    pub fn text(&self) -> String {
        let bytes = self.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// A subscriber writing to these logs, plain text, from `level` up.
    pub fn subscriber(&self, level: tracing::Level) -> impl tracing::Subscriber + Send + Sync {
        tracing_subscriber::fmt()
            .with_writer(self.clone())
            .with_ansi(false)
            .with_max_level(level)
            .finish()
    }
}

impl std::io::Write for Logs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Logs {
    type Writer = Logs;

    fn make_writer(&'a self) -> Logs {
        self.clone()
    }
}

/// What `f` logs on this thread, from INFO up.
pub fn logged(f: impl FnOnce()) -> String {
    let logs = Logs::default();
    tracing::subscriber::with_default(logs.subscriber(tracing::Level::INFO), f);
    logs.text()
}
