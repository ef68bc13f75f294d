//! AI Journey 2022 FusionBrain metrics (docs/specs/aij2022.md 3): text normalisation, token F1, exact match,
//! 1 − NED, METEOR with its stemmers and tokenisers, FID and the score combinations.

pub mod clip;
pub mod fid;
pub mod meteor;
pub mod nltk_tokenize;
pub mod porter;
pub mod razdel;
pub mod text;
pub mod tokens;

/// An empty vector on `v`'s allocation, for elements of another type of the same layout (tokens borrowed for
/// another lifetime): the collect reuses the buffer, as nothing is mapped. Loops over 100,000 ids reuse their
/// token lists this way instead of allocating them per id.
pub fn recycle<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter().filter_map(|_| None).collect()
}
