//! Cutting a window into chunks the service accepts (D13), and putting the
//! answers of the chunks of one window back together as one answer.
//!
//! Chunks lie on a fixed grid (multiples of the chunk length since the
//! epoch, so whole UTC days): every row is dated inside exactly one chunk,
//! and the rows of the chunks, one after the other, are the rows of the
//! window in order.

use bytes::Bytes;
use serde_json::value::RawValue;

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
///
/// The rows are joined as text, never decoded: a year of history is tens
/// of megabytes, and building a tree of it to write it out again cost more
/// than everything else on a year's click.
pub fn merge_envelopes(bodies: &[impl AsRef<[u8]>], endpoint: &str) -> Result<Vec<u8>, ApiError> {
    let decode = |message: String| ApiError::Decode {
        endpoint: endpoint.to_owned(),
        message,
        transient: false,
    };
    let mut merged: Vec<(String, Node<'_>)> = Vec::new();
    for (i, body) in bodies.iter().enumerate() {
        let envelope: Entries<'_> =
            serde_json::from_slice(body.as_ref()).map_err(|e| decode(e.to_string()))?;
        let data = envelope
            .0
            .into_iter()
            .find(|(k, _)| k == "data")
            .and_then(|(_, v)| object_entries(v))
            .ok_or_else(|| decode("an answer without a data object".to_owned()))?;
        if i == 0 {
            merged = data
                .into_iter()
                .map(|(k, v)| (k.clone(), Node::of(&k, v)))
                .collect();
        } else {
            merge_into(&mut merged, data);
        }
    }
    let mut out = Vec::with_capacity(bodies.iter().map(|b| b.as_ref().len()).sum::<usize>() + 16);
    out.extend_from_slice(br#"{"data":"#);
    write_object(&mut out, &merged);
    out.push(b'}');
    Ok(out)
}

/// A value of the merged answer: kept as given, or being joined.
enum Node<'a> {
    Raw(&'a RawValue),
    /// The inside of each chunk's `rows` array, in order.
    Rows(Vec<&'a str>),
    Total(i64),
    /// A page (an object with `rows`), merged the same way.
    Page(Vec<(String, Node<'a>)>),
}

impl<'a> Node<'a> {
    fn of(key: &str, v: &'a RawValue) -> Self {
        match key {
            "rows" => match array_inside(v) {
                Some(inside) => Node::Rows(vec![inside]),
                None => Node::Raw(v),
            },
            "total" => match serde_json::from_str::<serde_json::Number>(v.get()) {
                Ok(n) => Node::Total(n.as_i64().unwrap_or(0)),
                Err(_) => Node::Raw(v),
            },
            _ => match object_entries(v) {
                Some(page) if page.iter().any(|(k, _)| k == "rows") => Node::Page(
                    page.into_iter()
                        .map(|(k, v)| (k.clone(), Node::of(&k, v)))
                        .collect(),
                ),
                _ => Node::Raw(v),
            },
        }
    }
}

fn merge_into<'a>(into: &mut Vec<(String, Node<'a>)>, later: Vec<(String, &'a RawValue)>) {
    for (key, value) in later {
        let Some(slot) = into.iter_mut().find(|(k, _)| *k == key).map(|(_, n)| n) else {
            let node = Node::of(&key, value);
            into.push((key, node));
            continue;
        };
        match (key.as_str(), slot) {
            ("rows", Node::Rows(rows)) => {
                if let Some(inside) = array_inside(value) {
                    rows.push(inside);
                }
            }
            ("total", Node::Total(total)) => {
                if let Ok(n) = serde_json::from_str::<serde_json::Number>(value.get()) {
                    *total += n.as_i64().unwrap_or(0);
                }
            }
            ("until", slot) => *slot = Node::Raw(value),
            (_, Node::Page(page)) => {
                if let Some(more) = object_entries(value) {
                    merge_into(page, more);
                }
            }
            _ => {}
        }
    }
}

fn write_object(out: &mut Vec<u8>, entries: &[(String, Node<'_>)]) {
    out.push(b'{');
    for (i, (key, node)) in entries.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        // A key that came out of JSON always writes back as JSON.
        out.extend_from_slice(serde_json::to_string(key).unwrap_or_default().as_bytes());
        out.push(b':');
        match node {
            Node::Raw(v) => out.extend_from_slice(v.get().as_bytes()),
            Node::Total(n) => out.extend_from_slice(n.to_string().as_bytes()),
            Node::Page(page) => write_object(out, page),
            Node::Rows(pieces) => {
                out.push(b'[');
                for (j, piece) in pieces.iter().filter(|p| !p.is_empty()).enumerate() {
                    if j > 0 {
                        out.push(b',');
                    }
                    out.extend_from_slice(piece.as_bytes());
                }
                out.push(b']');
            }
        }
    }
    out.push(b'}');
}

/// What is between the brackets of a JSON array, trimmed; `None` when `v`
/// is not an array.
fn array_inside(v: &RawValue) -> Option<&str> {
    let text = v.get().trim();
    let inside = text.strip_prefix('[')?.strip_suffix(']')?;
    Some(inside.trim())
}

/// The entries of a JSON object in order, `None` when `v` is not one.
fn object_entries(v: &RawValue) -> Option<Vec<(String, &RawValue)>> {
    if !v.get().trim_start().starts_with('{') {
        return None;
    }
    serde_json::from_str::<Entries<'_>>(v.get())
        .ok()
        .map(|e| e.0)
}

/// An object's entries in order, their values left as text.
struct Entries<'a>(Vec<(String, &'a RawValue)>);

impl<'de> serde::Deserialize<'de> for Entries<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Entries<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry::<String, &'de RawValue>()? {
                    out.push(entry);
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(Visit)
    }
}

/// A series answer's rows: their JSON array, a view into the answer (not
/// a copy), and how many there are.
#[derive(Debug, Clone, PartialEq)]
pub struct RowsChunk {
    pub rows: Bytes,
    pub count: usize,
    /// Now by the service's clock when it sent these rows: its answer's
    /// `Date` (the earliest, for rows of several answers), else the newest
    /// row it had returned by then; `None` when it told neither. What is
    /// final in them is decided by this, not by a later answer's clock.
    pub service_now: Option<i64>,
}

impl RowsChunk {
    /// The rows of a series answer; none when it has no whole list of rows
    /// (see [`rows_span`]).
    pub fn of(body: &Bytes) -> Option<Self> {
        let (span, count) = rows_span(body)?;
        Some(Self {
            rows: body.slice(span),
            count,
            service_now: None,
        })
    }
}

/// Where `data.rows` (an array) is in an envelope body, and how many
/// objects it holds, found by following strings and nesting only (brackets
/// matched). Nothing else is validated: a series answer is checked by this
/// scan (cut short, its rows have no end), the typed decoding of its rows
/// is the full check, and rows no decoding read are checked before they
/// are cached. A full validation here cost more than the decoding itself.
pub fn rows_span(body: &[u8]) -> Option<(std::ops::Range<usize>, usize)> {
    // The key in force at depths 1 (the envelope) and 2 (`data`).
    let mut keys: [&[u8]; 3] = [b"", b"", b""];
    let mut depth = 0usize;
    // Which of the open values are arrays (a bit per depth): a bracket
    // that does not close what is open ends the scan.
    let mut arrays = 0u64;
    let mut rows_start = None;
    let mut count = 0;
    let mut i = 0;
    while i < body.len() {
        match body[i] {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < body.len() && body[i] != b'"' {
                    i += if body[i] == b'\\' { 2 } else { 1 };
                }
                let end = i.min(body.len());
                // A key if a colon follows.
                let mut j = i + 1;
                while j < body.len() && body[j].is_ascii_whitespace() {
                    j += 1;
                }
                if (1..=2).contains(&depth) && body.get(j) == Some(&b':') {
                    keys[depth] = &body[start..end];
                }
            }
            b'{' | b'[' => {
                depth += 1;
                if depth >= 64 {
                    return None;
                }
                let bit = 1u64 << depth;
                arrays = if body[i] == b'[' {
                    arrays | bit
                } else {
                    arrays & !bit
                };
                if depth <= 2 {
                    keys[depth] = b"";
                }
                if depth == 3
                    && body[i] == b'['
                    && keys[1] == b"data"
                    && keys[2] == b"rows"
                    && rows_start.is_none()
                {
                    rows_start = Some(i);
                }
                if depth == 4 && body[i] == b'{' && rows_start.is_some() {
                    count += 1;
                }
            }
            b'}' | b']' => {
                if depth == 0 || ((arrays >> depth) & 1 == 1) != (body[i] == b']') {
                    return None;
                }
                if depth == 3
                    && body[i] == b']'
                    && let Some(start) = rows_start
                {
                    return Some((start..i + 1, count));
                }
                depth -= 1;
                if depth == 0 {
                    // The answer ended without rows.
                    return None;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SECS_PER_DAY;

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

    #[test]
    fn answers_merge_whatever_their_spacing_and_keys() {
        // Pretty-printed, empty first, a page only the later chunk has,
        // escapes in keys and rows, a missing total.
        let a = b"{ \"data\" : { \"rows\" : [ ] , \"id\" : 7 , \"until\" : \"B\" } }";
        let b = br#"{"data":{"rows":[ {"a\"b":"x,]"} ,{"c":[1]} ],"total":2,"until":"D","faultCodes":{"rows":[1]}}}"#;
        let c = br#"{"data":{"rows":[3],"total":1.5,"faultCodes":{"rows":[],"total":4}}}"#;
        let merged = merge_envelopes(&[&a[..], &b[..], &c[..]], "e").expect("merged");
        let v: serde_json::Value = serde_json::from_slice(&merged).expect("valid JSON");
        assert_eq!(
            v,
            serde_json::json!({"data": {
                "rows": [{"a\"b": "x,]"}, {"c": [1]}, 3],
                "id": 7,
                "until": "D",
                "total": 2,
                "faultCodes": {"rows": [1], "total": 4}
            }})
        );
        for bad in [&b"{\"data\":[1]}"[..], b"{\"data\":{\"rows\":[}}", b"{}"] {
            assert!(matches!(
                merge_envelopes(&[&a[..], bad], "e"),
                Err(ApiError::Decode { .. })
            ));
        }
    }

    #[test]
    fn the_scan_follows_strings_nesting_and_key_order() {
        let body = br#"{ "meta" : {"rows":[1]}, "data" : { "rows" :[{"a":"]}\"[{"},{"b":{"rows":[2]}}] , "total":2}}"#;
        let (span, n) = rows_span(body).expect("rows");
        assert_eq!(
            &body[span],
            br#"[{"a":"]}\"[{"},{"b":{"rows":[2]}}]"#.as_slice()
        );
        assert_eq!(n, 2);
        let (span, n) = rows_span(br#"{"data":{"rows":[]}}"#).expect("empty");
        assert_eq!((span, n), (16..18, 0));
        let chunk = RowsChunk::of(&Bytes::from_static(body)).expect("rows");
        assert_eq!(&chunk.rows[..], br#"[{"a":"]}\"[{"},{"b":{"rows":[2]}}]"#);
        assert_eq!(chunk.count, 2);
        // Not an envelope with rows: none (the answer is unreadable).
        for bad in [
            &br#"{"data":{"rows":null}}"#[..],
            br#"{"rows":[{}]}"#,
            br#"[{"data":{"rows":[]}}]"#,
            br#"{"data":{"rows":[{"#,
            br#"{"data":{"rows":"[]"}}"#,
            br#"{"data": ]{"data":{"rows":[]}}"#,
            br#"{"data":{"a":[}],"rows":[]}}"#,
            b"}}}]]]",
            b"",
        ] {
            assert_eq!(rows_span(bad), None, "{}", String::from_utf8_lossy(bad));
        }
    }
}
