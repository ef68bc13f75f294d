//! AI Journey 2022 FusionBrain metrics (specs/aij2022.md 3): text normalisation, token F1, exact match,
//! 1 − NED, METEOR with its stemmers and tokenisers, FID and the score combinations.

pub mod clip;
pub mod fid;
pub mod meteor;
pub mod porter;
pub mod text;
pub mod tokens;
