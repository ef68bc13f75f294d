//! The measure registry: trec_eval names, default cutoffs, the `official` set, family expansion and the
//! parsing of `measures=map,P_5,ndcg_cut_10` (docs/specs/kws.md 5 and 8). Order is trec_eval's
//! (`measures.c`, `te_trec_measures`), then ascending cutoff within a family (`meas_init.c` sorts them).

/// A measure family, in trec_eval's evaluation and printing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    Runid,
    NumQ,
    NumRet,
    NumRel,
    NumRelRet,
    Map,
    GmMap,
    Rprec,
    Bpref,
    RecipRank,
    IprecAtRecall,
    P,
    Recall,
    Ndcg,
    NdcgCut,
    MapCut,
    RelativeP,
    Success,
}

/// trec_eval's default cutoffs for P, recall, ndcg_cut, map_cut and relative_P (`m_P.c` …).
pub const DEFAULT_CUTOFFS: [u32; 9] = [5, 10, 15, 20, 30, 100, 200, 500, 1000];
/// trec_eval's default cutoffs for success (`m_success.c`).
pub const SUCCESS_CUTOFFS: [u32; 3] = [1, 5, 10];
/// The recall levels of `iprec_at_recall`, in hundredths (0.00, 0.10, …, 1.00).
pub const IPREC_LEVELS: [u32; 11] = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100];

struct Info {
    family: Family,
    name: &'static str,
    /// Default parameters: cutoffs (hundredths for iprec_at_recall); empty for a single measure.
    defaults: &'static [u32],
}

const FAMILIES: &[Info] = &[
    Info {
        family: Family::Runid,
        name: "runid",
        defaults: &[],
    },
    Info {
        family: Family::NumQ,
        name: "num_q",
        defaults: &[],
    },
    Info {
        family: Family::NumRet,
        name: "num_ret",
        defaults: &[],
    },
    Info {
        family: Family::NumRel,
        name: "num_rel",
        defaults: &[],
    },
    Info {
        family: Family::NumRelRet,
        name: "num_rel_ret",
        defaults: &[],
    },
    Info {
        family: Family::Map,
        name: "map",
        defaults: &[],
    },
    Info {
        family: Family::GmMap,
        name: "gm_map",
        defaults: &[],
    },
    Info {
        family: Family::Rprec,
        name: "Rprec",
        defaults: &[],
    },
    Info {
        family: Family::Bpref,
        name: "bpref",
        defaults: &[],
    },
    Info {
        family: Family::RecipRank,
        name: "recip_rank",
        defaults: &[],
    },
    Info {
        family: Family::IprecAtRecall,
        name: "iprec_at_recall",
        defaults: &IPREC_LEVELS,
    },
    Info {
        family: Family::P,
        name: "P",
        defaults: &DEFAULT_CUTOFFS,
    },
    Info {
        family: Family::Recall,
        name: "recall",
        defaults: &DEFAULT_CUTOFFS,
    },
    Info {
        family: Family::Ndcg,
        name: "ndcg",
        defaults: &[],
    },
    Info {
        family: Family::NdcgCut,
        name: "ndcg_cut",
        defaults: &DEFAULT_CUTOFFS,
    },
    Info {
        family: Family::MapCut,
        name: "map_cut",
        defaults: &DEFAULT_CUTOFFS,
    },
    Info {
        family: Family::RelativeP,
        name: "relative_P",
        defaults: &DEFAULT_CUTOFFS,
    },
    Info {
        family: Family::Success,
        name: "success",
        defaults: &SUCCESS_CUTOFFS,
    },
];

/// trec_eval's `official` set (`measures.c`, `off_names`).
pub const OFFICIAL: [Family; 12] = [
    Family::Runid,
    Family::NumQ,
    Family::NumRet,
    Family::NumRel,
    Family::NumRelRet,
    Family::Map,
    Family::GmMap,
    Family::Rprec,
    Family::Bpref,
    Family::RecipRank,
    Family::IprecAtRecall,
    Family::P,
];

/// One measure: a family and, for cutoff families, one cutoff (hundredths of recall for
/// `iprec_at_recall`; 0 for single measures).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Measure {
    pub family: Family,
    pub param: u32,
}

impl Family {
    fn info(self) -> &'static Info {
        // FAMILIES lists every variant in declaration order (checked by a test).
        FAMILIES
            .get(self as usize)
            .filter(|i| i.family == self)
            .or_else(|| FAMILIES.iter().find(|i| i.family == self))
            .unwrap_or(&FAMILIES[0])
    }
    pub fn name(self) -> &'static str {
        self.info().name
    }
    pub fn has_cutoffs(self) -> bool {
        !self.info().defaults.is_empty()
    }
    /// The family expanded to trec_eval's default parameters.
    pub fn expand(self) -> Vec<Measure> {
        let d = self.info().defaults;
        if d.is_empty() {
            vec![Measure {
                family: self,
                param: 0,
            }]
        } else {
            d.iter()
                .map(|p| Measure {
                    family: self,
                    param: *p,
                })
                .collect()
        }
    }
}

impl Measure {
    pub fn single(family: Family) -> Measure {
        Measure { family, param: 0 }
    }
    pub fn cut(family: Family, k: u32) -> Measure {
        Measure { family, param: k }
    }
    /// trec_eval's printed name: `map`, `P_5` (`%s_%ld`), `iprec_at_recall_0.10` (`%s_%3.2f`).
    pub fn name(&self) -> String {
        match self.family {
            Family::IprecAtRecall => {
                format!(
                    "iprec_at_recall_{}.{:02}",
                    self.param / 100,
                    self.param % 100
                )
            }
            f if f.has_cutoffs() => format!("{}_{}", f.name(), self.param),
            f => f.name().to_string(),
        }
    }
    /// A count: printed as an integer (`%ld`), summed over queries.
    pub fn is_count(&self) -> bool {
        matches!(
            self.family,
            Family::NumQ | Family::NumRet | Family::NumRel | Family::NumRelRet
        )
    }
    /// trec_eval prints a per-query line (`-q`) for it: every measure except runid, num_q and gm_map.
    pub fn per_query(&self) -> bool {
        !matches!(self.family, Family::Runid | Family::NumQ | Family::GmMap)
    }
}

/// trec_eval's official set, expanded: runid, num_q, …, iprec_at_recall_0.00 … 1.00, P_5 … P_1000.
pub fn official() -> Vec<Measure> {
    OFFICIAL.iter().flat_map(|f| f.expand()).collect()
}

/// Every accepted name, for error messages.
pub fn valid_names() -> String {
    let mut v = vec!["official".to_string()];
    for i in FAMILIES {
        if i.defaults.is_empty() {
            v.push(i.name.to_string());
        } else if i.family == Family::IprecAtRecall {
            v.push(format!("{} (or {}_0.00 … {}_1.00)", i.name, i.name, i.name));
        } else {
            v.push(format!("{} (or {}_<k>)", i.name, i.name));
        }
    }
    v.join(", ")
}

/// Parses a measure list (`map,P_5,ndcg_cut`): `official`, a single measure, a family (expanded to its
/// default cutoffs), or a family with one cutoff (`P_7` or trec_eval's `P.7`). The result is the union, in
/// trec_eval order. An empty list means `official`. Unknown names give an error that lists the valid ones.
pub fn parse_measures<S: AsRef<str>>(names: &[S]) -> Result<Vec<Measure>, String> {
    let mut out: Vec<Measure> = Vec::new();
    let mut bad: Vec<String> = Vec::new();
    for raw in names {
        let name = raw.as_ref().trim();
        if name.is_empty() {
            continue;
        }
        match parse_one(name) {
            Some(ms) => out.extend(ms),
            None => bad.push(format!("`{name}`")),
        }
    }
    if !bad.is_empty() {
        return Err(format!(
            "unknown trec measure{} {}; valid: {}",
            if bad.len() > 1 { "s" } else { "" },
            bad.join(", "),
            valid_names()
        ));
    }
    if out.is_empty() {
        out = official();
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn parse_one(name: &str) -> Option<Vec<Measure>> {
    if name == "official" {
        return Some(official());
    }
    if let Some(i) = FAMILIES.iter().find(|i| i.name == name) {
        return Some(i.family.expand());
    }
    // A family with one parameter: the longest family name followed by `_` or `.`.
    for i in FAMILIES.iter().filter(|i| !i.defaults.is_empty()) {
        let Some(rest) = name.strip_prefix(i.name) else {
            continue;
        };
        let Some(param) = rest.strip_prefix('_').or_else(|| rest.strip_prefix('.')) else {
            continue;
        };
        if i.family == Family::IprecAtRecall {
            let level = IPREC_LEVELS
                .iter()
                .find(|l| format!("{}.{:02}", *l / 100, *l % 100) == param)?;
            return Some(vec![Measure::cut(i.family, *level)]);
        }
        if !param.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let k: u32 = param.parse().ok()?;
        if k == 0 {
            return None;
        }
        return Some(vec![Measure::cut(i.family, k)]);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(ms: &[Measure]) -> Vec<String> {
        ms.iter().map(|m| m.name()).collect()
    }

    #[test]
    fn table_in_declaration_order() {
        for (i, f) in FAMILIES.iter().enumerate() {
            assert_eq!(f.family as usize, i, "{}", f.name);
        }
    }

    #[test]
    fn official_set_in_trec_eval_order() {
        let n = names(&official());
        assert_eq!(n.len(), 10 + 11 + 9);
        assert_eq!(
            &n[..6],
            ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map"]
        );
        assert_eq!(n[10], "iprec_at_recall_0.00");
        assert_eq!(n[20], "iprec_at_recall_1.00");
        assert_eq!(n[21], "P_5");
        assert_eq!(n[29], "P_1000");
    }

    #[test]
    fn parse_lists() {
        let ms =
            parse_measures(&["ndcg_cut_10", "map", "P_5", "success", "relative_P.10"]).unwrap();
        assert_eq!(
            names(&ms),
            [
                "map",
                "P_5",
                "ndcg_cut_10",
                "relative_P_10",
                "success_1",
                "success_5",
                "success_10"
            ]
        );
        let ms = parse_measures(&["P", "P_7", "P_5"]).unwrap();
        assert_eq!(ms.len(), 10);
        assert_eq!(ms[1].name(), "P_7");
        assert_eq!(
            names(&parse_measures(&["iprec_at_recall_0.10"]).unwrap()),
            ["iprec_at_recall_0.10"]
        );
        assert_eq!(parse_measures::<&str>(&[]).unwrap(), official());
    }

    #[test]
    fn unknown_names_list_valid_ones() {
        let e = parse_measures(&["map", "P_x", "ndgc", "P_0"]).unwrap_err();
        assert!(e.starts_with("unknown trec measures `P_x`, `ndgc`, `P_0`; valid: official, runid"));
        assert!(e.contains("ndcg_cut (or ndcg_cut_<k>)"));
        assert!(parse_measures(&["iprec_at_recall_0.15"]).is_err());
    }
}
