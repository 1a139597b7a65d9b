//! Cutting a window into chunks the service accepts (D13), and putting the
//! answers of the chunks of one window back together as one answer.
//!
//! Chunks lie on a fixed grid (multiples of the chunk length since the
//! epoch, so whole UTC days): every row is dated inside exactly one chunk,
//! and the rows of the chunks, one after the other, are the rows of the
//! window in order.

use serde_json::{Map, Value};

use super::error::ApiError;
use super::time::TimeWindow;

/// Splits `w` at multiples of `chunk_secs` since the epoch, so the same
/// chunks come back for overlapping windows (and can be cached as such).
/// Windows are inclusive, so chunks never share a second.
pub fn split_window(w: TimeWindow, chunk_secs: i64) -> Vec<TimeWindow> {
    let chunk_secs = chunk_secs.max(1);
    let mut out = Vec::new();
    let mut since = w.since;
    while since <= w.until {
        let grid_end = (since.div_euclid(chunk_secs) + 1) * chunk_secs - 1;
        let until = grid_end.min(w.until);
        out.push(TimeWindow { since, until });
        if until == i64::MAX {
            break;
        }
        since = until + 1;
    }
    out
}

/// One answer made of the answers of consecutive chunks (`{data: ...}`
/// bodies, in chunk order): in `data` and in each of its pages (objects
/// with `rows`), `rows` are joined in order and `total` summed; `until`
/// is the last chunk's; anything else (the machine's identity, `since`)
/// is the first chunk's.
pub fn merge_envelopes(bodies: &[impl AsRef<[u8]>], endpoint: &str) -> Result<Vec<u8>, ApiError> {
    let decode = |e: serde_json::Error| ApiError::Decode {
        endpoint: endpoint.to_owned(),
        message: e.to_string(),
        transient: false,
    };
    let mut merged: Option<Map<String, Value>> = None;
    for body in bodies {
        let mut envelope: Map<String, Value> =
            serde_json::from_slice(body.as_ref()).map_err(decode)?;
        let Some(Value::Object(data)) = envelope.remove("data") else {
            return Err(ApiError::Decode {
                endpoint: endpoint.to_owned(),
                message: "an answer without a data object".to_owned(),
                transient: false,
            });
        };
        match merged.as_mut() {
            None => merged = Some(data),
            Some(into) => merge_data(into, data),
        }
    }
    let data = Value::Object(merged.unwrap_or_default());
    let mut envelope = Map::new();
    envelope.insert("data".to_owned(), data);
    serde_json::to_vec(&envelope).map_err(decode)
}

fn merge_data(into: &mut Map<String, Value>, next: Map<String, Value>) {
    for (key, value) in next {
        match (key.as_str(), into.get_mut(&key), value) {
            ("rows", Some(Value::Array(rows)), Value::Array(more)) => rows.extend(more),
            ("total", Some(total @ Value::Number(_)), Value::Number(more)) => {
                let sum = total.as_i64().unwrap_or(0) + more.as_i64().unwrap_or(0);
                *total = Value::from(sum);
            }
            ("until", Some(slot), value) => *slot = value,
            (_, Some(Value::Object(page)), Value::Object(more)) if page.contains_key("rows") => {
                merge_data(page, more)
            }
            (_, None, value) => {
                into.insert(key, value);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::time::SECS_PER_DAY;

    #[test]
    fn windows_split_on_a_fixed_grid_without_overlap() {
        let day = SECS_PER_DAY;
        let w = TimeWindow {
            since: 3 * day + 100,
            until: 10 * day + 5,
        };
        let chunks = split_window(w, 2 * day);
        assert_eq!(chunks.first().map(|c| c.since), Some(w.since));
        assert_eq!(chunks.last().map(|c| c.until), Some(w.until));
        for pair in chunks.windows(2) {
            assert_eq!(pair[0].until + 1, pair[1].since);
            assert_eq!(pair[1].since % (2 * day), 0);
        }
        assert_eq!(
            split_window(TimeWindow { since: 5, until: 5 }, day).len(),
            1
        );
    }

    #[test]
    fn answers_of_chunks_merge_into_the_answer_of_the_window() {
        let a = br#"{"data":{"total":2,"rows":[1,2],"id":7,"since":"A","until":"B"}}"#;
        let b = br#"{"data":{"total":0,"rows":[],"id":7,"since":"C","until":"D"}}"#;
        let c = br#"{"data":{"total":1,"rows":[3],"id":7,"since":"E","until":"F"}}"#;
        let merged = merge_envelopes(&[&a[..], &b[..], &c[..]], "e").expect("merged");
        assert_eq!(
            String::from_utf8_lossy(&merged),
            r#"{"data":{"total":3,"rows":[1,2,3],"id":7,"since":"A","until":"F"}}"#
        );
        // The history: pages inside data, the identity of the first chunk.
        let a = br#"{"data":{"id":1,"name":"n","positions":{"total":1,"rows":["p"]},"dailyUsages":{"total":0,"rows":[]}}}"#;
        let b = br#"{"data":{"id":1,"name":"m","positions":{"total":2,"rows":["q","r"]},"dailyUsages":{"total":1,"rows":["d"]}}}"#;
        let merged = merge_envelopes(&[&a[..], &b[..]], "e").expect("merged");
        assert_eq!(
            String::from_utf8_lossy(&merged),
            r#"{"data":{"id":1,"name":"n","positions":{"total":3,"rows":["p","q","r"]},"dailyUsages":{"total":1,"rows":["d"]}}}"#
        );
        assert!(matches!(
            merge_envelopes(&[&b"[]"[..]], "e"),
            Err(ApiError::Decode { .. })
        ));
    }
}
