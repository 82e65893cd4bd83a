//! Operand regions (docs/isa.md "Operands: regions"), **predecoded**: the ISA has no indirect
//! regions, so everything the core needs of an operand's region is a function of the instruction
//! word alone. Three region address generators, one per operand slot (src0, src1, dst), as spec
//! region-address-generator.md §6.1 chooses, sit on the host's instruction-memory write path
//! (`Predecode`), and their answers are stored beside the word (`pre`: 3 x 44 bits, in the
//! fetch stage's `pre_ram`, read with the word and out of its output register in S2). The
//! generators are therefore off every path of the running core (they were between the
//! instruction memory's read and S2: the core's worst path, docs/eu_core.md "Measured").
//!
//! - Write path (`Predecode`): the host's write registered (w1), the generators' registered
//!   answers (w2), their verdicts packed (`OperandRegion::answer`), written at the end of w2:
//!   two cycles after the host's `imem_we`. A thread's first slot after `start` is its INIT
//!   (the word is not used), so the first word a thread executes is read at least T + 1 >= 5
//!   cycles after `start`: a program written up to the cycle of `start` is complete.
//! - S2 (`Regions`): each source's channel byte offsets, element size and signedness go to the
//!   register file's gathers (`gather::Gather`); while the core is idle (`host`) they are the
//!   identity, so the host reads whole registers through port 0.
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
//! ILLEGAL_REGION. An IP past the program reads whatever both memories hold.

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

/// The layout of the predecoded regions (`Predecode::pre`, `Regions::pre`): one
/// `OperandRegion::answer` per operand slot, src0 at bit 0, src1 at `SRC1`, dst at `DST`; in an
/// answer the channel byte offsets (channel i at bits [5i, 5i+5)) at `COLS`, log2 of the element
/// size at `ESIZE`, the error verdict at `ERR`, the multi-register verdict at `MULTI`.
pub mod pre {
    /// Channel i's byte offset in its register at bits [COLS + 5i, COLS + 5i + 5).
    pub const COLS: usize = 0;
    /// log2 of the element size in bytes (2 bits).
    pub const ESIZE: usize = 40;
    /// Some `out_err` bit of the generator (ILLEGAL_REGION).
    pub const ERR: usize = 42;
    /// A channel's element is not (wholly) in the origin register.
    pub const MULTI: usize = 43;
    /// Bits of one operand's answer.
    pub const ANSWER_BITS: usize = 44;
    /// src0's answer (bit 0), src1's, the destination's.
    pub const SRC1: usize = ANSWER_BITS;
    pub const DST: usize = 2 * ANSWER_BITS;
    /// Bits stored beside each instruction word.
    pub const BITS: usize = 3 * ANSWER_BITS;
}

/// One operand slot: its region address generator and what the core reads of its answer — each
/// channel's byte offset in the register, the element size, the error verdict, and whether some
/// channel's element lies outside the origin register — packed as `pre` lays it out.
#[derive(LogicBlock)]
pub struct OperandRegion {
    /// Rising-edge clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous, active-high reset of the generator.
    pub rst: Signal<In, Bit>,
    /// The register field (8 bits: 128 and up are an illegal region).
    pub field_reg: Signal<In, Bits<8>>,
    /// The byte offset.
    pub field_sub: Signal<In, Bits<5>>,
    /// The vertical stride (0 for a destination).
    pub field_vs: Signal<In, Bits<8>>,
    /// log2 of the width (the exec size for a destination).
    pub field_width_log2: Signal<In, Bits<3>>,
    /// The horizontal stride.
    pub field_hs: Signal<In, Bits<7>>,
    /// The type code.
    pub field_type: Signal<In, Bits<3>>,
    /// log2 of the exec size.
    pub exec_log2: Signal<In, Bits<3>>,
    /// One cycle later (the generator's output register): the answer (`pre`'s layout).
    pub answer: Signal<Out, Bits<44>>,
    generator: CoreRag,
    col: Signal<Local, Bits<5>>,
    chan_reg: Signal<Local, Bits<7>>,
    acc: Signal<Local, Bits<40>>,
    spans: Signal<Local, Bit>,
    k_is_dst: Constant<Bit>,
    k_top: Constant<Bits<8>>,
    k_esize: Constant<Bits<8>>,
    k_err: Constant<Bits<8>>,
    k_multi: Constant<Bits<8>>,
}

impl OperandRegion {
    /// `is_dst`: the destination slot (E_DST_OVERLAP and the destination profile checked).
    pub fn new(is_dst: bool) -> Self {
        // `answer` takes the channel offsets as its low bits
        assert!(pre::COLS == 0 && pre::ESIZE == 40);
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
            answer: Default::default(),
            generator: Rag::new(&rag_config()),
            col: Default::default(),
            chan_reg: Default::default(),
            acc: Default::default(),
            spans: Default::default(),
            k_is_dst: Constant::new(is_dst),
            k_top: Constant::new(35u64.into()),
            k_esize: Constant::new((pre::ESIZE as u64).into()),
            k_err: Constant::new((pre::ERR as u64).into()),
            k_multi: Constant::new((pre::MULTI as u64).into()),
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
        // each channel's byte field; its register against channel 0's (the origin: the last
        // channel has the largest address, but a middle one may straddle)
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
        self.answer.next = bit_cast::<44, 40>(self.acc.val())
            | (bit_cast::<44, 2>(self.generator.out_esize_log2.val()) << self.k_esize.val())
            | (bit_cast::<44, 1>(self.generator.out_err.val().any().into()) << self.k_err.val())
            | (bit_cast::<44, 1>(self.spans.val().into()) << self.k_multi.val());
    }
}

/// The predecode on the host's instruction-memory write path: the write registered (w1), the
/// three operand slots' generators on the registered word (their answers registered: w2), the
/// answers packed into `pre` for the fetch stage's `pre_ram`, written at the end of w2.
#[derive(LogicBlock)]
pub struct Predecode<const IA: usize> {
    /// Rising-edge clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous, active-high reset (no write in flight).
    pub rst: Signal<In, Bit>,
    /// The host's write of one instruction word (`imem_we`).
    pub in_we: Signal<In, Bit>,
    /// Its address.
    pub in_addr: Signal<In, Bits<IA>>,
    /// The word.
    pub in_word: Signal<In, Bits<128>>,
    /// Two cycles later: write `pre` to `pre_addr`.
    pub pre_we: Signal<Out, Bit>,
    /// The word's address.
    pub pre_addr: Signal<Out, Bits<IA>>,
    /// The word's operand regions (`pre`'s layout).
    pub pre: Signal<Out, Bits<132>>,
    we_w1: RDff<Bit>,
    addr_w1: RDff<Bits<IA>>,
    word_w1: RDff<Bits<128>>,
    we_w2: RDff<Bit>,
    addr_w2: RDff<Bits<IA>>,
    src0: OperandRegion,
    src1: OperandRegion,
    dst: OperandRegion,
    exec_log2: Signal<Local, Bits<3>>,
    k_at: [Constant<Bits<8>>; 17],
    k_src1: Constant<Bits<8>>,
    k_dst: Constant<Bits<8>>,
}

impl<const IA: usize> Default for Predecode<IA> {
    fn default() -> Self {
        assert!(pre::BITS == 132 && pre::ANSWER_BITS == 44);
        Self {
            clk: Default::default(),
            rst: Default::default(),
            in_we: Default::default(),
            in_addr: Default::default(),
            in_word: Default::default(),
            pre_we: Default::default(),
            pre_addr: Default::default(),
            pre: Default::default(),
            we_w1: Default::default(),
            addr_w1: Default::default(),
            word_w1: Default::default(),
            we_w2: Default::default(),
            addr_w2: Default::default(),
            src0: OperandRegion::new(false),
            src1: OperandRegion::new(false),
            dst: OperandRegion::new(true),
            exec_log2: Default::default(),
            k_at: std::array::from_fn(|i| Constant::new((FIELDS[i].lsb as u64).into())),
            k_src1: Constant::new((pre::SRC1 as u64).into()),
            k_dst: Constant::new((pre::DST as u64).into()),
        }
    }
}

impl<const IA: usize> Logic for Predecode<IA> {
    #[hdl_gen]
    fn update(&mut self) {
        self.src0.clk.next = self.clk.val();
        self.src1.clk.next = self.clk.val();
        self.dst.clk.next = self.clk.val();
        clock!(self, clk, we_w1, addr_w1, word_w1, we_w2, addr_w2);
        self.src0.rst.next = self.rst.val();
        self.src1.rst.next = self.rst.val();
        self.dst.rst.next = self.rst.val();
        self.we_w1.rst.next = self.rst.val();
        self.addr_w1.rst.next = self.rst.val();
        self.word_w1.rst.next = self.rst.val();
        self.we_w2.rst.next = self.rst.val();
        self.addr_w2.rst.next = self.rst.val();
        // w1: the host's write registered (the generators start from a register, not from
        // whatever drives the host port)
        self.we_w1.d.next = self.in_we.val();
        self.addr_w1.d.next = self.in_addr.val();
        self.word_w1.d.next = self.in_word.val();
        // w1 → w2: the fields (k_at order: EXEC, DST REG SUB HS TYPE, SRC0 REG SUB VS WIDTH HS
        // TYPE, SRC1 REG SUB VS WIDTH HS TYPE) into the generators
        self.exec_log2.next = bit_cast::<3, 128>(self.word_w1.q.val() >> self.k_at[0].val());
        self.src0.exec_log2.next = self.exec_log2.val();
        self.src0.field_reg.next = bit_cast::<8, 128>(self.word_w1.q.val() >> self.k_at[5].val());
        self.src0.field_sub.next = bit_cast::<5, 128>(self.word_w1.q.val() >> self.k_at[6].val());
        self.src0.field_vs.next = bit_cast::<8, 128>(self.word_w1.q.val() >> self.k_at[7].val());
        self.src0.field_width_log2.next = bit_cast::<3, 128>(self.word_w1.q.val() >> self.k_at[8].val());
        self.src0.field_hs.next = bit_cast::<7, 128>(self.word_w1.q.val() >> self.k_at[9].val());
        self.src0.field_type.next = bit_cast::<3, 128>(self.word_w1.q.val() >> self.k_at[10].val());
        self.src1.exec_log2.next = self.exec_log2.val();
        self.src1.field_reg.next = bit_cast::<8, 128>(self.word_w1.q.val() >> self.k_at[11].val());
        self.src1.field_sub.next = bit_cast::<5, 128>(self.word_w1.q.val() >> self.k_at[12].val());
        self.src1.field_vs.next = bit_cast::<8, 128>(self.word_w1.q.val() >> self.k_at[13].val());
        self.src1.field_width_log2.next = bit_cast::<3, 128>(self.word_w1.q.val() >> self.k_at[14].val());
        self.src1.field_hs.next = bit_cast::<7, 128>(self.word_w1.q.val() >> self.k_at[15].val());
        self.src1.field_type.next = bit_cast::<3, 128>(self.word_w1.q.val() >> self.k_at[16].val());
        // a destination is one row: width = exec size, no vertical stride (docs/isa.md)
        self.dst.exec_log2.next = self.exec_log2.val();
        self.dst.field_reg.next = bit_cast::<8, 128>(self.word_w1.q.val() >> self.k_at[1].val());
        self.dst.field_sub.next = bit_cast::<5, 128>(self.word_w1.q.val() >> self.k_at[2].val());
        self.dst.field_vs.next = 0.into();
        self.dst.field_width_log2.next = self.exec_log2.val();
        self.dst.field_hs.next = bit_cast::<7, 128>(self.word_w1.q.val() >> self.k_at[3].val());
        self.dst.field_type.next = bit_cast::<3, 128>(self.word_w1.q.val() >> self.k_at[4].val());
        self.we_w2.d.next = self.we_w1.q.val();
        self.addr_w2.d.next = self.addr_w1.q.val();
        // w2: the answers, packed, and the write
        self.pre_we.next = self.we_w2.q.val();
        self.pre_addr.next = self.addr_w2.q.val();
        self.pre.next = bit_cast::<132, 44>(self.src0.answer.val())
            | (bit_cast::<132, 44>(self.src1.answer.val()) << self.k_src1.val())
            | (bit_cast::<132, 44>(self.dst.answer.val()) << self.k_dst.val());
    }
}

#[derive(LogicBlock)]
pub struct Regions {
    /// Rising-edge clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous, active-high reset of the verdict registers.
    pub rst: Signal<In, Bit>,
    /// S1: the instruction word (its source type fields: the gathers' sign extension).
    pub instr: Signal<In, Bits<128>>,
    /// S1: the op reads src0 from a register (not an immediate).
    pub use_src0: Signal<In, Bit>,
    /// S1: the op reads src1 from a register.
    pub use_src1: Signal<In, Bit>,
    /// S1: the op writes a destination register.
    pub use_dst: Signal<In, Bit>,
    /// S2: the core is idle: identity gathers for the host's register reads.
    pub host: Signal<In, Bit>,
    /// S2: the instruction's predecoded operand regions (`pre`'s layout), out of the
    /// instruction memory's `pre_ram`.
    pub pre: Signal<In, Bits<132>>,
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
    use_s2: RDff<Bits<3>>,
    sext_s2: RDff<Bits<2>>,
    err_s3: RDff<Bit>,
    multi_s3: RDff<Bit>,
    dst_cols_s3: RDff<Bits<40>>,
    dst_esize_s3: RDff<Bits<2>>,
    dst_cols_s4: RDff<Bits<40>>,
    dst_esize_s4: RDff<Bits<2>>,
    src0_type: Signal<Local, Bits<3>>,
    src1_type: Signal<Local, Bits<3>>,
    signed0: Signal<Local, Bit>,
    signed1: Signal<Local, Bit>,
    answer0: Signal<Local, Bits<44>>,
    answer1: Signal<Local, Bits<44>>,
    answer_dst: Signal<Local, Bits<44>>,
    err0: Signal<Local, Bit>,
    err1: Signal<Local, Bit>,
    err_dst: Signal<Local, Bit>,
    multi0: Signal<Local, Bit>,
    multi1: Signal<Local, Bit>,
    multi_dst: Signal<Local, Bit>,
    k_src0_type: Constant<Bits<8>>,
    k_src1_type: Constant<Bits<8>>,
    k_src1: Constant<Bits<8>>,
    k_dst: Constant<Bits<8>>,
    k_esize: Constant<Bits<8>>,
    k_err: Constant<Bits<8>>,
    k_multi: Constant<Bits<8>>,
    k_type_b: Constant<Bits<3>>,
    k_type_w: Constant<Bits<3>>,
    k_identity: Constant<Bits<40>>,
    k_word: Constant<Bits<2>>,
}

impl Default for Regions {
    fn default() -> Self {
        // channel i at byte 4i: the whole register as eight 32-bit lanes
        let identity = (0..8u64).fold(0u64, |a, i| a | (4 * i) << (5 * i));
        let k8 = |v: usize| Constant::new((v as u64).into());
        Self {
            clk: Default::default(),
            rst: Default::default(),
            instr: Default::default(),
            use_src0: Default::default(),
            use_src1: Default::default(),
            use_dst: Default::default(),
            host: Default::default(),
            pre: Default::default(),
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
            use_s2: Default::default(),
            sext_s2: Default::default(),
            err_s3: Default::default(),
            multi_s3: Default::default(),
            dst_cols_s3: Default::default(),
            dst_esize_s3: Default::default(),
            dst_cols_s4: Default::default(),
            dst_esize_s4: Default::default(),
            src0_type: Default::default(),
            src1_type: Default::default(),
            signed0: Default::default(),
            signed1: Default::default(),
            answer0: Default::default(),
            answer1: Default::default(),
            answer_dst: Default::default(),
            err0: Default::default(),
            err1: Default::default(),
            err_dst: Default::default(),
            multi0: Default::default(),
            multi1: Default::default(),
            multi_dst: Default::default(),
            k_src0_type: k8(field::SRC0_TYPE.lsb as usize),
            k_src1_type: k8(field::SRC1_TYPE.lsb as usize),
            k_src1: k8(pre::SRC1),
            k_dst: k8(pre::DST),
            k_esize: k8(pre::ESIZE),
            k_err: k8(pre::ERR),
            k_multi: k8(pre::MULTI),
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
        clock!(self, clk, use_s2, sext_s2, err_s3, multi_s3, dst_cols_s3, dst_esize_s3, dst_cols_s4, dst_esize_s4);
        self.use_s2.rst.next = self.rst.val();
        self.sext_s2.rst.next = self.rst.val();
        self.err_s3.rst.next = self.rst.val();
        self.multi_s3.rst.next = self.rst.val();
        self.dst_cols_s3.rst.next = self.rst.val();
        self.dst_esize_s3.rst.next = self.rst.val();
        self.dst_cols_s4.rst.next = self.rst.val();
        self.dst_esize_s4.rst.next = self.rst.val();
        // S1 → S2: which operands the op uses, the sources' signedness
        self.use_s2.d.next = bit_cast::<3, 1>(self.use_src0.val().into())
            | (bit_cast::<3, 1>(self.use_src1.val().into()) << 1)
            | (bit_cast::<3, 1>(self.use_dst.val().into()) << 2);
        self.src0_type.next = bit_cast::<3, 128>(self.instr.val() >> self.k_src0_type.val());
        self.src1_type.next = bit_cast::<3, 128>(self.instr.val() >> self.k_src1_type.val());
        self.signed0.next = (self.src0_type.val() == self.k_type_b.val()) | (self.src0_type.val() == self.k_type_w.val());
        self.signed1.next = (self.src1_type.val() == self.k_type_b.val()) | (self.src1_type.val() == self.k_type_w.val());
        self.sext_s2.d.next = bit_cast::<2, 1>(self.signed0.val().into()) | (bit_cast::<2, 1>(self.signed1.val().into()) << 1);
        // S2: the predecoded answers
        self.answer0.next = bit_cast::<44, 132>(self.pre.val());
        self.answer1.next = bit_cast::<44, 132>(self.pre.val() >> self.k_src1.val());
        self.answer_dst.next = bit_cast::<44, 132>(self.pre.val() >> self.k_dst.val());
        self.err0.next = bit_cast::<1, 44>(self.answer0.val() >> self.k_err.val()).any();
        self.err1.next = bit_cast::<1, 44>(self.answer1.val() >> self.k_err.val()).any();
        self.err_dst.next = bit_cast::<1, 44>(self.answer_dst.val() >> self.k_err.val()).any();
        self.multi0.next = bit_cast::<1, 44>(self.answer0.val() >> self.k_multi.val()).any();
        self.multi1.next = bit_cast::<1, 44>(self.answer1.val() >> self.k_multi.val()).any();
        self.multi_dst.next = bit_cast::<1, 44>(self.answer_dst.val() >> self.k_multi.val()).any();
        // S2: the gathers' selects (the identity for the host while idle)
        self.cols0.next = bit_cast::<40, 44>(self.answer0.val());
        self.esize0.next = bit_cast::<2, 44>(self.answer0.val() >> self.k_esize.val());
        self.sext0.next = self.sext_s2.q.val().get_bit(0);
        self.cols1.next = bit_cast::<40, 44>(self.answer1.val());
        self.esize1.next = bit_cast::<2, 44>(self.answer1.val() >> self.k_esize.val());
        self.sext1.next = self.sext_s2.q.val().get_bit(1);
        if self.host.val() {
            self.cols0.next = self.k_identity.val();
            self.esize0.next = self.k_word.val();
            self.sext0.next = false;
        }
        // S2 → S3: the verdicts of the operands the op uses
        self.err_s3.d.next = (self.use_s2.q.val().get_bit(0) & self.err0.val())
            | (self.use_s2.q.val().get_bit(1) & self.err1.val())
            | (self.use_s2.q.val().get_bit(2) & self.err_dst.val());
        self.multi_s3.d.next = (self.use_s2.q.val().get_bit(0) & self.multi0.val())
            | (self.use_s2.q.val().get_bit(1) & self.multi1.val())
            | (self.use_s2.q.val().get_bit(2) & self.multi_dst.val());
        self.err.next = self.err_s3.q.val();
        self.multi.next = self.multi_s3.q.val();
        // S2 → S3 → S4: the destination's scatter selects
        self.dst_cols_s3.d.next = bit_cast::<40, 44>(self.answer_dst.val());
        self.dst_esize_s3.d.next = bit_cast::<2, 44>(self.answer_dst.val() >> self.k_esize.val());
        self.dst_cols_s4.d.next = self.dst_cols_s3.q.val();
        self.dst_esize_s4.d.next = self.dst_esize_s3.q.val();
        self.dst_cols.next = self.dst_cols_s4.q.val();
        self.dst_esize.next = self.dst_esize_s4.q.val();
    }
}
