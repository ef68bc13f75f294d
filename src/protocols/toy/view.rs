//! The toy's page view (`www/views/toy.js`) and its one request on a session's files, `missed`: the
//! ground-truth lines that the predictions do not repeat (under the report's options), at most 100.

use super::{read_lines, ToyOptions};
use crate::input::{FileSet, Role};
use crate::protocols::options::OptionSet;
use crate::protocols::views::{Extras, View, ViewCall, ViewOut};
use crate::protocols::{Options, Request, Run};
use serde_json::json;

pub static EXTRAS: Extras = Extras {
    page_view: true,
    views: &[View {
        name: "missed",
        run: |call: &mut ViewCall| missed(call.files, call.req).map(ViewOut::from),
    }],
    ..Extras::NONE
};

/// `{"missed": [line…], "of": n}`: the GT lines not among the predictions', in GT order.
fn missed(files: &FileSet, req: &Request) -> Result<serde_json::Value, String> {
    let resolved = Options::resolve(ToyOptions::SPECS, req.mode, &req.set)?;
    let opts = ToyOptions::read(&resolved);
    let mut run = Run::new(files, req.mode, resolved);
    let fold = !opts.case_sensitive;
    let gt = read_lines(&mut run, Role::Gt, fold);
    let pred = read_lines(&mut run, Role::Pred, fold);
    let missed: Vec<&String> = gt.iter().filter(|l| !pred.contains(l)).take(100).collect();
    Ok(json!({ "missed": missed, "of": gt.len() }))
}

#[cfg(test)]
mod tests {
    use crate::input::{Entry, FileSet, Role};
    use crate::protocols::views::Cache;
    use crate::protocols::{self, Request};
    use crate::report::Mode;

    /// The view is found through the registry, as the wasm `Session::view` finds it.
    #[test]
    fn missed_lines_through_the_registry() {
        let files = FileSet::of(
            vec![
                Entry::from_bytes("gt.txt", Some(Role::Gt), b"a\nB\nc\n".to_vec()),
                Entry::from_bytes("pred.txt", Some(Role::Pred), b"b\n".to_vec()),
            ],
            Vec::new(),
        );
        let view = protocols::get("toy").unwrap().extras().views[0].run;
        let mut cache = Cache::default();
        let mut call = |set: &[(&str, &str)]| {
            let req = Request {
                set: set
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
                ..Request::new(Mode::Corrected)
            };
            let args = serde_json::json!({});
            let mut c = crate::protocols::views::ViewCall {
                files: &files,
                req: &req,
                args: &args,
                cache: &mut cache,
            };
            view(&mut c).unwrap().json.to_string()
        };
        assert_eq!(call(&[]), r#"{"missed":["a","c"],"of":3}"#);
        assert_eq!(
            call(&[("case_sensitive", "true")]),
            r#"{"missed":["a","B","c"],"of":3}"#
        );
    }
}
