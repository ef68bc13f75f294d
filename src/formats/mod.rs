//! Readers: bytes in, typed data out, every problem a located [`crate::Diagnostic`].

pub mod fxhash;
pub mod kws_xml;
pub mod kws_xml_lines;
pub mod lines;
pub mod trec;
