//! The byte crossbars between the register file and the lanes: `Gather` picks each channel's
//! element out of a source register (S2, between the block RAM's read register and the
//! register file's output register), `Scatter` places each lane's result at its channel's bytes
//! of the destination register (S4, into the register file's write port with byte enables).
//!
//! Both take the channel byte offsets from the region address generator (`out_addr`'s byte
//! field, 5 bits per channel) for a region that lies in one register (`regions::Regions` checks
//! that). Element sizes 1, 2, 4 bytes (`esize_log2` 0, 1, 2); a source element is widened to
//! 32 bits as docs/isa.md says (`b`/`w` sign-extended, `ub`/`uw` zero-extended).
//!
//! Origins are aligned to the element size (the core's generator has `ALIGN_STRICT`; a
//! misaligned origin is an illegal region and never retires), so an element lies inside one
//! 32-bit word of the register, at a byte offset that is a multiple of its size. Both crossbars
//! are therefore built on words: the gather takes each lane's word (an 8:1 select as a binary
//! tree) and then the element within it (a 4:1 byte select for the low byte, a 2:1 for the
//! second, nothing for the upper two); the scatter replicates each lane's element across a word
//! (a byte four times, a half twice) and ORs the lanes into the words they hit, gated per byte.
//! On the ECP5 (yosys 0.23) the gathers were 17 535 of the core's 38 263 LUT4 as 256-bit byte
//! shifts and the scatter 4 856; figures for this structure in docs/eu_core.md.

use rust_hdl::prelude::*;

/// One 32-bit word out of eight: `q` = word `sel` of `words` (word k at bits [32k, 32k+32)), as a
/// binary tree of 2:1 selects on the bits of `sel` (so yosys maps it to 2:1 muxes, not to a
/// shifter).
#[derive(LogicBlock, Default)]
pub struct WordSelect {
    /// Eight words, word k at bits [32k, 32k+32).
    pub words: Signal<In, Bits<256>>,
    /// The word taken.
    pub sel: Signal<In, Bits<3>>,
    /// Word `sel`.
    pub q: Signal<Out, Bits<32>>,
    pick: Signal<Local, Bits<32>>,
    level1: Signal<Local, Bits<128>>,
    level2: Signal<Local, Bits<64>>,
}

impl Logic for WordSelect {
    #[hdl_gen]
    fn update(&mut self) {
        // level 1: words 2j / 2j+1 by sel bit 0, collected from the top (pair 0 ends lowest)
        self.level1.next = 0.into();
        for j in 0..4 {
            self.pick.next = self.words.val().get_bits::<32>(64 * j);
            if self.sel.val().get_bit(0) {
                self.pick.next = self.words.val().get_bits::<32>(64 * j + 32);
            }
            self.level1.next = (self.level1.val() >> 32) | (bit_cast::<128, 32>(self.pick.val()) << 96);
        }
        // level 2: by sel bit 1
        self.level2.next = 0.into();
        for j in 0..2 {
            self.pick.next = self.level1.val().get_bits::<32>(64 * j);
            if self.sel.val().get_bit(1) {
                self.pick.next = self.level1.val().get_bits::<32>(64 * j + 32);
            }
            self.level2.next = (self.level2.val() >> 32) | (bit_cast::<64, 32>(self.pick.val()) << 32);
        }
        // level 3: by sel bit 2
        self.q.next = self.level2.val().get_bits::<32>(0);
        if self.sel.val().get_bit(2) {
            self.q.next = self.level2.val().get_bits::<32>(32);
        }
    }
}

/// One lane of the source gather: the element at byte `col` of `word`, widened to 32 bits. `col`
/// is a multiple of the element size (an aligned origin).
#[derive(LogicBlock)]
pub struct GatherLane {
    /// The register (byte b at bits [8b, 8b+8)).
    pub word: Signal<In, Bits<256>>,
    /// The element's byte offset in the register.
    pub col: Signal<In, Bits<5>>,
    /// log2 of the element size in bytes (0, 1, 2).
    pub esize_log2: Signal<In, Bits<2>>,
    /// The type is signed (`b`, `w`): a narrow element is sign-extended.
    pub sext: Signal<In, Bit>,
    /// The element, widened.
    pub elem: Signal<Out, Bits<32>>,
    /// Word `col / 4`.
    word_select: WordSelect,
    in_word: Signal<Local, Bits<32>>,
    picked: Signal<Local, Bits<32>>,
    k_es: [Constant<Bits<2>>; 2],
    k_byte: Constant<Bits<32>>,
    k_half: Constant<Bits<32>>,
    k_ext_byte: Constant<Bits<32>>,
    k_ext_half: Constant<Bits<32>>,
}

impl Default for GatherLane {
    fn default() -> Self {
        Self {
            word: Default::default(),
            col: Default::default(),
            esize_log2: Default::default(),
            sext: Default::default(),
            elem: Default::default(),
            word_select: Default::default(),
            in_word: Default::default(),
            picked: Default::default(),
            k_es: [Constant::new(0u64.into()), Constant::new(1u64.into())],
            k_byte: Constant::new(0xFFu64.into()),
            k_half: Constant::new(0xFFFFu64.into()),
            k_ext_byte: Constant::new(0xFFFF_FF00u64.into()),
            k_ext_half: Constant::new(0xFFFF_0000u64.into()),
        }
    }
}

impl Logic for GatherLane {
    #[hdl_gen]
    fn update(&mut self) {
        self.word_select.words.next = self.word.val();
        self.word_select.sel.next = self.col.val().get_bits::<3>(2);
        // the element's low bytes: the word shifted right by 2 bytes if col bit 1, then by one
        // byte if col bit 0 (only a byte has it set); the upper bytes are masked off below
        self.in_word.next = self.word_select.q.val();
        if self.col.val().get_bit(1) {
            self.in_word.next = self.in_word.val() >> 16;
        }
        if self.col.val().get_bit(0) {
            self.in_word.next = self.in_word.val() >> 8;
        }
        self.picked.next = self.in_word.val();
        self.elem.next = self.picked.val();
        if self.esize_log2.val() == self.k_es[0].val() {
            self.elem.next = self.picked.val() & self.k_byte.val();
            if self.sext.val() & self.picked.val().get_bit(7) {
                self.elem.next = self.picked.val() | self.k_ext_byte.val();
            }
        }
        if self.esize_log2.val() == self.k_es[1].val() {
            self.elem.next = self.picked.val() & self.k_half.val();
            if self.sext.val() & self.picked.val().get_bit(15) {
                self.elem.next = self.picked.val() | self.k_ext_half.val();
            }
        }
    }
}

/// Source gather: lane i = the element at byte `cols[i]` of `word`, widened to 32 bits.
#[derive(LogicBlock, Default)]
pub struct Gather {
    /// The register (byte b at bits [8b, 8b+8)).
    pub word: Signal<In, Bits<256>>,
    /// Channel i's byte offset in the register at bits [5i, 5i+5).
    pub cols: Signal<In, Bits<40>>,
    /// log2 of the element size in bytes (0, 1, 2).
    pub esize_log2: Signal<In, Bits<2>>,
    /// The type is signed (`b`, `w`): a narrow element is sign-extended.
    pub sext: Signal<In, Bit>,
    /// Lane i at bits [32i, 32i+32).
    pub data: Signal<Out, Bits<256>>,
    lanes: [GatherLane; 8],
    elem: Signal<Local, Bits<32>>,
    collect: Signal<Local, Bits<256>>,
}

impl Logic for Gather {
    #[hdl_gen]
    fn update(&mut self) {
        // lanes are shifted in from the top, lane 0 first
        self.collect.next = 0.into();
        for i in 0..8 {
            self.lanes[i].word.next = self.word.val();
            self.lanes[i].col.next = self.cols.val().get_bits::<5>(5 * i);
            self.lanes[i].esize_log2.next = self.esize_log2.val();
            self.lanes[i].sext.next = self.sext.val();
            self.elem.next = self.lanes[i].elem.val();
            self.collect.next = (self.collect.val() >> 32) | (bit_cast::<256, 32>(self.elem.val()) << 224);
        }
        self.data.next = self.collect.val();
    }
}

/// One lane of the destination scatter: where the lane's element goes — the word of the register
/// (`word_index`), the word's new bytes (`data`, the element replicated across the word and
/// masked to its bytes) and which bytes (`be`); `data` and `be` are zero for a lane that does not
/// run. `col` is a multiple of the element size (an aligned origin).
#[derive(LogicBlock)]
pub struct ScatterLane {
    /// The lane's 32-bit result (the element is its low `2^esize_log2` bytes).
    pub value: Signal<In, Bits<32>>,
    /// The element's byte offset in the destination register.
    pub col: Signal<In, Bits<5>>,
    /// log2 of the element size in bytes (0, 1, 2).
    pub esize_log2: Signal<In, Bits<2>>,
    /// The lane runs (its execution-mask bit).
    pub run: Signal<In, Bit>,
    /// The register word the element is in (`col / 4`).
    pub word_index: Signal<Out, Bits<3>>,
    /// The word's bytes written by this lane (other bytes zero).
    pub data: Signal<Out, Bits<32>>,
    /// Bit k: byte k of the word is written by this lane.
    pub be: Signal<Out, Bits<4>>,
    low: Signal<Local, Bits<32>>,
    placed: Signal<Local, Bits<32>>,
    bytes: Signal<Local, Bits<4>>,
    byte_mask: Signal<Local, Bits<32>>,
    k_es: [Constant<Bits<2>>; 2],
    k_byte: Constant<Bits<32>>,
    k_half: Constant<Bits<32>>,
    k_one: Constant<Bits<4>>,
    k_pair: Constant<Bits<4>>,
    k_all: Constant<Bits<4>>,
    k_byte_mask: [Constant<Bits<32>>; 4],
}

impl Default for ScatterLane {
    fn default() -> Self {
        Self {
            value: Default::default(),
            col: Default::default(),
            esize_log2: Default::default(),
            run: Default::default(),
            word_index: Default::default(),
            data: Default::default(),
            be: Default::default(),
            low: Default::default(),
            placed: Default::default(),
            bytes: Default::default(),
            byte_mask: Default::default(),
            k_es: [Constant::new(0u64.into()), Constant::new(1u64.into())],
            k_byte: Constant::new(0xFFu64.into()),
            k_half: Constant::new(0xFFFFu64.into()),
            k_one: Constant::new(0x1u64.into()),
            k_pair: Constant::new(0x3u64.into()),
            k_all: Constant::new(0xFu64.into()),
            k_byte_mask: [
                Constant::new(0x0000_00FFu64.into()),
                Constant::new(0x0000_FF00u64.into()),
                Constant::new(0x00FF_0000u64.into()),
                Constant::new(0xFF00_0000u64.into()),
            ],
        }
    }
}

impl Logic for ScatterLane {
    #[hdl_gen]
    fn update(&mut self) {
        self.word_index.next = self.col.val().get_bits::<3>(2);
        // the element replicated across the word, so that whichever bytes it lands on hold it
        self.low.next = self.value.val();
        self.placed.next = self.value.val();
        self.bytes.next = self.k_all.val();
        if self.esize_log2.val() == self.k_es[0].val() {
            self.low.next = self.value.val() & self.k_byte.val();
            self.placed.next = self.low.val() | (self.low.val() << 8) | (self.low.val() << 16) | (self.low.val() << 24);
            self.bytes.next = self.k_one.val() << self.col.val().get_bits::<2>(0);
        }
        if self.esize_log2.val() == self.k_es[1].val() {
            self.low.next = self.value.val() & self.k_half.val();
            self.placed.next = self.low.val() | (self.low.val() << 16);
            self.bytes.next = self.k_pair.val() << self.col.val().get_bits::<2>(0);
        }
        if !self.run.val() {
            self.bytes.next = 0.into();
        }
        self.byte_mask.next = 0.into();
        for k in 0..4 {
            if self.bytes.val().get_bit(k) {
                self.byte_mask.next = self.byte_mask.val() | self.k_byte_mask[k].val();
            }
        }
        self.data.next = self.placed.val() & self.byte_mask.val();
        self.be.next = self.bytes.val();
    }
}

/// Destination scatter: lane i's low `2^esize_log2` bytes go to bytes `cols[i]`.. of the
/// register, for the lanes of `mask`; `be` marks the bytes written. The region address generator
/// has rejected any destination that could write one byte from two channels (E_DST_OVERLAP), so
/// the lanes' bytes are disjoint and each word is the OR of the lanes that hit it.
#[derive(LogicBlock)]
pub struct Scatter {
    /// The lanes' results (lane i at bits [32i, 32i+32)).
    pub result: Signal<In, Bits<256>>,
    /// The lanes that write (the execution mask).
    pub mask: Signal<In, Bits<8>>,
    /// Channel i's byte offset in the destination register at bits [5i, 5i+5).
    pub cols: Signal<In, Bits<40>>,
    /// log2 of the element size in bytes (0, 1, 2).
    pub esize_log2: Signal<In, Bits<2>>,
    /// The register's new bytes (byte b at bits [8b, 8b+8); bytes outside `be` are 0).
    pub data: Signal<Out, Bits<256>>,
    /// Bit b: byte b is written.
    pub be: Signal<Out, Bits<32>>,
    lanes: [ScatterLane; 8],
    word_data: Signal<Local, Bits<32>>,
    word_be: Signal<Local, Bits<4>>,
    acc_data: Signal<Local, Bits<256>>,
    acc_be: Signal<Local, Bits<32>>,
    k_word: [Constant<Bits<3>>; 8],
}

impl Default for Scatter {
    fn default() -> Self {
        Self {
            result: Default::default(),
            mask: Default::default(),
            cols: Default::default(),
            esize_log2: Default::default(),
            data: Default::default(),
            be: Default::default(),
            lanes: Default::default(),
            word_data: Default::default(),
            word_be: Default::default(),
            acc_data: Default::default(),
            acc_be: Default::default(),
            k_word: core::array::from_fn(|w| Constant::new((w as u64).into())),
        }
    }
}

impl Logic for Scatter {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..8 {
            self.lanes[i].value.next = self.result.val().get_bits::<32>(32 * i);
            self.lanes[i].col.next = self.cols.val().get_bits::<5>(5 * i);
            self.lanes[i].esize_log2.next = self.esize_log2.val();
            self.lanes[i].run.next = self.mask.val().get_bit(i);
        }
        // word w: the OR of the lanes whose element is in it; words shifted in from the top
        self.acc_data.next = 0.into();
        self.acc_be.next = 0.into();
        for w in 0..8 {
            self.word_data.next = 0.into();
            self.word_be.next = 0.into();
            for i in 0..8 {
                if self.lanes[i].word_index.val() == self.k_word[w].val() {
                    self.word_data.next = self.word_data.val() | self.lanes[i].data.val();
                    self.word_be.next = self.word_be.val() | self.lanes[i].be.val();
                }
            }
            self.acc_data.next = (self.acc_data.val() >> 32) | (bit_cast::<256, 32>(self.word_data.val()) << 224);
            self.acc_be.next = (self.acc_be.val() >> 4) | (bit_cast::<32, 4>(self.word_be.val()) << 28);
        }
        self.data.next = self.acc_data.val();
        self.be.next = self.acc_be.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The element at byte `col` of the register `bytes`, `1 << es` bytes little-endian, widened
    /// to 32 bits — docs/isa.md's source operand.
    fn element(bytes: &[u8; 32], col: usize, es: usize, sext: bool) -> u32 {
        let size = 1usize << es;
        let mut v = 0u32;
        for k in 0..size {
            v |= (bytes[col + k] as u32) << (8 * k);
        }
        if sext && size < 4 && v >> (8 * size - 1) & 1 == 1 {
            v |= u32::MAX << (8 * size);
        }
        v
    }

    fn bits256(bytes: &[u8; 32]) -> Bits<256> {
        let mut word = Bits::<256>::default();
        for (b, &v) in bytes.iter().enumerate() {
            word = word | (bit_cast::<256, 8>((v as u64).into()) << (8 * b as u64));
        }
        word
    }

    #[test]
    fn gather_picks_every_aligned_offset_size_and_extension() {
        let mut g = Gather::default();
        g.connect_all();
        let mut rng = StdRng::seed_from_u64(0x9e37_79b9);
        let mut cases = 0;
        for round in 0..192 {
            let mut bytes = [0u8; 32];
            bytes.iter_mut().for_each(|b| *b = rng.gen::<u32>() as u8);
            let es = round % 3;
            let sext = round / 3 % 2 == 1;
            let slots = 32 >> es;
            // lanes 0..3 walk every slot of the size over the rounds, lanes 4..7 draw at random
            let cols: Vec<usize> = (0..8)
                .map(|i| if i < 4 { ((4 * (round / 6) + i) % slots) << es } else { (rng.gen::<u32>() as usize % slots) << es })
                .collect();
            let packed = cols.iter().enumerate().fold(0u64, |p, (i, &c)| p | (c as u64) << (5 * i));
            g.word.next = bits256(&bytes);
            g.cols.next = packed.into();
            g.esize_log2.next = (es as u64).into();
            g.sext.next = sext;
            assert!(simulate(&mut g, 100));
            let data = g.data.val();
            for (i, &c) in cols.iter().enumerate() {
                let got = data.get_bits::<32>(32 * i).index() as u32;
                assert_eq!(got, element(&bytes, c, es, sext), "lane {i}, col {c}, esize_log2 {es}, sext {sext}");
                cases += 1;
            }
        }
        assert_eq!(cases, 192 * 8);
    }

    #[test]
    fn scatter_places_each_running_lane_at_its_bytes_only() {
        let mut s = Scatter::default();
        s.connect_all();
        let mut rng = StdRng::seed_from_u64(0x2545_f491);
        for round in 0..300 {
            let es = round % 3;
            let size = 1usize << es;
            let slots = 32 >> es;
            // eight distinct element slots (a legal destination never writes a byte twice)
            let mut order: Vec<usize> = (0..slots).collect();
            for k in (1..slots).rev() {
                order.swap(k, rng.gen::<u32>() as usize % (k + 1));
            }
            let cols: Vec<usize> = order[..8].iter().map(|&slot| slot << es).collect();
            let values: Vec<u32> = (0..8).map(|_| rng.gen::<u32>()).collect();
            let mask = if round % 5 == 0 { 0xFF } else { rng.gen::<u32>() & 0xFF };
            let mut result = Bits::<256>::default();
            for (i, &v) in values.iter().enumerate() {
                result = result | (bit_cast::<256, 32>((v as u64).into()) << (32 * i as u64));
            }
            let packed = cols.iter().enumerate().fold(0u64, |p, (i, &c)| p | (c as u64) << (5 * i));
            s.result.next = result;
            s.mask.next = (mask as u64).into();
            s.cols.next = packed.into();
            s.esize_log2.next = (es as u64).into();
            assert!(simulate(&mut s, 100));
            let (mut want, mut want_be) = ([0u8; 32], 0u32);
            for i in (0..8).filter(|i| mask >> i & 1 == 1) {
                for k in 0..size {
                    want[cols[i] + k] = (values[i] >> (8 * k)) as u8;
                    want_be |= 1 << (cols[i] + k);
                }
            }
            assert_eq!(s.be.val().index() as u32, want_be, "round {round}: byte enables");
            for (b, &w) in want.iter().enumerate() {
                assert_eq!(s.data.val().get_bits::<8>(8 * b).index() as u8, w, "round {round}: byte {b}");
            }
        }
    }

    /// Test top: one `Gather` and one `Scatter` (the clock and reset every emitted module has are
    /// unread).
    #[derive(LogicBlock, Default)]
    struct CrossbarTop {
        clk: Signal<In, Clock>,
        rst: Signal<In, Bit>,
        word: Signal<In, Bits<256>>,
        cols: Signal<In, Bits<40>>,
        esize_log2: Signal<In, Bits<2>>,
        sext: Signal<In, Bit>,
        mask: Signal<In, Bits<8>>,
        gathered: Signal<Out, Bits<256>>,
        scattered: Signal<Out, Bits<256>>,
        be: Signal<Out, Bits<32>>,
        gather: Gather,
        scatter: Scatter,
    }
    impl Logic for CrossbarTop {
        #[hdl_gen]
        fn update(&mut self) {
            self.gather.word.next = self.word.val();
            self.gather.cols.next = self.cols.val();
            self.gather.esize_log2.next = self.esize_log2.val();
            self.gather.sext.next = self.sext.val();
            self.gathered.next = self.gather.data.val();
            self.scatter.result.next = self.word.val();
            self.scatter.mask.next = self.mask.val();
            self.scatter.cols.next = self.cols.val();
            self.scatter.esize_log2.next = self.esize_log2.val();
            self.scattered.next = self.scatter.data.val();
            self.be.next = self.scatter.be.val();
        }
    }

    /// The crossbars map to word selects and AND-OR trees, not to byte shifters: on the ECP5 a
    /// gather plus a scatter take at most half the LUT4 of the byte-shift versions they replace
    /// (8 747 + 4 856 out of context; 6 050 now, yosys 0.23).
    #[test]
    fn crossbars_map_to_word_selects_not_shifters() {
        use crate::prims::synth_check::{cells, count};
        let top = crate::emit::emit_module(CrossbarTop::default(), "eu_core_crossbars", "eu_core", vec![]).unwrap();
        let c = cells(&top, "synth_ecp5");
        let luts = count(&c, &["LUT4"]);
        assert!(luts <= (8_747 + 4_856) / 2, "{luts} LUT4: {c:?}");
    }
}
