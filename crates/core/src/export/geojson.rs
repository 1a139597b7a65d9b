//! The one GeoJSON writer (decisions.md, *Exports stream*): a
//! FeatureCollection written feature by feature to any `Write`, so a year
//! of positions is never a document in memory. Each feature is serialized
//! by serde_json on its own; the collection's keys keep the order the app
//! always wrote (`type`, `name`, `features`).

use std::io::Write;

use serde::Serialize;

/// A FeatureCollection being written: [`FeatureWriter::start`], one
/// [`FeatureWriter::feature`] per feature, then [`FeatureWriter::finish`]
/// (without it the document is left open, as after an error).
#[derive(Debug)]
pub struct FeatureWriter<W: Write> {
    out: W,
    features: usize,
}

impl<W: Write> FeatureWriter<W> {
    /// Writes the collection's opening, with its `name` if it has one.
    pub fn start(mut out: W, name: Option<&str>) -> std::io::Result<Self> {
        out.write_all(br#"{"type":"FeatureCollection","#)?;
        if let Some(name) = name {
            out.write_all(br#""name":"#)?;
            serde_json::to_writer(&mut out, name)?;
            out.write_all(b",")?;
        }
        out.write_all(br#""features":["#)?;
        Ok(FeatureWriter { out, features: 0 })
    }

    /// Writes one feature (anything serialized as a GeoJSON Feature).
    pub fn feature(&mut self, feature: &impl Serialize) -> std::io::Result<()> {
        if self.features > 0 {
            self.out.write_all(b",")?;
        }
        serde_json::to_writer(&mut self.out, feature)?;
        self.features += 1;
        Ok(())
    }

    /// Closes the collection; returns how many features it holds.
    pub fn finish(mut self) -> std::io::Result<usize> {
        self.out.write_all(b"]}\n")?;
        self.out.flush()?;
        Ok(self.features)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn an_empty_collection_is_valid_with_or_without_a_name() {
        let mut out = Vec::new();
        let n = FeatureWriter::start(&mut out, Some("a \"name\""))
            .and_then(FeatureWriter::finish)
            .expect("written");
        assert_eq!(n, 0);
        let doc: Value = serde_json::from_slice(&out).expect("JSON");
        assert_eq!(
            doc,
            json!({"type": "FeatureCollection", "name": "a \"name\"", "features": []})
        );
        let mut out = Vec::new();
        FeatureWriter::start(&mut out, None)
            .and_then(FeatureWriter::finish)
            .expect("written");
        assert_eq!(out, b"{\"type\":\"FeatureCollection\",\"features\":[]}\n");
    }

    #[test]
    fn the_document_is_the_one_a_whole_tree_makes() {
        let features = [
            json!({"type": "Feature", "geometry": null, "properties": {"a": 1}}),
            json!({"type": "Feature", "geometry": {"type": "Point", "coordinates": [4.5, 45.0]}, "properties": {}}),
        ];
        let mut out = Vec::new();
        let mut w = FeatureWriter::start(&mut out, Some("x")).expect("start");
        for f in &features {
            w.feature(f).expect("feature");
        }
        assert_eq!(w.finish().expect("finish"), 2);
        let tree = json!({"type": "FeatureCollection", "name": "x", "features": features});
        let mut expected = serde_json::to_vec(&tree).expect("tree");
        expected.push(b'\n');
        assert_eq!(
            String::from_utf8(out).expect("utf-8"),
            String::from_utf8(expected).expect("utf-8")
        );
    }

    /// A writer that fails once `limit` bytes are in.
    struct Full {
        written: usize,
        limit: usize,
    }

    impl Write for Full {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.written + buf.len() > self.limit {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::StorageFull,
                    "disk full",
                ));
            }
            self.written += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_write_error_mid_collection_is_returned() {
        let mut w = FeatureWriter::start(
            Full {
                written: 0,
                limit: 100,
            },
            None,
        )
        .expect("start");
        let f = json!({"type": "Feature", "geometry": null, "properties": {"x": 1}});
        let e = (0..10)
            .try_for_each(|_| w.feature(&f))
            .expect_err("the disk fills");
        assert_eq!(e.kind(), std::io::ErrorKind::StorageFull);
    }
}
