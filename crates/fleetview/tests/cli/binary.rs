//! The `fleetview` binary as the modules run it.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `fleetview <sub>` on the service at `base`, through the cache file
/// `cache`; the environment as the test's.
pub fn fleetview(sub: &str, base: &str, cache: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fleetview"));
    cmd.arg(sub)
        .arg("--base-url")
        .arg(base)
        .arg("--cache-file")
        .arg(cache);
    cmd
}

/// [`fleetview`] with nothing to sign in with from the environment,
/// logging warnings.
pub fn signed_out(sub: &str, base: &str, cache: &Path) -> Command {
    let mut cmd = fleetview(sub, base, cache);
    cmd.env_remove("FLEETVIEW_TOKEN")
        .env_remove("FLEETVIEW_API_KEY")
        .env_remove("FLEETVIEW_API_KEY_NAME")
        .env("RUST_LOG", "warn");
    cmd
}

/// Runs `cmd` to its end, killed (and the test failed) past `limit`.
pub fn output_within(mut cmd: Command, limit: Duration) -> (Output, Duration) {
    let started = Instant::now();
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fleetview starts");
    let pipes = [
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    ];
    let readers = pipes.map(|pipe| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            let [_, err] = readers.map(|r| r.join().expect("read"));
            panic!(
                "still running after {limit:?}; stderr so far: {}",
                String::from_utf8_lossy(&err)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let elapsed = started.elapsed();
    let [stdout, stderr] = readers.map(|r| r.join().expect("read"));
    (
        Output {
            status,
            stdout,
            stderr,
        },
        elapsed,
    )
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs the binary off the async threads (the sandbox serves on them).
pub async fn output_async(cmd: Command) -> Output {
    tokio::task::spawn_blocking(move || output_within(cmd, Duration::from_secs(120)).0)
        .await
        .expect("finished")
}
