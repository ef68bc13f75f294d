//! The registry: every protocol, one line each, in the specs' order. The CLI, the wasm binding, the config
//! validator, the scoring program and `dropscore list` all iterate it; nothing else names a protocol. A new
//! protocol is its folder plus one line here.

use super::{AnyProtocol, ProtocolInfo, UsageError};

/// Every protocol, in the specs' order: the one table of protocol ids. Each line is on when its cargo feature is
/// (all are by default; the page's engine is built as a few modules with a part of them, scripts/build-wasm).
pub static PROTOCOLS: &[&dyn AnyProtocol] = &[
    #[cfg(feature = "kws")]
    &super::kws::Kws,
    #[cfg(feature = "fest")]
    &super::fest::Fest,
    #[cfg(feature = "falsid")]
    &super::falsid::Falsid,
    #[cfg(feature = "chalearn_ce")]
    &super::chalearn_ce::ChalearnCe,
    #[cfg(feature = "aij2022")]
    &super::aij2022::Aij2022,
    #[cfg(feature = "classification")]
    &super::classification::Classification,
    #[cfg(feature = "regression")]
    &super::regression::Regression,
    #[cfg(feature = "detection")]
    &super::detection::Detection,
    #[cfg(feature = "segmentation")]
    &super::segmentation::Segmentation,
    #[cfg(feature = "text")]
    &super::text::Text,
    #[cfg(feature = "kaggle")]
    &super::kaggle::Kaggle,
    #[cfg(feature = "toy")]
    &super::toy::Toy,
];

/// The protocol with id `id`.
pub fn get(id: &str) -> Option<&'static dyn AnyProtocol> {
    PROTOCOLS.iter().copied().find(|p| p.info().id == id)
}

/// The protocol with id `id`, or the usage error that lists the known ones.
pub fn require(id: &str) -> Result<&'static dyn AnyProtocol, UsageError> {
    get(id).ok_or_else(|| {
        UsageError(format!(
            "unknown protocol `{id}`; known: {}",
            PROTOCOLS
                .iter()
                .map(|p| p.info().id)
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })
}

/// Every protocol's description, in the table's order.
pub fn list() -> Vec<ProtocolInfo> {
    PROTOCOLS.iter().map(|p| p.info().clone()).collect()
}

/// The description of protocol `id`.
pub fn info(id: &str) -> Option<ProtocolInfo> {
    get(id).map(|p| p.info().clone())
}

#[cfg(test)]
mod tests {
    use super::PROTOCOLS;

    /// The descriptor lists the option table its typed options declare, and every id is listed once.
    #[test]
    fn descriptors_agree_with_the_typed_options() {
        for (i, p) in PROTOCOLS.iter().enumerate() {
            let names =
                |t: &[crate::protocols::OptionSpec]| t.iter().map(|s| s.name).collect::<Vec<_>>();
            assert_eq!(
                names(p.info().options),
                names(p.option_table()),
                "{}",
                p.info().id
            );
            assert!(PROTOCOLS[..i].iter().all(|q| q.info().id != p.info().id));
        }
    }
}
