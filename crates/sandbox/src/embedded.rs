//! The sandbox inside another program (the app, on first run): served from
//! its own thread and runtime, so it never competes with the UI thread.

use std::net::SocketAddr;
use std::sync::mpsc;

use tokio::sync::oneshot;

use super::{SandboxConfig, SandboxError};

/// A sandbox serving on a thread of its own; stops when dropped.
#[derive(Debug)]
pub struct EmbeddedSandbox {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl EmbeddedSandbox {
    /// Starts serving and returns once the port is bound (milliseconds).
    pub fn start(config: SandboxConfig) -> Result<Self, SandboxError> {
        let (ready_tx, ready_rx) = mpsc::channel();
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("fleetview-sandbox".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .thread_name("fleetview-sandbox-io")
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = ready_tx.send(Err(SandboxError::Runtime(e)));
                        return;
                    }
                };
                runtime.block_on(async move {
                    match config.start().await {
                        Ok(running) => {
                            let _ = ready_tx.send(Ok(running.addr()));
                            let _ = stop_rx.await;
                            running.shutdown().await;
                        }
                        Err(e) => {
                            let _ = ready_tx.send(Err(e));
                        }
                    }
                });
            })
            .map_err(SandboxError::Runtime)?;
        let addr = ready_rx.recv().map_err(|_| {
            SandboxError::Runtime(std::io::Error::other("the sandbox thread stopped"))
        })??;
        Ok(Self {
            addr,
            stop: Some(stop_tx),
            thread: Some(thread),
        })
    }

    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

impl Drop for EmbeddedSandbox {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
