//! What the user calls a service: the host of its base URL.

/// The host of `base_url` (`fleet.example.com`), or the URL itself when it
/// has none.
pub fn host_label(base_url: &str) -> String {
    reqwest::Url::parse(base_url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
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
    }
}
