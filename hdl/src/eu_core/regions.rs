//! Operand regions (docs/isa.md "Operands: regions"): three region address generators, one per
//! operand slot (src0, src1, dst), as spec region-address-generator.md §6.1 chooses, requested
//! in S1 with the instruction's region fields; their registered outputs (latency 1, pipe 0) come
//! in S2.
//!
//! - S2: each source's channel byte offsets, element size and signedness go to the register
//!   file's gathers (`gather::Gather`); while the core is idle (`host`) they are the identity, so
//!   the host reads whole registers through port 0.
//! - S2 → S3: the verdicts. `err`: an operand the op reads or writes has an `out_err` bit (any
//!   bit, fatal or semantic: docs/isa.md's ILLEGAL_REGION). `multi`: such an operand's bytes are
//!   not all in its origin register (a later channel in another register, or an element
//!   straddling a register end) — legal in the ISA, but this slice reads and writes one register
//!   per operand, so it stops the thread as "not yet".
//! - S2 → S3 → S4: the destination's channel offsets and element size, for the scatter into the
//!   register file's write port (`gather::Scatter`).
//!
//! A register number with the field's spare bit 7 set (≥ 128) goes to the generator as E_ENC
//! (its `in_reg` has 7 bits): the ISA model's generator reports it as E_REG; both are
//! ILLEGAL_REGION.

use super::enc::{field, Field};
use crate::prims::RDff;
use crate::region_addr_gen::enc::type_code;
use crate::region_addr_gen::rtl::Rag;
use crate::region_addr_gen::Config as RagConfig;
use rust_hdl::prelude::*;

/// The generator as the core instantiates it: 32-byte registers, 128 of them, N_MAX 8, no
/// wrap-around, origins aligned to the element size (`ALIGN_STRICT`: a misaligned origin is
/// E_ALIGN, an illegal region; so an element never straddles two registers or two words, which
/// is what keeps the gathers and the scatter small, `gather`), any destination shape, row-major
/// (the ISA model's `rag_cfg`).
pub type CoreRag = Rag<8, 7, 5, 12, 96>;

/// The core's generator config.
pub fn rag_config() -> RagConfig {
    RagConfig { reg_bytes: 32, num_regs: 128, n_max: 8, wrap_rf: false, align_strict: true, wr_ports: 2, ..Default::default() }
}

/// Index into `k_at` of each field's lsb.
const FIELDS: [Field; 17] = [
    field::EXEC,
    field::DST_REG,
    field::DST_SUB,
    field::DST_HS,
    field::DST_TYPE,
    field::SRC0_REG,
    field::SRC0_SUB,
    field::SRC0_VS,
    field::SRC0_WIDTH,
    field::SRC0_HS,
    field::SRC0_TYPE,
    field::SRC1_REG,
    field::SRC1_SUB,
    field::SRC1_VS,
    field::SRC1_WIDTH,
    field::SRC1_HS,
    field::SRC1_TYPE,
];

/// One operand slot: its region address generator and what the core reads of its answer — each
/// channel's byte offset in the register, the element size, the error verdict, and whether some
/// channel's element lies outside the origin register.
#[derive(LogicBlock)]
pub struct OperandRegion {
    /// Rising-edge clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous, active-high reset of the generator.
    pub rst: Signal<In, Bit>,
    /// S1: the register field (8 bits: 128 and up are an illegal region).
    pub field_reg: Signal<In, Bits<8>>,
    /// S1: the byte offset.
    pub field_sub: Signal<In, Bits<5>>,
    /// S1: the vertical stride (0 for a destination).
    pub field_vs: Signal<In, Bits<8>>,
    /// S1: log2 of the width (the exec size for a destination).
    pub field_width_log2: Signal<In, Bits<3>>,
    /// S1: the horizontal stride.
    pub field_hs: Signal<In, Bits<7>>,
    /// S1: the type code.
    pub field_type: Signal<In, Bits<3>>,
    /// S1: log2 of the exec size.
    pub exec_log2: Signal<In, Bits<3>>,
    /// S2: channel i's byte offset in its register at bits [5i, 5i+5).
    pub cols: Signal<Out, Bits<40>>,
    /// S2: log2 of the element size in bytes.
    pub esize: Signal<Out, Bits<2>>,
    /// S2: some error bit (ILLEGAL_REGION).
    pub err: Signal<Out, Bit>,
    /// S2: a channel's element is not (wholly) in the origin register.
    pub multi: Signal<Out, Bit>,
    generator: CoreRag,
    col: Signal<Local, Bits<5>>,
    chan_reg: Signal<Local, Bits<7>>,
    acc: Signal<Local, Bits<40>>,
    spans: Signal<Local, Bit>,
    k_is_dst: Constant<Bit>,
    k_top: Constant<Bits<8>>,
}

impl OperandRegion {
    /// `is_dst`: the destination slot (E_DST_OVERLAP and the destination profile checked).
    pub fn new(is_dst: bool) -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            field_reg: Default::default(),
            field_sub: Default::default(),
            field_vs: Default::default(),
            field_width_log2: Default::default(),
            field_hs: Default::default(),
            field_type: Default::default(),
            exec_log2: Default::default(),
            cols: Default::default(),
            esize: Default::default(),
            err: Default::default(),
            multi: Default::default(),
            generator: Rag::new(&rag_config()),
            col: Default::default(),
            chan_reg: Default::default(),
            acc: Default::default(),
            spans: Default::default(),
            k_is_dst: Constant::new(is_dst),
            k_top: Constant::new(35u64.into()),
        }
    }
}

impl Logic for OperandRegion {
    #[hdl_gen]
    fn update(&mut self) {
        self.generator.clk.next = self.clk.val();
        self.generator.rst.next = self.rst.val();
        // a pure function of the fields: a request every cycle, its answer read the next
        self.generator.in_valid.next = true;
        self.generator.out_ready.next = true;
        self.generator.in_enc_err.next = self.field_reg.val().get_bit(7);
        self.generator.in_reg.next = bit_cast::<7, 8>(self.field_reg.val());
        self.generator.in_sub.next = self.field_sub.val();
        self.generator.in_vs.next = self.field_vs.val();
        self.generator.in_width_log2.next = self.field_width_log2.val();
        self.generator.in_hs.next = self.field_hs.val();
        self.generator.in_type.next = self.field_type.val();
        self.generator.in_exec_log2.next = self.exec_log2.val();
        self.generator.in_is_dst.next = self.k_is_dst.val();
        self.generator.in_colmajor.next = false;
        self.generator.in_tag.next = 0.into();
        // S2: each channel's byte field; its register against channel 0's (the origin: the
        // last channel has the largest address, but a middle one may straddle)
        self.acc.next = 0.into();
        self.spans.next = false;
        for i in 0..8 {
            self.col.next = self.generator.out_addr.val().get_bits::<5>(12 * i);
            self.acc.next = (self.acc.val() >> 5) | (bit_cast::<40, 5>(self.col.val()) << self.k_top.val());
            self.chan_reg.next = self.generator.out_addr.val().get_bits::<7>(12 * i + 5);
            if self.generator.out_ch_valid.val().get_bit(i)
                & ((self.chan_reg.val() != self.generator.out_addr.val().get_bits::<7>(5)) | self.generator.out_straddle.val().get_bit(i))
            {
                self.spans.next = true;
            }
        }
        self.cols.next = self.acc.val();
        self.esize.next = self.generator.out_esize_log2.val();
        self.err.next = self.generator.out_err.val().any();
        self.multi.next = self.spans.val();
    }
}

#[derive(LogicBlock)]
pub struct Regions {
    /// Rising-edge clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous, active-high reset of the verdict registers.
    pub rst: Signal<In, Bit>,
    /// S1: the instruction word (its region fields).
    pub instr: Signal<In, Bits<128>>,
    /// S1: the op reads src0 from a register (not an immediate).
    pub use_src0: Signal<In, Bit>,
    /// S1: the op reads src1 from a register.
    pub use_src1: Signal<In, Bit>,
    /// S1: the op writes a destination register.
    pub use_dst: Signal<In, Bit>,
    /// S2: the core is idle: identity gathers for the host's register reads.
    pub host: Signal<In, Bit>,
    /// S2: src0's channel byte offsets (channel i at bits [5i, 5i+5)).
    pub cols0: Signal<Out, Bits<40>>,
    /// S2: src0's element size, log2 bytes.
    pub esize0: Signal<Out, Bits<2>>,
    /// S2: src0's type is signed (`b`, `w`).
    pub sext0: Signal<Out, Bit>,
    /// S2: src1's channel byte offsets.
    pub cols1: Signal<Out, Bits<40>>,
    /// S2: src1's element size, log2 bytes.
    pub esize1: Signal<Out, Bits<2>>,
    /// S2: src1's type is signed.
    pub sext1: Signal<Out, Bit>,
    /// S3: an operand of the op has a region error (ILLEGAL_REGION).
    pub err: Signal<Out, Bit>,
    /// S3: an operand of the op spans more than one register (outside this slice).
    pub multi: Signal<Out, Bit>,
    /// S4: the destination's channel byte offsets.
    pub dst_cols: Signal<Out, Bits<40>>,
    /// S4: the destination's element size, log2 bytes.
    pub dst_esize: Signal<Out, Bits<2>>,
    src0: OperandRegion,
    src1: OperandRegion,
    dst: OperandRegion,
    use_s2: RDff<Bits<3>>,
    sext_s2: RDff<Bits<2>>,
    err_s3: RDff<Bit>,
    multi_s3: RDff<Bit>,
    dst_cols_s3: RDff<Bits<40>>,
    dst_esize_s3: RDff<Bits<2>>,
    dst_cols_s4: RDff<Bits<40>>,
    dst_esize_s4: RDff<Bits<2>>,
    exec_log2: Signal<Local, Bits<3>>,
    signed0: Signal<Local, Bit>,
    signed1: Signal<Local, Bit>,
    k_at: [Constant<Bits<8>>; 17],
    k_type_b: Constant<Bits<3>>,
    k_type_w: Constant<Bits<3>>,
    k_identity: Constant<Bits<40>>,
    k_word: Constant<Bits<2>>,
}

impl Default for Regions {
    fn default() -> Self {
        // channel i at byte 4i: the whole register as eight 32-bit lanes
        let identity = (0..8u64).fold(0u64, |a, i| a | (4 * i) << (5 * i));
        Self {
            clk: Default::default(),
            rst: Default::default(),
            instr: Default::default(),
            use_src0: Default::default(),
            use_src1: Default::default(),
            use_dst: Default::default(),
            host: Default::default(),
            cols0: Default::default(),
            esize0: Default::default(),
            sext0: Default::default(),
            cols1: Default::default(),
            esize1: Default::default(),
            sext1: Default::default(),
            err: Default::default(),
            multi: Default::default(),
            dst_cols: Default::default(),
            dst_esize: Default::default(),
            src0: OperandRegion::new(false),
            src1: OperandRegion::new(false),
            dst: OperandRegion::new(true),
            use_s2: Default::default(),
            sext_s2: Default::default(),
            err_s3: Default::default(),
            multi_s3: Default::default(),
            dst_cols_s3: Default::default(),
            dst_esize_s3: Default::default(),
            dst_cols_s4: Default::default(),
            dst_esize_s4: Default::default(),
            exec_log2: Default::default(),
            signed0: Default::default(),
            signed1: Default::default(),
            k_at: std::array::from_fn(|i| Constant::new((FIELDS[i].lsb as u64).into())),
            k_type_b: Constant::new(type_code::B.into()),
            k_type_w: Constant::new(type_code::W.into()),
            k_identity: Constant::new(identity.into()),
            k_word: Constant::new(2u64.into()),
        }
    }
}

impl Logic for Regions {
    #[hdl_gen]
    fn update(&mut self) {
        self.src0.clk.next = self.clk.val();
        self.src1.clk.next = self.clk.val();
        self.dst.clk.next = self.clk.val();
        clock!(self, clk, use_s2, sext_s2, err_s3, multi_s3, dst_cols_s3, dst_esize_s3, dst_cols_s4, dst_esize_s4);
        self.src0.rst.next = self.rst.val();
        self.src1.rst.next = self.rst.val();
        self.dst.rst.next = self.rst.val();
        self.use_s2.rst.next = self.rst.val();
        self.sext_s2.rst.next = self.rst.val();
        self.err_s3.rst.next = self.rst.val();
        self.multi_s3.rst.next = self.rst.val();
        self.dst_cols_s3.rst.next = self.rst.val();
        self.dst_esize_s3.rst.next = self.rst.val();
        self.dst_cols_s4.rst.next = self.rst.val();
        self.dst_esize_s4.rst.next = self.rst.val();
        // S1: the fields (k_at order: EXEC, DST REG SUB HS TYPE, SRC0 REG SUB VS WIDTH HS TYPE,
        // SRC1 REG SUB VS WIDTH HS TYPE)
        self.exec_log2.next = bit_cast::<3, 128>(self.instr.val() >> self.k_at[0].val());
        self.src0.exec_log2.next = self.exec_log2.val();
        self.src0.field_reg.next = bit_cast::<8, 128>(self.instr.val() >> self.k_at[5].val());
        self.src0.field_sub.next = bit_cast::<5, 128>(self.instr.val() >> self.k_at[6].val());
        self.src0.field_vs.next = bit_cast::<8, 128>(self.instr.val() >> self.k_at[7].val());
        self.src0.field_width_log2.next = bit_cast::<3, 128>(self.instr.val() >> self.k_at[8].val());
        self.src0.field_hs.next = bit_cast::<7, 128>(self.instr.val() >> self.k_at[9].val());
        self.src0.field_type.next = bit_cast::<3, 128>(self.instr.val() >> self.k_at[10].val());
        self.src1.exec_log2.next = self.exec_log2.val();
        self.src1.field_reg.next = bit_cast::<8, 128>(self.instr.val() >> self.k_at[11].val());
        self.src1.field_sub.next = bit_cast::<5, 128>(self.instr.val() >> self.k_at[12].val());
        self.src1.field_vs.next = bit_cast::<8, 128>(self.instr.val() >> self.k_at[13].val());
        self.src1.field_width_log2.next = bit_cast::<3, 128>(self.instr.val() >> self.k_at[14].val());
        self.src1.field_hs.next = bit_cast::<7, 128>(self.instr.val() >> self.k_at[15].val());
        self.src1.field_type.next = bit_cast::<3, 128>(self.instr.val() >> self.k_at[16].val());
        // a destination is one row: width = exec size, no vertical stride (docs/isa.md)
        self.dst.exec_log2.next = self.exec_log2.val();
        self.dst.field_reg.next = bit_cast::<8, 128>(self.instr.val() >> self.k_at[1].val());
        self.dst.field_sub.next = bit_cast::<5, 128>(self.instr.val() >> self.k_at[2].val());
        self.dst.field_vs.next = 0.into();
        self.dst.field_width_log2.next = self.exec_log2.val();
        self.dst.field_hs.next = bit_cast::<7, 128>(self.instr.val() >> self.k_at[3].val());
        self.dst.field_type.next = bit_cast::<3, 128>(self.instr.val() >> self.k_at[4].val());
        // S1 → S2: which operands the op uses, the sources' signedness
        self.use_s2.d.next = bit_cast::<3, 1>(self.use_src0.val().into())
            | (bit_cast::<3, 1>(self.use_src1.val().into()) << 1)
            | (bit_cast::<3, 1>(self.use_dst.val().into()) << 2);
        self.signed0.next = (self.src0.field_type.val() == self.k_type_b.val()) | (self.src0.field_type.val() == self.k_type_w.val());
        self.signed1.next = (self.src1.field_type.val() == self.k_type_b.val()) | (self.src1.field_type.val() == self.k_type_w.val());
        self.sext_s2.d.next = bit_cast::<2, 1>(self.signed0.val().into()) | (bit_cast::<2, 1>(self.signed1.val().into()) << 1);
        // S2: the gathers' selects (the identity for the host while idle)
        self.cols0.next = self.src0.cols.val();
        self.esize0.next = self.src0.esize.val();
        self.sext0.next = self.sext_s2.q.val().get_bit(0);
        self.cols1.next = self.src1.cols.val();
        self.esize1.next = self.src1.esize.val();
        self.sext1.next = self.sext_s2.q.val().get_bit(1);
        if self.host.val() {
            self.cols0.next = self.k_identity.val();
            self.esize0.next = self.k_word.val();
            self.sext0.next = false;
        }
        // S2 → S3: the verdicts of the operands the op uses
        self.err_s3.d.next = (self.use_s2.q.val().get_bit(0) & self.src0.err.val())
            | (self.use_s2.q.val().get_bit(1) & self.src1.err.val())
            | (self.use_s2.q.val().get_bit(2) & self.dst.err.val());
        self.multi_s3.d.next = (self.use_s2.q.val().get_bit(0) & self.src0.multi.val())
            | (self.use_s2.q.val().get_bit(1) & self.src1.multi.val())
            | (self.use_s2.q.val().get_bit(2) & self.dst.multi.val());
        self.err.next = self.err_s3.q.val();
        self.multi.next = self.multi_s3.q.val();
        // S2 → S3 → S4: the destination's scatter selects
        self.dst_cols_s3.d.next = self.dst.cols.val();
        self.dst_esize_s3.d.next = self.dst.esize.val();
        self.dst_cols_s4.d.next = self.dst_cols_s3.q.val();
        self.dst_esize_s4.d.next = self.dst_esize_s3.q.val();
        self.dst_cols.next = self.dst_cols_s4.q.val();
        self.dst_esize.next = self.dst_esize_s4.q.val();
    }
}
