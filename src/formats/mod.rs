//! Readers: bytes in, typed data out, every problem a located [`crate::Diagnostic`].

pub mod aij_json;
pub mod chalearn;
pub mod classification_csv;
pub mod coco_json;
pub mod csv_block;
pub mod csv_fast;
pub mod csv_records;
pub mod falsid_labels;
pub mod falsid_matrix;
pub mod id_csv;
pub mod id_index;
pub mod kaggle_csv;
pub mod kws_xml;
pub mod kws_xml_lines;
pub mod label_map;
pub mod lines;
pub mod npy;
pub mod pandas_cells;
pub mod png_chunks;
pub mod png_mask;
pub mod python_json;
pub mod regression_csv;
pub mod text_file;
pub mod text_input;
pub mod trec;
