//! What a protocol adds beyond its report, declared once in [`Extras`] ([`super::Protocol::extras`]):
//!
//! - whether the page has a view of its reports, `www/views/<id>.js` (loaded by that convention);
//! - its [`View`]s: the requests that view makes on a session's files (the wasm `Session::view`, www/API.md
//!   "Views"), each a function of the files, the options and a JSON argument that returns JSON (and, for
//!   images, typed arrays);
//! - its [`Asset`]s: data files scoring uses when they are there (a dictionary). The command line, the scoring
//!   program and the page's worker load them from the declaration, without knowing the protocol;
//! - a warm-up of the page's JIT compiler for some inputs.
//!
//! The shells find all of it through the registry ([`super::PROTOCOLS`]); nothing outside the protocol's folder
//! and its view names it.

use super::Request;
use crate::input::FileSet;
use serde::Serialize;
use serde_json::{json, Value};
use std::any::Any;

/// A protocol's views, assets and warm-up; [`Extras::NONE`] by default.
#[derive(Serialize)]
pub struct Extras {
    /// The page shows a view of this protocol's reports, the module `www/views/<id>.js`.
    #[serde(rename = "view")]
    pub page_view: bool,
    /// The requests that view makes on a session's files.
    #[serde(skip)]
    pub views: &'static [View],
    pub assets: &'static [Asset],
    /// Code to run once before the first session of files that need it (in the page: so that V8 has compiled
    /// it before a large input arrives); returns whether `files` needed it. Only the wasm shell calls it.
    #[serde(skip)]
    pub warm_up: Option<fn(&FileSet) -> bool>,
    /// Its own commands on the command line (`dropscore kws convert`).
    #[serde(skip)]
    pub commands: &'static [super::commands::Command],
}

impl Extras {
    pub const NONE: Extras = Extras {
        page_view: false,
        views: &[],
        assets: &[],
        warm_up: None,
        commands: &[],
    };
    /// A page view that reads the report only (no requests, assets or warm-up).
    pub const PAGE_VIEW: Extras = Extras {
        page_view: true,
        ..Extras::NONE
    };
}

/// One request of a protocol's page view on a session's files (an image's overlay, a list of images).
pub struct View {
    /// Unique among the protocol's views: the page asks for `session.view(name, args)`.
    pub name: &'static str,
    pub run: fn(&mut ViewCall) -> Result<ViewOut, String>,
}

/// What a view is given: the session's files, the options of the report it belongs to, its argument, and a
/// cache that lives as long as the session.
pub struct ViewCall<'a> {
    pub files: &'a FileSet,
    pub req: &'a Request,
    pub args: &'a Value,
    pub cache: &'a mut Cache,
}

impl ViewCall<'_> {
    /// The string argument `name` (`{"image": "001"}`).
    pub fn text(&self, name: &str) -> Result<&str, String> {
        self.args
            .get(name)
            .and_then(Value::as_str)
            .ok_or_else(|| format!("the view needs a text argument `{name}`"))
    }

    /// The integer argument `name` (`{"image_id": 42}`).
    pub fn integer(&self, name: &str) -> Result<i64, String> {
        match self.args.get(name) {
            Some(v) if v.as_i64().is_some() => Ok(v.as_i64().unwrap_or_default()),
            Some(v)
                if v.as_f64()
                    .is_some_and(|f| f.fract() == 0.0 && f.abs() < 9e15) =>
            {
                Ok(v.as_f64().unwrap_or_default() as i64)
            }
            _ => Err(format!("{name} must be an integer")),
        }
    }

    /// A key that changes whenever the options do: what a cached value was computed for.
    pub fn options_key(&self) -> String {
        format!("{:?} {:?}", self.req.mode, self.req.set)
    }
}

/// A view's answer: JSON, and typed arrays under `arrays`' names (the page receives them as properties of the
/// JSON object, `Uint8Array` / `Uint32Array`, without copying them through JSON).
pub struct ViewOut {
    pub json: Value,
    pub arrays: Vec<(&'static str, Array)>,
}

impl From<Value> for ViewOut {
    fn from(json: Value) -> Self {
        ViewOut {
            json,
            arrays: Vec::new(),
        }
    }
}

pub enum Array {
    U8(Vec<u8>),
    U32(Vec<u32>),
}

/// Values views keep between requests of one session (the files indexed once for many images), one per type,
/// each with the [`ViewCall::options_key`] it was computed for.
#[derive(Default)]
pub struct Cache {
    slots: Vec<Box<dyn Any>>,
}

struct Keyed<T> {
    key: String,
    value: T,
}

impl Cache {
    /// The kept `T` when it was computed for `key`, else `make()`'s, kept in its place.
    pub fn keyed<T: 'static>(
        &mut self,
        key: String,
        make: impl FnOnce() -> Result<T, String>,
    ) -> Result<&T, String> {
        let found = self.slots.iter().position(|s| s.is::<Keyed<T>>());
        let fresh = found.is_some_and(|i| {
            self.slots[i]
                .downcast_ref::<Keyed<T>>()
                .is_some_and(|k| k.key == key)
        });
        let at = match found {
            Some(i) if fresh => i,
            _ => {
                let slot: Box<dyn Any> = Box::new(Keyed {
                    key,
                    value: make()?,
                });
                match found {
                    Some(i) => {
                        self.slots[i] = slot;
                        i
                    }
                    None => {
                        self.slots.push(slot);
                        self.slots.len() - 1
                    }
                }
            }
        };
        self.slots[at]
            .downcast_ref::<Keyed<T>>()
            .map(|k| &k.value)
            .ok_or_else(|| "the view's cache lost its value".to_string())
    }
}

/// A data file scoring uses when it is there, loaded into the [`Request`]. The page fetches it from
/// `www/assets/<file>`; the command line takes `--<cli_flag> FILE`, else `$<env>`, else `<file>` next to the
/// executable, else the repository's `www/assets/<file>`.
#[derive(Serialize)]
pub struct Asset {
    /// A short name, unique among all protocols' assets (the wasm `asset_load(name, bytes)`).
    pub name: &'static str,
    pub file: &'static str,
    /// What it is, as a sentence's subject: "the Russian dictionary".
    pub label: &'static str,
    /// About its size in bytes, for the page's progress when the server sends no Content-Length.
    pub size_hint: u64,
    /// The diagnostic code of a report that the asset would change: the page loads it then, and scores again.
    pub needed_after: &'static str,
    /// What scoring does without it, after "…is not available": "lemmas are approximate".
    pub without: &'static str,
    /// The page's note while the server does not have the file yet: a bold lead, then the rest.
    pub missing: [&'static str; 2],
    /// The note once it appears.
    pub ready: [&'static str; 2],
    pub cli_flag: &'static str,
    pub env: &'static str,
    /// Reads the file into `req`; returns what it says about itself (its sources), or why it cannot be read.
    #[serde(skip)]
    pub load: fn(&[u8], &mut Request) -> Result<String, String>,
    /// Whether `req` holds it.
    #[serde(skip)]
    pub loaded: fn(&Request) -> bool,
}

/// The asset named `name`, among every protocol's.
pub fn asset(name: &str) -> Option<&'static Asset> {
    super::PROTOCOLS
        .iter()
        .flat_map(|p| p.extras().assets)
        .find(|a| a.name == name)
}

/// Runs view `name` of protocol `protocol` (see [`View`]).
pub fn run(protocol: &str, name: &str, call: &mut ViewCall) -> Result<ViewOut, String> {
    let p = super::get(protocol).ok_or_else(|| format!("unknown protocol `{protocol}`"))?;
    let view = p
        .extras()
        .views
        .iter()
        .find(|v| v.name == name)
        .ok_or_else(|| format!("protocol `{protocol}` has no view `{name}`"))?;
    (view.run)(call)
}

/// Runs the protocol's warm-up (see [`Extras::warm_up`]) when `files` need it; returns whether they did.
pub fn warm_up(protocol: &str, files: &FileSet) -> bool {
    super::get(protocol)
        .and_then(|p| p.extras().warm_up)
        .is_some_and(|w| w(files))
}

// ---------------------------------------------------------------- image overlays

/// Matched (or correct) pixels.
pub const TP: [u8; 4] = [0, 200, 0, 255];
/// Predicted where it should not be (or the wrong class).
pub const FP: [u8; 4] = [230, 0, 230, 255];
/// Missed.
pub const FN: [u8; 4] = [40, 90, 255, 255];
pub const GREY: [u8; 4] = [120, 120, 120, 255];
pub const GREY_DARK: [u8; 4] = [70, 70, 70, 255];

/// The hatching of pixels that are not counted: pixel `i` of a `w`-wide image, grey or dark grey in 2-pixel
/// diagonal stripes.
pub fn hatch(i: usize, w: usize) -> [u8; 4] {
    if (((i % w.max(1)) + (i / w.max(1))) / 2).is_multiple_of(2) {
        GREY
    } else {
        GREY_DARK
    }
}

/// One image's overlay: an RGBA buffer, the GT and predicted label of every pixel (so the page can tell what
/// was clicked), and what the protocol says about it (`meta`).
pub struct Overlay {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
    pub gt_labels: Vec<u32>,
    pub pred_labels: Vec<u32>,
    pub meta: Value,
}

/// As the page receives it: `{ width, height, meta, rgba: Uint8Array, gt_labels, pred_labels: Uint32Array }`.
impl From<Overlay> for ViewOut {
    fn from(o: Overlay) -> Self {
        ViewOut {
            json: json!({"width": o.width, "height": o.height, "meta": o.meta}),
            arrays: vec![
                ("rgba", Array::U8(o.rgba)),
                ("gt_labels", Array::U32(o.gt_labels)),
                ("pred_labels", Array::U32(o.pred_labels)),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_keeps_one_value_per_type_and_key() {
        let mut c = Cache::default();
        let mut made = 0;
        let mut get = |c: &mut Cache, key: &str| {
            *c.keyed(key.to_string(), || {
                made += 1;
                Ok(made)
            })
            .unwrap()
        };
        assert_eq!(get(&mut c, "a"), 1);
        assert_eq!(get(&mut c, "a"), 1);
        assert_eq!(get(&mut c, "b"), 2);
        assert_eq!(
            *c.keyed("b".into(), || Ok("other type")).unwrap(),
            "other type"
        );
        assert_eq!(get(&mut c, "b"), 2);
        assert_eq!(c.slots.len(), 2);
        assert!(c.keyed::<u8>("x".into(), || Err("no".into())).is_err());
    }

    #[test]
    fn a_page_view_is_its_module_in_www_views() {
        // www/views/index.js imports `./<id>.js` for the protocols that say they have a view.
        for p in super::super::PROTOCOLS {
            let id = p.info().id;
            let module = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("www/views")
                .join(format!("{id}.js"));
            assert_eq!(p.extras().page_view, module.is_file(), "{id}");
            assert!(p.extras().views.is_empty() || p.extras().page_view, "{id}");
        }
    }

    #[test]
    fn view_arguments_and_unknown_views() {
        let files = FileSet::build(Vec::new(), &crate::input::Limits::default());
        let req = Request::new(crate::report::Mode::Official);
        let args = json!({"image": "001", "image_id": 42, "half": 1.5, "float": 7.0});
        let mut cache = Cache::default();
        let mut call = ViewCall {
            files: &files,
            req: &req,
            args: &args,
            cache: &mut cache,
        };
        assert_eq!(call.text("image"), Ok("001"));
        assert!(call.text("image_id").is_err());
        assert_eq!(call.integer("image_id"), Ok(42));
        assert_eq!(call.integer("float"), Ok(7));
        assert!(call.integer("half").is_err() && call.integer("image").is_err());
        assert!(run("no-such-protocol", "overlay", &mut call).is_err());
        for p in super::super::PROTOCOLS {
            let id = p.info().id;
            assert!(run(id, "no-such-view", &mut call).is_err(), "{id}");
        }
    }

    #[test]
    fn asset_names_are_unique() {
        let mut names: Vec<&str> = super::super::PROTOCOLS
            .iter()
            .flat_map(|p| p.extras().assets)
            .map(|a| a.name)
            .collect();
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n);
    }
}
