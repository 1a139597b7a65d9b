//! What the user calls a service: the host of its base URL.

/// The host of `base_url` (`fleet.example.com`), or the URL itself when it
/// has none.
pub fn host_label(base_url: &str) -> String {
    reqwest::Url::parse(base_url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_else(|| base_url.to_owned())
}

/// `host:port` of `base_url` (`fleet.example.com:443`), as the client's
/// errors name where a request went; the URL itself when it has no host.
pub fn host_port(base_url: &str) -> String {
    reqwest::Url::parse(base_url)
        .ok()
        .and_then(|u| Some(format!("{}:{}", u.host_str()?, u.port_or_known_default()?)))
        .unwrap_or_else(|| base_url.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_names_a_service() {
        assert_eq!(
            host_label("https://fleet.example.com:8443/api"),
            "fleet.example.com"
        );
        assert_eq!(host_label("not a url"), "not a url");
        assert_eq!(
            host_port("https://fleet.example.com/api"),
            "fleet.example.com:443"
        );
        assert_eq!(host_port("http://127.0.0.1:8080"), "127.0.0.1:8080");
    }
}
