//! Russian lemmatiser: the first parse's normal form as pymorphy3 (OpenCorpora dictionary) gives it.
//!
//! Contract (used by `protocols::aij2022`, implemented by issue 7):
//! - [`Lemmatizer::from_bytes`] loads the compact dictionary asset built by the set-up command;
//! - [`Lemmatizer::normal_form`] takes a lower-cased word form and returns its normal form; a word it cannot
//!   place comes back unchanged, as pymorphy does.
//!
//! Until the dictionary exists this is a placeholder that loads nothing.

use std::borrow::Cow;

/// A loaded dictionary.
#[derive(Debug)]
pub struct Lemmatizer {
    _private: (),
}

impl Lemmatizer {
    /// Loads the dictionary asset.
    pub fn from_bytes(_data: &[u8]) -> Result<Self, String> {
        Err("the built-in Russian lemmatiser is not built yet".to_string())
    }

    /// The normal form of a lower-cased word form (the word itself when unknown).
    pub fn normal_form<'a>(&self, word: &'a str) -> Cow<'a, str> {
        Cow::Borrowed(word)
    }
}
