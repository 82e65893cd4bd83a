//! The byte crossbars between the register file and the lanes: `Gather` picks each channel's
//! element out of a source register (S2, between the block RAM's read register and the
//! register file's output register), `Scatter` places each lane's result at its channel's bytes
//! of the destination register (S4, into the register file's write port with byte enables).
//!
//! Both take the channel byte offsets from the region address generator (`out_addr`'s byte
//! field, 5 bits per channel) for a region that lies in one register (`regions::Regions` checks
//! that). Element sizes 1, 2, 4 bytes (`esize_log2` 0, 1, 2); a source element is widened to
//! 32 bits as docs/isa.md says (`b`/`w` sign-extended, `ub`/`uw` zero-extended).

use rust_hdl::prelude::*;

/// Source gather: lane i = the element at byte `cols[i]` of `word`, widened to 32 bits.
#[derive(LogicBlock)]
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
    col: Signal<Local, Bits<5>>,
    shift: Signal<Local, Bits<8>>,
    picked: Signal<Local, Bits<32>>,
    elem: Signal<Local, Bits<32>>,
    collect: Signal<Local, Bits<256>>,
    k_top: Constant<Bits<16>>,
    k_es: [Constant<Bits<2>>; 2],
    k_byte: Constant<Bits<32>>,
    k_half: Constant<Bits<32>>,
    k_ext_byte: Constant<Bits<32>>,
    k_ext_half: Constant<Bits<32>>,
}

impl Default for Gather {
    fn default() -> Self {
        Self {
            word: Default::default(),
            cols: Default::default(),
            esize_log2: Default::default(),
            sext: Default::default(),
            data: Default::default(),
            col: Default::default(),
            shift: Default::default(),
            picked: Default::default(),
            elem: Default::default(),
            collect: Default::default(),
            k_top: Constant::new(224u64.into()),
            k_es: [Constant::new(0u64.into()), Constant::new(1u64.into())],
            k_byte: Constant::new(0xFFu64.into()),
            k_half: Constant::new(0xFFFFu64.into()),
            k_ext_byte: Constant::new(0xFFFF_FF00u64.into()),
            k_ext_half: Constant::new(0xFFFF_0000u64.into()),
        }
    }
}

impl Logic for Gather {
    #[hdl_gen]
    fn update(&mut self) {
        // lanes are shifted in from the top, lane 0 first
        self.collect.next = 0.into();
        for i in 0..8 {
            self.col.next = self.cols.val().get_bits::<5>(5 * i);
            self.shift.next = bit_cast::<8, 5>(self.col.val()) << 3;
            self.picked.next = bit_cast::<32, 256>(self.word.val() >> self.shift.val());
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
            self.collect.next = (self.collect.val() >> 32) | (bit_cast::<256, 32>(self.elem.val()) << self.k_top.val());
        }
        self.data.next = self.collect.val();
    }
}

/// Destination scatter: lane i's low `2^esize_log2` bytes go to bytes `cols[i]`.. of the
/// register, for the lanes of `mask`; `be` marks the bytes written. The region address generator
/// has rejected any destination that could write one byte from two channels (E_DST_OVERLAP), so
/// the lanes' bytes are disjoint and are simply ORed together.
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
    col: Signal<Local, Bits<5>>,
    shift: Signal<Local, Bits<8>>,
    elem_mask: Signal<Local, Bits<32>>,
    elem_be: Signal<Local, Bits<32>>,
    lane_value: Signal<Local, Bits<32>>,
    acc_data: Signal<Local, Bits<256>>,
    acc_be: Signal<Local, Bits<32>>,
    k_es: [Constant<Bits<2>>; 2],
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
            col: Default::default(),
            shift: Default::default(),
            elem_mask: Default::default(),
            elem_be: Default::default(),
            lane_value: Default::default(),
            acc_data: Default::default(),
            acc_be: Default::default(),
            k_es: [Constant::new(0u64.into()), Constant::new(1u64.into())],
        }
    }
}

impl Logic for Scatter {
    #[hdl_gen]
    fn update(&mut self) {
        self.elem_mask.next = 0xFFFF_FFFFu64.into();
        self.elem_be.next = 0xF.into();
        if self.esize_log2.val() == self.k_es[0].val() {
            self.elem_mask.next = 0xFF.into();
            self.elem_be.next = 0x1.into();
        }
        if self.esize_log2.val() == self.k_es[1].val() {
            self.elem_mask.next = 0xFFFF.into();
            self.elem_be.next = 0x3.into();
        }
        self.acc_data.next = 0.into();
        self.acc_be.next = 0.into();
        for i in 0..8 {
            self.col.next = self.cols.val().get_bits::<5>(5 * i);
            self.shift.next = bit_cast::<8, 5>(self.col.val()) << 3;
            self.lane_value.next = self.result.val().get_bits::<32>(32 * i) & self.elem_mask.val();
            if self.mask.val().get_bit(i) {
                self.acc_data.next = self.acc_data.val() | (bit_cast::<256, 32>(self.lane_value.val()) << self.shift.val());
                self.acc_be.next = self.acc_be.val() | (self.elem_be.val() << self.col.val());
            }
        }
        self.data.next = self.acc_data.val();
        self.be.next = self.acc_be.val();
    }
}
