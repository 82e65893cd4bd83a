//! Encodings of the EU instruction set (docs/isa.md), written once: op codes, condition
//! modifiers, predicate modes, special registers, trap causes and the instruction's bit fields.
//!
//! The assembler and disassembler (`eu-asm`), the ISA-level model (`sim::golden::eu_core`) and
//! docs/isa.md use these names. Codes shared with a block are that block's codes: control-flow
//! op codes are the branch unit's `op` codes, the math op's low two bits are the tanh/sigmoid
//! unit's `in_op`, trap causes are the trap controller's `exc_cause` codes, special registers
//! 0-3 are its `sr_sel` codes, and operand types are the region address generator's type codes
//! (the control-flow op codes and the trap causes are those tables' constants; the tests below
//! hold every identity).

crate::enc_table! {
    /// Op codes (`op`, bits 6:0). 0x00-0x1F control flow (the branch unit's op code), 0x20-0x2F
    /// integer ALU, 0x30-0x3F fp32, 0x40-0x47 memory, 0x48-0x4F math, 0x50-0x5F system; every
    /// other code is an illegal instruction.
    pub mod op: 7 {
        /// No operation (runs through the branch unit as its NOP).
        NOP = crate::branch_unit::enc::op::NOP,
        /// Open an IF; lanes whose predicate is 1 run the then-block.
        IF = crate::branch_unit::enc::op::IF,
        /// Swap to the else-block of a divergent IF.
        ELSE = crate::branch_unit::enc::op::ELSE,
        /// Close an IF.
        ENDIF = crate::branch_unit::enc::op::ENDIF,
        /// Enter a loop.
        DO = crate::branch_unit::enc::op::DO,
        /// Loop back edge; lanes whose predicate is 1 iterate again.
        WHILE = crate::branch_unit::enc::op::WHILE,
        /// Leave the loop for lanes whose predicate is 1.
        BREAK = crate::branch_unit::enc::op::BREAK,
        /// Skip to the loop's WHILE for lanes whose predicate is 1.
        CONT = crate::branch_unit::enc::op::CONT,
        /// Call the subroutine at IP + jip for lanes whose predicate is 1.
        CALL = crate::branch_unit::enc::op::CALL,
        /// Return (jip 0: the subroutine's final return, unpredicated).
        RET = crate::branch_unit::enc::op::RET,
        /// Lanes whose predicate is 1 jump forward to the JOIN at IP + jip.
        BRANCH = crate::branch_unit::enc::op::BRANCH,
        /// Lanes whose predicate is 1 stop and wait at the program's JOIN_HALT.
        HALT = crate::branch_unit::enc::op::HALT,
        /// Join of a BRANCH region.
        JOIN_BR = crate::branch_unit::enc::op::JOIN_BR,
        /// Join of the halted lanes (before END).
        JOIN_HALT = crate::branch_unit::enc::op::JOIN_HALT,
        /// Jump to IP + jip, whatever the mask.
        JMP = crate::branch_unit::enc::op::JMP,
        /// End of thread (the branch unit's EOT).
        EOT = crate::branch_unit::enc::op::EOT,
        /// dst = src0.
        MOV = 0x20,
        /// dst = src0 + src1 (32-bit wrap-around).
        ADD = 0x21,
        /// dst = src0 - src1.
        SUB = 0x22,
        /// dst = low 32 bits of src0 * src1.
        MUL = 0x23,
        /// dst = src0 & src1.
        AND = 0x24,
        /// dst = src0 | src1.
        OR = 0x25,
        /// dst = src0 ^ src1.
        XOR = 0x26,
        /// dst = !src0.
        NOT = 0x27,
        /// dst = src0 << (src1 & 31).
        SHL = 0x28,
        /// dst = src0 >> (src1 & 31), logical.
        SHR = 0x29,
        /// dst = src0 >> (src1 & 31), arithmetic.
        ASR = 0x2A,
        /// dst = signed minimum.
        MIN = 0x2B,
        /// dst = signed maximum.
        MAX = 0x2C,
        /// flag = cmod(src0, src1) (signed; ULT unsigned); writes no register.
        CMP = 0x2D,
        /// dst = flag ? src0 : src1, per lane.
        SEL = 0x2E,
        /// dst = high 32 bits of the signed 64-bit product src0 * src1.
        MULH = 0x2F,
        /// dst = src0 + src1, fp32, round to nearest even.
        FADD = 0x30,
        /// dst = src0 - src1, fp32.
        FSUB = 0x31,
        /// dst = src0 * src1, fp32.
        FMUL = 0x32,
        /// dst = fp32 minimum (IEEE 754-2019 minimumNumber: a NaN operand gives the other, two NaNs give 0x7FC00000, -0 is below +0).
        FMIN = 0x33,
        /// dst = fp32 maximum (IEEE 754-2019 maximumNumber: a NaN operand gives the other, two NaNs give 0x7FC00000, -0 is below +0).
        FMAX = 0x34,
        /// flag = cmod(src0, src1) as fp32 (ULT: unordered); writes no register.
        FCMP = 0x35,
        /// dst = fp32 of the signed integer src0, round to nearest even.
        I2F = 0x36,
        /// dst = signed integer of fp32 src0, toward zero, saturating, NaN gives 0.
        F2I = 0x37,
        /// dst = the 32-bit word of data memory at byte address src0 + imm (src1 field).
        LD = 0x40,
        /// data memory word at byte address src0 = src1.
        ST = 0x41,
        /// dst = tanh/sigmoid unit TANH_PRE of src0 in format `fmt`.
        TANH_PRE = 0x48,
        /// dst = tanh/sigmoid unit SIGMOID of src0.
        SIGMOID = 0x49,
        /// dst = tanh/sigmoid unit TANH of src0.
        TANH = 0x4A,
        /// Trap with cause TRAP (software trap; imm is for the handler).
        TRAP = 0x50,
        /// Return from the trap handler (the trap controller's RETURN).
        TRET = 0x51,
        /// Pause in the trap handler and interrupt the host (the trap controller's PAUSE).
        TPAUSE = 0x52,
        /// dst = special register `sreg` (src1 field's reg), every enabled lane.
        SRD = 0x53,
        /// special register `sreg` (dst field's reg) = src0 of the lowest enabled lane.
        SWR = 0x54,
    }
}

crate::enc_table! {
    /// Condition modifiers (`cmod`, bits 9:7): CMP/FCMP compare src0 with src1; any other ALU
    /// or fp op with a cmod compares its result with 0 and writes the flag too.
    pub mod cmod: 3 {
        /// No flag update.
        NONE = 0,
        /// Equal.
        EQ = 1,
        /// Not equal.
        NE = 2,
        /// Less than (signed, or fp).
        LT = 3,
        /// Less or equal.
        LE = 4,
        /// Greater than.
        GT = 5,
        /// Greater or equal.
        GE = 6,
        /// Unsigned less than (FCMP: unordered).
        ULT = 7,
    }
}

crate::enc_table! {
    /// Predicate modes (`pred`, bits 11:10): which lanes of the execution mask run, and the
    /// branch unit's `req_pred` of a control-flow op. The flag register is `flag` (bit 12).
    pub mod pred: 2 {
        /// Every lane of the execution mask (control flow: predicate all ones).
        NONE = 0,
        /// Lanes whose flag bit is 1.
        F = 1,
        /// Lanes whose flag bit is 0.
        NOT_F = 2,
    }
}

crate::enc_table! {
    /// Special registers of SRD/SWR. 0-3 are the trap controller's handler SRs (`sr_sel`).
    pub mod sreg: 3 {
        /// Exception status {global cause, local cause} of this thread (0: not mine); SWR clears it.
        ESR = 0,
        /// Saved IP of this thread (the excepting instruction's IP); SWR sets the resume IP.
        EPC = 1,
        /// Saved execution mask.
        EMASK = 2,
        /// Thread-group id of the episode (read-only).
        TGID = 3,
        /// This thread's index (read-only).
        TID = 4,
        /// The lane's index 0..7 (read-only).
        LANE = 5,
    }
}

crate::enc_table! {
    /// Trap causes: the trap controller's `exc_cause` codes the EU raises.
    pub mod cause: 4 {
        /// Reserved op code, reserved field value or nonzero reserved bits.
        ILLEGAL_INSTR = crate::trap_controller::enc::cause::ILLEGAL_INSTR,
        /// LD/ST address out of the data memory or not word aligned.
        MEM_FAULT = crate::trap_controller::enc::cause::MEM_FAULT,
        /// The branch unit reported an error (the thread's control state is lost: kill it).
        BRANCH_FAULT = crate::trap_controller::enc::cause::DIV_ZERO,
        /// The TRAP instruction.
        TRAP = crate::trap_controller::enc::cause::BREAKPOINT,
        /// An operand region the region address generator rejects (any `out_err` bit).
        ILLEGAL_REGION = crate::trap_controller::enc::cause::REG_RANGE,
    }
}

/// One bit field of the 128-bit instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    /// Lowest bit.
    pub lsb: u32,
    pub width: u32,
    pub doc: &'static str,
}

impl Field {
    pub const fn mask(&self) -> u128 {
        ((1u128 << self.width) - 1) << self.lsb
    }
    /// The field's value in `word`.
    pub const fn get(&self, word: u128) -> u64 {
        ((word >> self.lsb) & ((1u128 << self.width) - 1)) as u64
    }
    /// `word` with the field set to `v` (truncated to the field).
    pub const fn set(&self, word: u128, v: u64) -> u128 {
        (word & !self.mask()) | (((v as u128) << self.lsb) & self.mask())
    }
}

macro_rules! fields {
    ($($(#[doc = $d:literal])* $name:ident = ($lsb:expr, $w:expr)),* $(,)?) => {
        /// The instruction's bit fields (docs/isa.md "Instruction format").
        pub mod field {
            use super::Field;
            $($(#[doc = $d])* pub const $name: Field = Field { name: stringify!($name), lsb: $lsb, width: $w, doc: concat!($($d),*) };)*
            /// Every field, in bit order per format.
            pub const ALL: &[Field] = &[$($name),*];
        }
    };
}

fields! {
    /// Op code ([`op`]).
    OP = (0, 7),
    /// Condition modifier ([`cmod`]).
    CMOD = (7, 3),
    /// Predicate mode ([`pred`]).
    PRED = (10, 2),
    /// Flag register f0/f1 read by the predicate and written by the cmod.
    FLAG = (12, 1),
    /// log2 of the exec size (1..8 lanes; 16 and up are illegal regions).
    EXEC = (13, 3),
    /// 1: the src1 field is a 32-bit immediate, broadcast to every lane.
    SRC1_IMM = (16, 1),
    /// Math format, the tanh/sigmoid unit's `in_fmt`.
    FMT = (17, 2),
    /// Math flush-to-zero, the tanh/sigmoid unit's `in_ftz`.
    FTZ = (19, 1),
    /// Destination register (RAG `in_reg`).
    DST_REG = (24, 8),
    /// Destination byte offset in the register (RAG `in_sub`).
    DST_SUB = (32, 5),
    /// Destination horizontal stride in elements (RAG `in_hs`; width = exec size).
    DST_HS = (37, 7),
    /// Destination type (RAG `in_type`).
    DST_TYPE = (44, 3),
    /// Source 0 register.
    SRC0_REG = (48, 8),
    /// Source 0 byte offset.
    SRC0_SUB = (56, 5),
    /// Source 0 vertical stride in elements (RAG `in_vs`).
    SRC0_VS = (61, 8),
    /// Source 0 log2 width (RAG `in_width_log2`).
    SRC0_WIDTH = (69, 3),
    /// Source 0 horizontal stride in elements.
    SRC0_HS = (72, 7),
    /// Source 0 type.
    SRC0_TYPE = (79, 3),
    /// Source 1 register (or the immediate's low bits).
    SRC1_REG = (82, 8),
    /// Source 1 byte offset.
    SRC1_SUB = (90, 5),
    /// Source 1 vertical stride.
    SRC1_VS = (95, 8),
    /// Source 1 log2 width.
    SRC1_WIDTH = (103, 3),
    /// Source 1 horizontal stride.
    SRC1_HS = (106, 7),
    /// Source 1 type.
    SRC1_TYPE = (113, 3),
    /// Immediate (when SRC1_IMM), in place of the src1 region.
    IMM = (82, 32),
    /// Control flow: signed JIP (branch unit `req_jip`), in place of src0.
    JIP = (48, 16),
    /// Control flow: signed UIP (branch unit `req_uip`).
    UIP = (64, 16),
}

/// Bits no format uses: nonzero is an illegal instruction.
pub const RESERVED_MASK: u128 = (0xF << 20) | (1 << 47) | (0xFFF << 116);
/// Instruction width in bits.
pub const INSTR_BITS: u32 = 128;
/// SIMD lanes per thread (one 256-bit register of 32-bit lanes).
pub const LANES: usize = 8;
/// Registers per thread.
pub const NUM_REGS: u32 = 128;
/// Bytes per register.
pub const REG_BYTES: u32 = 32;
/// Flag registers per thread (8 bits each, one per lane).
pub const NUM_FLAGS: usize = 2;

/// Whether `op` is a control-flow op, executed by the branch unit as itself.
pub const fn is_control(o: u64) -> bool {
    o != op::NOP && o < 0x20
}

/// The op tables of the ISA, for `BlockGen::ENCODINGS` once the core exists and for the docs.
pub const TABLES: &[&crate::enc::Table] = &[&op::TABLE, &cmod::TABLE, &pred::TABLE, &sreg::TABLE, &cause::TABLE];

/// The instruction format as a markdown table (docs/isa.md).
pub fn fields_markdown() -> String {
    let mut s = String::from("| field | bits | meaning |\n|---|---|---|\n");
    for f in field::ALL {
        s.push_str(&format!("| `{}` | {}:{} | {} |\n", f.name, f.lsb + f.width - 1, f.lsb, f.doc.trim()));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{branch_unit, region_addr_gen, tanh_sigmoid, trap_controller};

    #[test]
    fn tables_are_consistent() {
        for t in TABLES {
            t.check().unwrap();
        }
    }

    /// Codes shared with a block are that block's codes.
    #[test]
    fn shared_codes_are_the_blocks_codes() {
        for c in op::TABLE.codes.iter().filter(|c| is_control(c.value) || c.value == op::NOP) {
            assert_eq!(branch_unit::enc::op::TABLE.value(c.name), c.value, "{}", c.name);
        }
        assert_eq!(op::TANH_PRE & 3, tanh_sigmoid::enc::op::TANH_PRE);
        assert_eq!(op::SIGMOID & 3, tanh_sigmoid::enc::op::SIGMOID);
        assert_eq!(op::TANH & 3, tanh_sigmoid::enc::op::TANH);
        let tc = trap_controller::enc::cause::TABLE;
        assert_eq!(cause::ILLEGAL_INSTR, tc.value("ILLEGAL_INSTR"));
        assert_eq!(cause::MEM_FAULT, tc.value("MEM_FAULT"));
        assert_eq!(cause::ILLEGAL_REGION, tc.value("REG_RANGE"));
        for n in ["ESR", "EPC", "EMASK", "TGID"] {
            assert_eq!(sreg::TABLE.value(n), trap_controller::enc::sr::TABLE.value(n), "{n}");
        }
        assert_eq!(field::FMT.width as usize, tanh_sigmoid::enc::fmt::WIDTH);
        assert_eq!(field::DST_TYPE.width as usize, region_addr_gen::enc::type_code::WIDTH);
    }

    /// Fields of one format do not overlap, none touches a reserved bit, and all fit 128 bits.
    #[test]
    fn fields_tile_the_word() {
        use field::*;
        let common = [OP, CMOD, PRED, FLAG, EXEC, SRC1_IMM, FMT, FTZ, DST_REG, DST_SUB, DST_HS, DST_TYPE];
        let src0 = [SRC0_REG, SRC0_SUB, SRC0_VS, SRC0_WIDTH, SRC0_HS, SRC0_TYPE];
        let src1 = [SRC1_REG, SRC1_SUB, SRC1_VS, SRC1_WIDTH, SRC1_HS, SRC1_TYPE];
        let formats: [Vec<Field>; 3] = [
            common.iter().chain(&src0).chain(&src1).copied().collect(),
            common.iter().chain(&src0).chain(&[IMM]).copied().collect(),
            common.iter().chain(&[JIP, UIP]).chain(&src1).copied().collect(),
        ];
        for f in &formats {
            let mut used = RESERVED_MASK;
            for x in f {
                assert!(x.lsb + x.width <= INSTR_BITS, "{}", x.name);
                assert_eq!(used & x.mask(), 0, "{} overlaps", x.name);
                used |= x.mask();
            }
        }
        assert_eq!(field::OP.width as usize, op::WIDTH);
        assert_eq!(field::CMOD.width as usize, cmod::WIDTH);
        assert_eq!(field::PRED.width as usize, pred::WIDTH);
        assert_eq!(1u32 << field::DST_REG.width, 2 * NUM_REGS, "one spare bit: reg >= 128 is an illegal region");
    }
}
