//! A block of consecutive replicates' draw counts, as the draws give them: one byte a unit when every count
//! fits (at a million units a unit is drawn at most a dozen times), else 32 bits. A protocol that reads bytes
//! ([`Replicate::values_block_bytes`]) then reads a quarter of the memory, and nobody pays for widening them;
//! the others get 32-bit weights, widened once per replicate as they ask ([`Block::wide`]).

use super::resample::Resampler;
use super::units::Replicate;

/// One replicate's counts.
#[derive(Default)]
struct Drawn {
    bytes: Vec<u8>,
    wide: Vec<u32>,
    /// The counts are in `bytes` (else in `wide`).
    in_bytes: bool,
    /// `wide` holds them too.
    widened: bool,
}

/// Up to `size` consecutive replicates (see [`Block::fill`]); the vectors are reused from one block to the next.
#[derive(Default)]
pub struct Block {
    drawn: Vec<Drawn>,
    filled: usize,
}

impl Block {
    /// The next block of up to `size` replicates from `resampler`; false when none is left.
    pub fn fill(&mut self, resampler: &mut Resampler, size: usize) -> bool {
        self.drawn
            .resize_with(size.max(self.drawn.len()), Drawn::default);
        self.filled = 0;
        while self.filled < size {
            let d = &mut self.drawn[self.filled];
            match resampler.next_counts(&mut d.bytes, &mut d.wide) {
                Some(in_bytes) => (d.in_bytes, d.widened) = (in_bytes, !in_bytes),
                None => break,
            }
            self.filled += 1;
        }
        self.filled > 0
    }

    /// The number of replicates in the block.
    pub fn len(&self) -> usize {
        self.filled
    }

    /// Whether the block holds no replicate.
    pub fn is_empty(&self) -> bool {
        self.filled == 0
    }

    /// Each replicate's counts as bytes, when every one of the block fits.
    pub fn bytes(&self) -> Option<Vec<&[u8]>> {
        let drawn = &self.drawn[..self.filled];
        (drawn.iter().all(|d| d.in_bytes)).then(|| drawn.iter().map(|d| &d.bytes[..]).collect())
    }

    /// Each replicate's counts in 32 bits (widened here once when they were drawn as bytes).
    pub fn wide(&mut self) -> Vec<&[u32]> {
        let drawn = &mut self.drawn[..self.filled];
        for d in drawn.iter_mut().filter(|d| !d.widened) {
            d.wide.resize(d.bytes.len(), 0);
            super::resample::widen(&d.bytes, &mut d.wide);
            d.widened = true;
        }
        drawn.iter().map(|d| &d.wide[..]).collect()
    }

    /// Every metric of `replicate` on each replicate of the block: through
    /// [`Replicate::values_block_bytes`] when the counts are bytes and the protocol reads them so, else
    /// [`Replicate::values_block`].
    pub fn values(&mut self, replicate: &dyn Replicate) -> Vec<Vec<Option<f64>>> {
        if let Some(values) = self.bytes().and_then(|b| replicate.values_block_bytes(&b)) {
            return values;
        }
        replicate.values_block(&self.wide())
    }
}

#[cfg(test)]
mod tests {
    use super::{Block, Replicate, Resampler};
    use std::any::Any;

    /// Sums each replicate's weights, in bytes when it can.
    struct Total;
    impl Replicate for Total {
        fn metrics(&self) -> Vec<String> {
            vec!["total".into(), "bytes".into()]
        }
        fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
            let t: u32 = w.iter().sum();
            vec![Some(t as f64), Some(0.0)]
        }
        fn values_block_bytes(&self, ws: &[&[u8]]) -> Option<Vec<Vec<Option<f64>>>> {
            let t = |w: &[u8]| w.iter().map(|&k| k as u32).sum::<u32>() as f64;
            Some(ws.iter().map(|w| vec![Some(t(w)), Some(1.0)]).collect())
        }
        fn as_any(&self) -> &dyn Any {
            self
        }
    }

    /// A block's counts, as bytes or widened, are the draws [`Resampler::next_weights`] gives, block after
    /// block (strata with 0 and 1 unit included); the values go through the bytes.
    #[test]
    fn blocks_give_the_draws_in_order() {
        for sizes in [vec![5000usize], vec![1, 0, 300, 7]] {
            let n: usize = sizes.iter().sum();
            let mut expected = Resampler::new(11, &sizes, 10);
            let mut resampler = Resampler::new(11, &sizes, 10);
            let (mut block, mut w, mut seen) = (Block::default(), vec![0u32; n], 0);
            while block.fill(&mut resampler, 4) {
                let bytes: Vec<Vec<u8>> =
                    block.bytes().unwrap().iter().map(|b| b.to_vec()).collect();
                let values = block.values(&Total);
                for (r, wide) in block.wide().iter().enumerate() {
                    assert!(expected.next_weights(&mut w));
                    assert_eq!(*wide, &w[..]);
                    assert!(bytes[r].iter().zip(&w).all(|(&b, &k)| b as u32 == k));
                    assert_eq!(values[r], vec![Some(n as f64), Some(1.0)]);
                }
                seen += block.len();
            }
            assert_eq!(seen, 10);
            assert!(!expected.next_weights(&mut w));
        }
    }

    /// A block with a replicate in 32 bits (a count past 255) gives no bytes: its values come from `values`,
    /// and the replicates drawn as bytes are widened for it.
    #[test]
    fn a_wide_replicate_takes_the_block_to_32_bits() {
        use super::Drawn;
        let bytes = Drawn {
            bytes: vec![1, 2, 0],
            in_bytes: true,
            ..Drawn::default()
        };
        let wide = Drawn {
            wide: vec![0, 300, 0],
            widened: true,
            ..Drawn::default()
        };
        let mut block = Block {
            drawn: vec![bytes, wide],
            filled: 2,
        };
        assert!(block.bytes().is_none());
        let values = block.values(&Total);
        assert_eq!(
            values,
            vec![vec![Some(3.0), Some(0.0)], vec![Some(300.0), Some(0.0)]]
        );
        assert_eq!(block.wide(), vec![&[1u32, 2, 0][..], &[0, 300, 0][..]]);
    }
}
