//! The registry: every protocol, one line each, in the specs' order. The CLI, the wasm binding, the config
//! validator, the scoring program and `dropscore list` all iterate it; nothing else names a protocol. A new
//! protocol is its folder plus one line here.

use super::{
    aij2022, chalearn_ce, classification, detection, falsid, fest, kws, regression, segmentation,
    text, AnyProtocol, ProtocolInfo, UsageError,
};

/// Every protocol, in the specs' order: the one table of protocol ids.
pub static PROTOCOLS: &[&dyn AnyProtocol] = &[
    &kws::Kws,
    &fest::Fest,
    &falsid::Falsid,
    &chalearn_ce::ChalearnCe,
    &aij2022::Aij2022,
    &classification::Classification,
    &regression::Regression,
    &detection::Detection,
    &segmentation::Segmentation,
    &text::Text,
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
