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
/// wrap-around, misaligned origins allowed, any destination shape, row-major (the ISA model's
/// `rag_cfg`).
pub type CoreRag = Rag<8, 7, 5, 12, 96>;

/// The core's generator config.
pub fn rag_config() -> RagConfig {
    RagConfig { reg_bytes: 32, num_regs: 128, n_max: 8, wrap_rf: false, wr_ports: 2, ..Default::default() }
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
    rag_src0: CoreRag,
    rag_src1: CoreRag,
    rag_dst: CoreRag,
    use_s2: RDff<Bits<3>>,
    sext_s2: RDff<Bits<2>>,
    err_s3: RDff<Bit>,
    multi_s3: RDff<Bit>,
    dst_cols_s3: RDff<Bits<40>>,
    dst_esize_s3: RDff<Bits<2>>,
    dst_cols_s4: RDff<Bits<40>>,
    dst_esize_s4: RDff<Bits<2>>,
    exec_log2: Signal<Local, Bits<3>>,
    type0: Signal<Local, Bits<3>>,
    type1: Signal<Local, Bits<3>>,
    signed0: Signal<Local, Bit>,
    signed1: Signal<Local, Bit>,
    c0: Signal<Local, Bits<40>>,
    c1: Signal<Local, Bits<40>>,
    c2: Signal<Local, Bits<40>>,
    m0: Signal<Local, Bit>,
    m1: Signal<Local, Bit>,
    m2: Signal<Local, Bit>,
    col: Signal<Local, Bits<5>>,
    chan_reg: Signal<Local, Bits<7>>,
    k_at: [Constant<Bits<8>>; 17],
    k_type_b: Constant<Bits<3>>,
    k_type_w: Constant<Bits<3>>,
    k_top: Constant<Bits<8>>,
    k_identity: Constant<Bits<40>>,
    k_word: Constant<Bits<2>>,
}

impl Default for Regions {
    fn default() -> Self {
        let cfg = rag_config();
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
            rag_src0: Rag::new(&cfg),
            rag_src1: Rag::new(&cfg),
            rag_dst: Rag::new(&cfg),
            use_s2: Default::default(),
            sext_s2: Default::default(),
            err_s3: Default::default(),
            multi_s3: Default::default(),
            dst_cols_s3: Default::default(),
            dst_esize_s3: Default::default(),
            dst_cols_s4: Default::default(),
            dst_esize_s4: Default::default(),
            exec_log2: Default::default(),
            type0: Default::default(),
            type1: Default::default(),
            signed0: Default::default(),
            signed1: Default::default(),
            c0: Default::default(),
            c1: Default::default(),
            c2: Default::default(),
            m0: Default::default(),
            m1: Default::default(),
            m2: Default::default(),
            col: Default::default(),
            chan_reg: Default::default(),
            k_at: std::array::from_fn(|i| Constant::new((FIELDS[i].lsb as u64).into())),
            k_type_b: Constant::new(type_code::B.into()),
            k_type_w: Constant::new(type_code::W.into()),
            k_top: Constant::new(35u64.into()),
            k_identity: Constant::new(identity.into()),
            k_word: Constant::new(2u64.into()),
        }
    }
}

impl Logic for Regions {
    #[hdl_gen]
    fn update(&mut self) {
        self.rag_src0.clk.next = self.clk.val();
        self.rag_src1.clk.next = self.clk.val();
        self.rag_dst.clk.next = self.clk.val();
        clock!(self, clk, use_s2, sext_s2, err_s3, multi_s3, dst_cols_s3, dst_esize_s3, dst_cols_s4, dst_esize_s4);
        self.rag_src0.rst.next = self.rst.val();
        self.rag_src1.rst.next = self.rst.val();
        self.rag_dst.rst.next = self.rst.val();
        self.use_s2.rst.next = self.rst.val();
        self.sext_s2.rst.next = self.rst.val();
        self.err_s3.rst.next = self.rst.val();
        self.multi_s3.rst.next = self.rst.val();
        self.dst_cols_s3.rst.next = self.rst.val();
        self.dst_esize_s3.rst.next = self.rst.val();
        self.dst_cols_s4.rst.next = self.rst.val();
        self.dst_esize_s4.rst.next = self.rst.val();
        // S1: the requests (k_at order: EXEC, DST REG SUB HS TYPE, SRC0 REG SUB VS WIDTH HS
        // TYPE, SRC1 REG SUB VS WIDTH HS TYPE); a pure function of the fields, every cycle
        self.exec_log2.next = bit_cast::<3, 128>(self.instr.val() >> self.k_at[0].val());
        self.type0.next = bit_cast::<3, 128>(self.instr.val() >> self.k_at[10].val());
        self.type1.next = bit_cast::<3, 128>(self.instr.val() >> self.k_at[16].val());
        self.rag_src0.in_valid.next = true;
        self.rag_src0.out_ready.next = true;
        self.rag_src0.in_enc_err.next = bit_cast::<1, 128>(self.instr.val() >> self.k_at[5].val() >> 7).any();
        self.rag_src0.in_reg.next = bit_cast::<7, 128>(self.instr.val() >> self.k_at[5].val());
        self.rag_src0.in_sub.next = bit_cast::<5, 128>(self.instr.val() >> self.k_at[6].val());
        self.rag_src0.in_vs.next = bit_cast::<8, 128>(self.instr.val() >> self.k_at[7].val());
        self.rag_src0.in_width_log2.next = bit_cast::<3, 128>(self.instr.val() >> self.k_at[8].val());
        self.rag_src0.in_hs.next = bit_cast::<7, 128>(self.instr.val() >> self.k_at[9].val());
        self.rag_src0.in_type.next = self.type0.val();
        self.rag_src0.in_exec_log2.next = self.exec_log2.val();
        self.rag_src0.in_is_dst.next = false;
        self.rag_src0.in_colmajor.next = false;
        self.rag_src0.in_tag.next = 0.into();
        self.rag_src1.in_valid.next = true;
        self.rag_src1.out_ready.next = true;
        self.rag_src1.in_enc_err.next = bit_cast::<1, 128>(self.instr.val() >> self.k_at[11].val() >> 7).any();
        self.rag_src1.in_reg.next = bit_cast::<7, 128>(self.instr.val() >> self.k_at[11].val());
        self.rag_src1.in_sub.next = bit_cast::<5, 128>(self.instr.val() >> self.k_at[12].val());
        self.rag_src1.in_vs.next = bit_cast::<8, 128>(self.instr.val() >> self.k_at[13].val());
        self.rag_src1.in_width_log2.next = bit_cast::<3, 128>(self.instr.val() >> self.k_at[14].val());
        self.rag_src1.in_hs.next = bit_cast::<7, 128>(self.instr.val() >> self.k_at[15].val());
        self.rag_src1.in_type.next = self.type1.val();
        self.rag_src1.in_exec_log2.next = self.exec_log2.val();
        self.rag_src1.in_is_dst.next = false;
        self.rag_src1.in_colmajor.next = false;
        self.rag_src1.in_tag.next = 0.into();
        // a destination is one row: width = exec size, no vertical stride (docs/isa.md)
        self.rag_dst.in_valid.next = true;
        self.rag_dst.out_ready.next = true;
        self.rag_dst.in_enc_err.next = bit_cast::<1, 128>(self.instr.val() >> self.k_at[1].val() >> 7).any();
        self.rag_dst.in_reg.next = bit_cast::<7, 128>(self.instr.val() >> self.k_at[1].val());
        self.rag_dst.in_sub.next = bit_cast::<5, 128>(self.instr.val() >> self.k_at[2].val());
        self.rag_dst.in_vs.next = 0.into();
        self.rag_dst.in_width_log2.next = self.exec_log2.val();
        self.rag_dst.in_hs.next = bit_cast::<7, 128>(self.instr.val() >> self.k_at[3].val());
        self.rag_dst.in_type.next = bit_cast::<3, 128>(self.instr.val() >> self.k_at[4].val());
        self.rag_dst.in_exec_log2.next = self.exec_log2.val();
        self.rag_dst.in_is_dst.next = true;
        self.rag_dst.in_colmajor.next = false;
        self.rag_dst.in_tag.next = 0.into();
        self.use_s2.d.next = bit_cast::<3, 1>(self.use_src0.val().into())
            | (bit_cast::<3, 1>(self.use_src1.val().into()) << 1)
            | (bit_cast::<3, 1>(self.use_dst.val().into()) << 2);
        self.signed0.next = (self.type0.val() == self.k_type_b.val()) | (self.type0.val() == self.k_type_w.val());
        self.signed1.next = (self.type1.val() == self.k_type_b.val()) | (self.type1.val() == self.k_type_w.val());
        self.sext_s2.d.next = bit_cast::<2, 1>(self.signed0.val().into()) | (bit_cast::<2, 1>(self.signed1.val().into()) << 1);
        // S2: channel offsets (the byte field of each address), and whether every channel's
        // element lies in the register of channel 0 (the origin; the last channel has the
        // largest address, but a middle one may straddle)
        self.c0.next = 0.into();
        self.m0.next = false;
        for i in 0..8 {
            self.col.next = self.rag_src0.out_addr.val().get_bits::<5>(12 * i);
            self.c0.next = (self.c0.val() >> 5) | (bit_cast::<40, 5>(self.col.val()) << self.k_top.val());
            self.chan_reg.next = self.rag_src0.out_addr.val().get_bits::<7>(12 * i + 5);
            if self.rag_src0.out_ch_valid.val().get_bit(i)
                & ((self.chan_reg.val() != self.rag_src0.out_addr.val().get_bits::<7>(5)) | self.rag_src0.out_straddle.val().get_bit(i))
            {
                self.m0.next = true;
            }
        }
        self.c1.next = 0.into();
        self.m1.next = false;
        for i in 0..8 {
            self.col.next = self.rag_src1.out_addr.val().get_bits::<5>(12 * i);
            self.c1.next = (self.c1.val() >> 5) | (bit_cast::<40, 5>(self.col.val()) << self.k_top.val());
            self.chan_reg.next = self.rag_src1.out_addr.val().get_bits::<7>(12 * i + 5);
            if self.rag_src1.out_ch_valid.val().get_bit(i)
                & ((self.chan_reg.val() != self.rag_src1.out_addr.val().get_bits::<7>(5)) | self.rag_src1.out_straddle.val().get_bit(i))
            {
                self.m1.next = true;
            }
        }
        self.c2.next = 0.into();
        self.m2.next = false;
        for i in 0..8 {
            self.col.next = self.rag_dst.out_addr.val().get_bits::<5>(12 * i);
            self.c2.next = (self.c2.val() >> 5) | (bit_cast::<40, 5>(self.col.val()) << self.k_top.val());
            self.chan_reg.next = self.rag_dst.out_addr.val().get_bits::<7>(12 * i + 5);
            if self.rag_dst.out_ch_valid.val().get_bit(i)
                & ((self.chan_reg.val() != self.rag_dst.out_addr.val().get_bits::<7>(5)) | self.rag_dst.out_straddle.val().get_bit(i))
            {
                self.m2.next = true;
            }
        }
        self.cols0.next = self.c0.val();
        self.esize0.next = self.rag_src0.out_esize_log2.val();
        self.sext0.next = self.sext_s2.q.val().get_bit(0);
        self.cols1.next = self.c1.val();
        self.esize1.next = self.rag_src1.out_esize_log2.val();
        self.sext1.next = self.sext_s2.q.val().get_bit(1);
        if self.host.val() {
            self.cols0.next = self.k_identity.val();
            self.esize0.next = self.k_word.val();
            self.sext0.next = false;
        }
        // S2 → S3: the verdicts of the operands the op uses
        self.err_s3.d.next = (self.use_s2.q.val().get_bit(0) & self.rag_src0.out_err.val().any())
            | (self.use_s2.q.val().get_bit(1) & self.rag_src1.out_err.val().any())
            | (self.use_s2.q.val().get_bit(2) & self.rag_dst.out_err.val().any());
        self.multi_s3.d.next = (self.use_s2.q.val().get_bit(0) & self.m0.val())
            | (self.use_s2.q.val().get_bit(1) & self.m1.val())
            | (self.use_s2.q.val().get_bit(2) & self.m2.val());
        self.err.next = self.err_s3.q.val();
        self.multi.next = self.multi_s3.q.val();
        // S2 → S3 → S4: the destination's scatter selects
        self.dst_cols_s3.d.next = self.c2.val();
        self.dst_esize_s3.d.next = self.rag_dst.out_esize_log2.val();
        self.dst_cols_s4.d.next = self.dst_cols_s3.q.val();
        self.dst_esize_s4.d.next = self.dst_esize_s3.q.val();
        self.dst_cols.next = self.dst_cols_s4.q.val();
        self.dst_esize.next = self.dst_esize_s4.q.val();
    }
}
