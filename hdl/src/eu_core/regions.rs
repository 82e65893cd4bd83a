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
//!   not all in its origin register (a later channel in another register) — an ALU op then runs
//!   over several passes (`passes::Passes`), any other op stops as "not yet".
//! - Multi-register operands: the predecode also stores each operand's register list
//!   (`RegisterList`: the distinct registers in first-touch order, each channel's index into it);
//!   S1 turns the slot's pass into each read port's register (`rd_reg0/1`), S2 tells the read
//!   ports which channels an earlier pass read (`keep0/1`), S3 gets the passes' plan (the list
//!   lengths) and the destination's list for the writeback passes.
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
    /// Each channel's index into its operand's register list (`RegisterList::idx`, 24 bits):
    /// src0's, src1's, the destination's.
    pub const SRC0_IDX: usize = 3 * ANSWER_BITS;
    pub const SRC1_IDX: usize = SRC0_IDX + 24;
    pub const DST_IDX: usize = SRC1_IDX + 24;
    /// The destination's register list, entries 1..=7 (`RegisterList::list`, 49 bits), and its
    /// length minus one (3 bits): the writeback passes' registers.
    pub const DST_LIST: usize = DST_IDX + 24;
    pub const DST_COUNT_M1: usize = DST_LIST + 49;
    /// Bits stored beside each instruction word (`pre_ram`, out in S2).
    pub const BITS: usize = DST_COUNT_M1 + 3;
}

/// The layout of the sources' register lists (`Predecode::lists`, the fetch stage's
/// `list_ram`, out in S1 where the register-file read addresses are formed): per source its
/// list length minus one (3 bits) and its entries 1..=7 (49 bits; entry 0 is the register field).
pub mod lists {
    pub const SRC0_COUNT_M1: usize = 0;
    pub const SRC0_LIST: usize = 3;
    pub const SRC1_COUNT_M1: usize = 52;
    pub const SRC1_LIST: usize = 55;
    pub const BITS: usize = 104;
}

/// The layout of `OperandRegion::ext` (a `RegisterList`'s answer): each channel's index at
/// `IDX`, list entries 1..=7 at `LIST`, the list length minus one at `COUNT_M1`.
pub mod ext {
    pub const IDX: usize = 0;
    pub const LIST: usize = 24;
    pub const COUNT_M1: usize = 73;
    pub const BITS: usize = 76;
}

/// The distinct registers an operand's channels touch, in the order the channels first touch
/// them (channel 0's register, the origin, is entry 0), and each channel's index into that list:
/// what the multi-register passes need (pass p reads entry p; channel i's element arrives in pass
/// `idx[i]`). A region's channels need not touch registers in ascending order (`<1;4,16>:d`
/// touches r, r+2, r+4, r+6, r, r+2, ...), hence a list and an index rather than an offset.
/// Combinational, on the predecode's write path (off the running core's paths).
#[derive(LogicBlock)]
pub struct RegisterList {
    /// Channel i's register at bits [7i, 7i+7).
    pub regs: Signal<In, Bits<56>>,
    /// Bit i: channel i is inside the exec size.
    pub valid: Signal<In, Bits<8>>,
    /// The number of distinct registers minus one (0: the operand lies in one register).
    pub count_m1: Signal<Out, Bits<3>>,
    /// Entries 1..=7 of the list (entry k at bits [7(k-1), 7k)); unused entries are 0.
    pub list: Signal<Out, Bits<49>>,
    /// Channel i's index into the list at bits [3i, 3i+3) (0 outside the exec size).
    pub idx: Signal<Out, Bits<24>>,
    reg_i: Signal<Local, Bits<7>>,
    reg_j: Signal<Local, Bits<7>>,
    seen: Signal<Local, Bit>,
    seen_idx: Signal<Local, Bits<3>>,
    first: Signal<Local, Bits<8>>,
    count: Signal<Local, Bits<4>>,
    count3: Signal<Local, Bits<3>>,
    acc_idx: Signal<Local, Bits<24>>,
    acc_list: Signal<Local, Bits<49>>,
    /// Bit j set for j < i: the channels before channel i.
    k_below: [Constant<Bits<8>>; 8],
    /// Channel i's index field: bit 3i.
    k_idx_at: [Constant<Bits<8>>; 8],
    /// List entry k + 1: its number, and its field (bit 7k; entry 0 is not stored).
    k_list_at: [Constant<Bits<8>>; 7],
    k_entry: [Constant<Bits<4>>; 7],
    /// Bit i alone.
    k_bit: [Constant<Bits<8>>; 8],
}

impl Default for RegisterList {
    fn default() -> Self {
        Self {
            regs: Default::default(),
            valid: Default::default(),
            count_m1: Default::default(),
            list: Default::default(),
            idx: Default::default(),
            reg_i: Default::default(),
            reg_j: Default::default(),
            seen: Default::default(),
            seen_idx: Default::default(),
            first: Default::default(),
            count: Default::default(),
            count3: Default::default(),
            acc_idx: Default::default(),
            acc_list: Default::default(),
            k_below: std::array::from_fn(|i| Constant::new(((1u64 << i) - 1).into())),
            k_idx_at: std::array::from_fn(|i| Constant::new((3 * i as u64).into())),
            k_list_at: std::array::from_fn(|k| Constant::new((7 * k as u64).into())),
            k_entry: std::array::from_fn(|k| Constant::new((k as u64 + 1).into())),
            k_bit: std::array::from_fn(|i| Constant::new((1u64 << i).into())),
        }
    }
}

impl Logic for RegisterList {
    #[hdl_gen]
    fn update(&mut self) {
        // channel by channel: a register an earlier channel touched gives its index; a new one
        // is appended (the count so far is its index)
        self.first.next = 0.into();
        self.count.next = 0.into();
        self.acc_idx.next = 0.into();
        self.acc_list.next = 0.into();
        for i in 0..8 {
            self.reg_i.next = self.regs.val().get_bits::<7>(7 * i);
            self.count3.next = bit_cast::<3, 4>(self.count.val());
            self.seen.next = false;
            self.seen_idx.next = 0.into();
            for j in 0..8 {
                self.reg_j.next = self.regs.val().get_bits::<7>(7 * j);
                if self.k_below[i].val().get_bit(j) & self.first.val().get_bit(j) & (self.reg_j.val() == self.reg_i.val()) {
                    self.seen.next = true;
                    self.seen_idx.next = self.acc_idx.val().get_bits::<3>(3 * j);
                }
            }
            if self.valid.val().get_bit(i) & self.seen.val() {
                self.acc_idx.next = self.acc_idx.val() | (bit_cast::<24, 3>(self.seen_idx.val()) << self.k_idx_at[i].val());
            }
            if self.valid.val().get_bit(i) & !self.seen.val() {
                self.first.next = self.first.val() | self.k_bit[i].val();
                self.acc_idx.next = self.acc_idx.val() | (bit_cast::<24, 3>(self.count3.val()) << self.k_idx_at[i].val());
                for k in 0..7 {
                    if self.count.val() == self.k_entry[k].val() {
                        self.acc_list.next = self.acc_list.val() | (bit_cast::<49, 7>(self.reg_i.val()) << self.k_list_at[k].val());
                    }
                }
                self.count.next = self.count.val() + 1;
            }
        }
        self.count_m1.next = bit_cast::<3, 4>(self.count.val() - 1);
        self.list.next = self.acc_list.val();
        self.idx.next = self.acc_idx.val();
    }
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
    /// With it: the operand's register list and each channel's index into it (`ext`'s layout).
    pub ext: Signal<Out, Bits<76>>,
    generator: CoreRag,
    registers: RegisterList,
    regs_all: Signal<Local, Bits<56>>,
    col: Signal<Local, Bits<5>>,
    chan_reg: Signal<Local, Bits<7>>,
    acc: Signal<Local, Bits<40>>,
    spans: Signal<Local, Bit>,
    k_is_dst: Constant<Bit>,
    k_top: Constant<Bits<8>>,
    k_esize: Constant<Bits<8>>,
    k_err: Constant<Bits<8>>,
    k_multi: Constant<Bits<8>>,
    k_reg_top: Constant<Bits<8>>,
    k_ext_list: Constant<Bits<8>>,
    k_ext_count: Constant<Bits<8>>,
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
            ext: Default::default(),
            generator: Rag::new(&rag_config()),
            registers: Default::default(),
            regs_all: Default::default(),
            col: Default::default(),
            chan_reg: Default::default(),
            acc: Default::default(),
            spans: Default::default(),
            k_is_dst: Constant::new(is_dst),
            k_top: Constant::new(35u64.into()),
            k_esize: Constant::new((pre::ESIZE as u64).into()),
            k_err: Constant::new((pre::ERR as u64).into()),
            k_multi: Constant::new((pre::MULTI as u64).into()),
            k_reg_top: Constant::new(49u64.into()),
            k_ext_list: Constant::new((ext::LIST as u64).into()),
            k_ext_count: Constant::new((ext::COUNT_M1 as u64).into()),
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
        self.regs_all.next = 0.into();
        self.spans.next = false;
        for i in 0..8 {
            self.col.next = self.generator.out_addr.val().get_bits::<5>(12 * i);
            self.acc.next = (self.acc.val() >> 5) | (bit_cast::<40, 5>(self.col.val()) << self.k_top.val());
            self.chan_reg.next = self.generator.out_addr.val().get_bits::<7>(12 * i + 5);
            self.regs_all.next = (self.regs_all.val() >> 7) | (bit_cast::<56, 7>(self.chan_reg.val()) << self.k_reg_top.val());
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
        // the registers the channels touch, for the multi-register passes
        self.registers.regs.next = self.regs_all.val();
        self.registers.valid.next = self.generator.out_ch_valid.val();
        self.ext.next = bit_cast::<76, 24>(self.registers.idx.val())
            | (bit_cast::<76, 49>(self.registers.list.val()) << self.k_ext_list.val())
            | (bit_cast::<76, 3>(self.registers.count_m1.val()) << self.k_ext_count.val());
    }
}

/// The predecode on the host's instruction-memory write path: the write registered (w1), the
/// three operand slots' generators on the registered word (their answers registered: w2), their
/// register lists (`RegisterList`) and the answers packed into `pre` (the fetch stage's
/// `pre_ram`) and `lists` (its `list_ram`), registered (w3) and written at the end of w3: three
/// cycles after the host's write (a thread's first word is read at least T + 1 >= 5 cycles after
/// `start`).
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
    /// Three cycles later: write `pre` and `lists` to `pre_addr`.
    pub pre_we: Signal<Out, Bit>,
    /// The word's address.
    pub pre_addr: Signal<Out, Bits<IA>>,
    /// The word's operand regions (`pre`'s layout).
    pub pre: Signal<Out, Bits<256>>,
    /// The sources' register lists (`lists`' layout).
    pub lists: Signal<Out, Bits<104>>,
    we_w1: RDff<Bit>,
    addr_w1: RDff<Bits<IA>>,
    word_w1: RDff<Bits<128>>,
    we_w2: RDff<Bit>,
    addr_w2: RDff<Bits<IA>>,
    we_w3: RDff<Bit>,
    addr_w3: RDff<Bits<IA>>,
    pre_w3: RDff<Bits<256>>,
    lists_w3: RDff<Bits<104>>,
    src0: OperandRegion,
    src1: OperandRegion,
    dst: OperandRegion,
    exec_log2: Signal<Local, Bits<3>>,
    k_at: [Constant<Bits<8>>; 17],
    k_src1: Constant<Bits<8>>,
    k_dst: Constant<Bits<8>>,
    /// Where the lists go in `pre` and `lists`, and where they are in `ext`.
    k_src0_idx: Constant<Bits<16>>,
    k_src1_idx: Constant<Bits<16>>,
    k_dst_idx: Constant<Bits<16>>,
    k_dst_list: Constant<Bits<16>>,
    k_dst_count: Constant<Bits<16>>,
    k_ext_list: Constant<Bits<8>>,
    k_ext_count: Constant<Bits<8>>,
    k_src0_list: Constant<Bits<8>>,
    k_src1_count: Constant<Bits<8>>,
    k_src1_list: Constant<Bits<8>>,
}

impl<const IA: usize> Default for Predecode<IA> {
    fn default() -> Self {
        assert!(pre::BITS == 256 && pre::ANSWER_BITS == 44 && lists::BITS == 104 && ext::BITS == 76 && ext::IDX == 0 && lists::SRC0_COUNT_M1 == 0);
        let k16 = |v: usize| Constant::new((v as u64).into());
        let k8 = |v: usize| Constant::new((v as u64).into());
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
            we_w3: Default::default(),
            addr_w3: Default::default(),
            pre_w3: Default::default(),
            lists_w3: Default::default(),
            lists: Default::default(),
            k_src0_idx: k16(pre::SRC0_IDX),
            k_src1_idx: k16(pre::SRC1_IDX),
            k_dst_idx: k16(pre::DST_IDX),
            k_dst_list: k16(pre::DST_LIST),
            k_dst_count: k16(pre::DST_COUNT_M1),
            k_ext_list: k8(ext::LIST),
            k_ext_count: k8(ext::COUNT_M1),
            k_src0_list: k8(lists::SRC0_LIST),
            k_src1_count: k8(lists::SRC1_COUNT_M1),
            k_src1_list: k8(lists::SRC1_LIST),
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
        clock!(self, clk, we_w1, addr_w1, word_w1, we_w2, addr_w2, we_w3, addr_w3, pre_w3, lists_w3);
        self.src0.rst.next = self.rst.val();
        self.src1.rst.next = self.rst.val();
        self.dst.rst.next = self.rst.val();
        self.we_w1.rst.next = self.rst.val();
        self.addr_w1.rst.next = self.rst.val();
        self.word_w1.rst.next = self.rst.val();
        self.we_w2.rst.next = self.rst.val();
        self.addr_w2.rst.next = self.rst.val();
        self.we_w3.rst.next = self.rst.val();
        self.addr_w3.rst.next = self.rst.val();
        self.pre_w3.rst.next = self.rst.val();
        self.lists_w3.rst.next = self.rst.val();
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
        // w2: the answers and the register lists, packed into w3
        self.we_w3.d.next = self.we_w2.q.val();
        self.addr_w3.d.next = self.addr_w2.q.val();
        self.pre_w3.d.next = bit_cast::<256, 44>(self.src0.answer.val())
            | (bit_cast::<256, 44>(self.src1.answer.val()) << self.k_src1.val())
            | (bit_cast::<256, 44>(self.dst.answer.val()) << self.k_dst.val())
            | (bit_cast::<256, 24>(bit_cast::<24, 76>(self.src0.ext.val())) << self.k_src0_idx.val())
            | (bit_cast::<256, 24>(bit_cast::<24, 76>(self.src1.ext.val())) << self.k_src1_idx.val())
            | (bit_cast::<256, 24>(bit_cast::<24, 76>(self.dst.ext.val())) << self.k_dst_idx.val())
            | (bit_cast::<256, 49>(bit_cast::<49, 76>(self.dst.ext.val() >> self.k_ext_list.val())) << self.k_dst_list.val())
            | (bit_cast::<256, 3>(bit_cast::<3, 76>(self.dst.ext.val() >> self.k_ext_count.val())) << self.k_dst_count.val());
        self.lists_w3.d.next = bit_cast::<104, 3>(bit_cast::<3, 76>(self.src0.ext.val() >> self.k_ext_count.val()))
            | (bit_cast::<104, 49>(bit_cast::<49, 76>(self.src0.ext.val() >> self.k_ext_list.val())) << self.k_src0_list.val())
            | (bit_cast::<104, 3>(bit_cast::<3, 76>(self.src1.ext.val() >> self.k_ext_count.val())) << self.k_src1_count.val())
            | (bit_cast::<104, 49>(bit_cast::<49, 76>(self.src1.ext.val() >> self.k_ext_list.val())) << self.k_src1_list.val());
        // w3: the write
        self.pre_we.next = self.we_w3.q.val();
        self.pre_addr.next = self.addr_w3.q.val();
        self.pre.next = self.pre_w3.q.val();
        self.lists.next = self.lists_w3.q.val();
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
    /// S1: the sources' register lists (`lists`' layout), out of the fetch stage's `list_ram`.
    pub lists: Signal<In, Bits<104>>,
    /// S1: the src0 and src1 register fields (entry 0 of their lists).
    pub src0_reg: Signal<In, Bits<7>>,
    pub src1_reg: Signal<In, Bits<7>>,
    /// S1: the slot's multi-register pass (`passes::Passes`; 0 for any other slot).
    pub pass_s1: Signal<In, Bits<4>>,
    /// S1: the registers each read port reads: entry `pass_s1` of the source's list.
    pub rd_reg0: Signal<Out, Bits<7>>,
    pub rd_reg1: Signal<Out, Bits<7>>,
    /// S2: the slot's pass.
    pub pass_s2: Signal<In, Bits<4>>,
    /// S2: the instruction's predecoded operand regions (`pre`'s layout), out of the
    /// instruction memory's `pre_ram`.
    pub pre: Signal<In, Bits<256>>,
    /// S2: bit i, source channel i was read in an earlier pass (its list index is below the
    /// pass): the read port takes it from its collect register, not from the gather.
    pub keep0: Signal<Out, Bits<8>>,
    pub keep1: Signal<Out, Bits<8>>,
    /// S3: the passes' plan: the execute pass (the longest used source list's length minus
    /// one) and the writeback passes after it (the destination list's length minus one).
    pub src_count_m1: Signal<Out, Bits<3>>,
    pub dst_count_m1: Signal<Out, Bits<3>>,
    /// S3: the destination channels' list indices and list entries 1..=7.
    pub dst_idx: Signal<Out, Bits<24>>,
    pub dst_list: Signal<Out, Bits<49>>,
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
    counts_s2: RDff<Bits<6>>,
    src_count_s3: RDff<Bits<3>>,
    dst_count_s3: RDff<Bits<3>>,
    dst_idx_s3: RDff<Bits<24>>,
    dst_list_s3: RDff<Bits<49>>,
    entry_s1: Signal<Local, Bits<3>>,
    idx0_all: Signal<Local, Bits<24>>,
    idx1_all: Signal<Local, Bits<24>>,
    count0: Signal<Local, Bits<3>>,
    count1: Signal<Local, Bits<3>>,
    idx_a: Signal<Local, Bits<3>>,
    idx_b: Signal<Local, Bits<3>>,
    /// The lists shifted to entry k.
    lists0_k: Signal<Local, Bits<104>>,
    lists1_k: Signal<Local, Bits<104>>,
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
    /// List entry k + 1 of src0 / src1 in `lists`, and k + 1.
    k_list0_at: [Constant<Bits<8>>; 7],
    k_list1_at: [Constant<Bits<8>>; 7],
    k_entry: [Constant<Bits<3>>; 7],
    k_count1: Constant<Bits<8>>,
    k_src0_idx: Constant<Bits<16>>,
    k_src1_idx: Constant<Bits<16>>,
    k_dst_idx: Constant<Bits<16>>,
    k_dst_list: Constant<Bits<16>>,
    k_dst_count: Constant<Bits<16>>,
    k_bit: [Constant<Bits<8>>; 8],
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
            k_list0_at: std::array::from_fn(|k| k8(lists::SRC0_LIST + 7 * k)),
            k_list1_at: std::array::from_fn(|k| k8(lists::SRC1_LIST + 7 * k)),
            k_entry: std::array::from_fn(|k| Constant::new((k as u64 + 1).into())),
            k_count1: k8(lists::SRC1_COUNT_M1),
            k_src0_idx: Constant::new((pre::SRC0_IDX as u64).into()),
            k_src1_idx: Constant::new((pre::SRC1_IDX as u64).into()),
            k_dst_idx: Constant::new((pre::DST_IDX as u64).into()),
            k_dst_list: Constant::new((pre::DST_LIST as u64).into()),
            k_dst_count: Constant::new((pre::DST_COUNT_M1 as u64).into()),
            k_bit: std::array::from_fn(|i| Constant::new((1u64 << i).into())),
            lists: Default::default(),
            src0_reg: Default::default(),
            src1_reg: Default::default(),
            pass_s1: Default::default(),
            rd_reg0: Default::default(),
            rd_reg1: Default::default(),
            pass_s2: Default::default(),
            keep0: Default::default(),
            keep1: Default::default(),
            src_count_m1: Default::default(),
            dst_count_m1: Default::default(),
            dst_idx: Default::default(),
            dst_list: Default::default(),
            counts_s2: Default::default(),
            src_count_s3: Default::default(),
            dst_count_s3: Default::default(),
            dst_idx_s3: Default::default(),
            dst_list_s3: Default::default(),
            entry_s1: Default::default(),
            idx0_all: Default::default(),
            idx1_all: Default::default(),
            count0: Default::default(),
            count1: Default::default(),
            idx_a: Default::default(),
            idx_b: Default::default(),
            lists0_k: Default::default(),
            lists1_k: Default::default(),
        }
    }
}

impl Logic for Regions {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, use_s2, sext_s2, err_s3, multi_s3, dst_cols_s3, dst_esize_s3, dst_cols_s4, dst_esize_s4, counts_s2, src_count_s3, dst_count_s3, dst_idx_s3, dst_list_s3);
        self.counts_s2.rst.next = self.rst.val();
        self.src_count_s3.rst.next = self.rst.val();
        self.dst_count_s3.rst.next = self.rst.val();
        self.dst_idx_s3.rst.next = self.rst.val();
        self.dst_list_s3.rst.next = self.rst.val();
        // S1: the pass's registers (entry 0 is the register field; a pass past a source's list
        // reads an unused entry, which no channel takes)
        self.entry_s1.next = bit_cast::<3, 4>(self.pass_s1.val());
        self.rd_reg0.next = self.src0_reg.val();
        self.rd_reg1.next = self.src1_reg.val();
        for k in 0..7 {
            self.lists0_k.next = self.lists.val() >> self.k_list0_at[k].val();
            self.lists1_k.next = self.lists.val() >> self.k_list1_at[k].val();
            if self.entry_s1.val() == self.k_entry[k].val() {
                self.rd_reg0.next = bit_cast::<7, 104>(self.lists0_k.val());
                self.rd_reg1.next = bit_cast::<7, 104>(self.lists1_k.val());
            }
        }
        self.counts_s2.d.next = bit_cast::<6, 3>(bit_cast::<3, 104>(self.lists.val()))
            | (bit_cast::<6, 3>(bit_cast::<3, 104>(self.lists.val() >> self.k_count1.val())) << 3);
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
        self.answer0.next = bit_cast::<44, 256>(self.pre.val());
        self.answer1.next = bit_cast::<44, 256>(self.pre.val() >> self.k_src1.val());
        self.answer_dst.next = bit_cast::<44, 256>(self.pre.val() >> self.k_dst.val());
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
        // S2: the channels an earlier pass read (their list index below this pass)
        self.idx0_all.next = bit_cast::<24, 256>(self.pre.val() >> self.k_src0_idx.val());
        self.idx1_all.next = bit_cast::<24, 256>(self.pre.val() >> self.k_src1_idx.val());
        self.keep0.next = 0.into();
        self.keep1.next = 0.into();
        for i in 0..8 {
            self.idx_a.next = self.idx0_all.val().get_bits::<3>(3 * i);
            self.idx_b.next = self.idx1_all.val().get_bits::<3>(3 * i);
            if bit_cast::<4, 3>(self.idx_a.val()) < self.pass_s2.val() {
                self.keep0.next = self.keep0.val() | self.k_bit[i].val();
            }
            if bit_cast::<4, 3>(self.idx_b.val()) < self.pass_s2.val() {
                self.keep1.next = self.keep1.val() | self.k_bit[i].val();
            }
        }
        // S2 → S3: the passes' plan (the sources the op reads, its destination)
        self.count0.next = 0.into();
        if self.use_s2.q.val().get_bit(0) {
            self.count0.next = bit_cast::<3, 6>(self.counts_s2.q.val());
        }
        self.count1.next = 0.into();
        if self.use_s2.q.val().get_bit(1) {
            self.count1.next = bit_cast::<3, 6>(self.counts_s2.q.val() >> 3);
        }
        self.src_count_s3.d.next = self.count0.val();
        if self.count1.val() > self.count0.val() {
            self.src_count_s3.d.next = self.count1.val();
        }
        self.dst_count_s3.d.next = 0.into();
        if self.use_s2.q.val().get_bit(2) {
            self.dst_count_s3.d.next = bit_cast::<3, 256>(self.pre.val() >> self.k_dst_count.val());
        }
        self.dst_idx_s3.d.next = bit_cast::<24, 256>(self.pre.val() >> self.k_dst_idx.val());
        self.dst_list_s3.d.next = bit_cast::<49, 256>(self.pre.val() >> self.k_dst_list.val());
        self.src_count_m1.next = self.src_count_s3.q.val();
        self.dst_count_m1.next = self.dst_count_s3.q.val();
        self.dst_idx.next = self.dst_idx_s3.q.val();
        self.dst_list.next = self.dst_list_s3.q.val();
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The list of distinct registers in first-touch order and each channel's index into it,
    /// computed directly (the definition `RegisterList` implements).
    fn reference(regs: &[u64; 8], valid: usize) -> (Vec<u64>, Vec<u64>) {
        let mut list: Vec<u64> = Vec::new();
        let mut idx = vec![0u64; 8];
        for c in 0..valid {
            idx[c] = match list.iter().position(|&r| r == regs[c]) {
                Some(k) => k as u64,
                None => {
                    list.push(regs[c]);
                    list.len() as u64 - 1
                }
            };
        }
        (list, idx)
    }

    #[test]
    fn register_list_is_first_touch_order_with_each_channels_index() {
        let mut b = RegisterList::default();
        b.connect_all();
        let mut rng = StdRng::seed_from_u64(0x2545_f491);
        let mut next = || rng.gen::<u32>();
        let mut multi = 0;
        for round in 0..2000 {
            let valid = [1usize, 2, 4, 8][round % 4];
            // a few registers near each other, so that channels share some and not others;
            // every 16th round any register (0..127)
            let base = next() as u64 % 120;
            let regs: [u64; 8] = std::array::from_fn(|_| if round % 16 == 0 { next() as u64 % 128 } else { base + next() as u64 % 6 });
            let packed = regs.iter().enumerate().fold(0u64, |p, (i, &r)| p | r << (7 * i));
            b.regs.next = packed.into();
            b.valid.next = ((1u64 << valid) - 1).into();
            assert!(simulate(&mut b, 100));
            let (list, idx) = reference(&regs, valid);
            multi += (list.len() > 1) as usize;
            assert_eq!(b.count_m1.val().index() as usize, list.len() - 1, "round {round}: {regs:?}, {valid} channels");
            for (k, &r) in list.iter().enumerate().skip(1) {
                assert_eq!(b.list.val().get_bits::<7>(7 * (k - 1)).index() as u64, r, "round {round}: entry {k}");
            }
            for k in list.len().max(1)..8 {
                assert_eq!(b.list.val().get_bits::<7>(7 * (k - 1)).index(), 0, "round {round}: unused entry {k}");
            }
            for c in 0..8 {
                assert_eq!(b.idx.val().get_bits::<3>(3 * c).index() as u64, idx[c], "round {round}: channel {c}");
            }
        }
        assert!(multi > 1000, "{multi} of the rounds touch more than one register");
    }
}
