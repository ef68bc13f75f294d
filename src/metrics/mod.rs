//! Pure metric functions: no I/O, no parsing. Each function's doc comment gives its formula and the source it
//! reproduces (trec_eval's one-file-per-measure layout, scikit-learn-style documentation).

pub mod aij;
pub mod assignment;
pub mod classification;
pub mod coco;
pub mod edit;
pub mod falsid;
pub mod fest;
pub mod interp;
pub mod kaggle;
pub mod mean;
pub mod radix;
pub mod rank;
pub mod regression;
pub mod regression_weighted;
pub mod rouge;
pub mod rusteval;
pub mod sacrebleu;
pub mod segmentation;
pub mod text;
pub mod trec;
pub mod voc_ap;
