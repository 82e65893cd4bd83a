//! alu_pipeline encodings (spec §6.2 ops, §6.3 cxw functions and operand codes, §8 errors,
//! §2.3 buffer states, §6.5 gate scopes): written once here; the RTL, the golden model, the
//! tests, the BIST top and the docs use these names.

crate::enc_table! {
    /// Lane op codes (spec §6.2): R = op(P, Q) with P = A·B, Q = C·D.
    pub mod op: 4 {
        /// No operation: R = 0, never writes.
        NOP = 0,
        /// P + Q.
        ADD = 1,
        /// P − Q.
        SUB = 2,
        /// Signed min.
        MIN = 3,
        /// Signed max.
        MAX = 4,
        /// P & Q.
        AND = 5,
        /// P | Q.
        OR = 6,
        /// P ^ Q.
        XOR = 7,
        /// P >> Q[4:0], logical.
        SHR = 8,
        /// P >> Q[4:0], arithmetic.
        SAR = 9,
        /// P = Q ? 1 : 0.
        SEQ = 10,
        /// P ≠ Q ? 1 : 0.
        SNE = 11,
        /// Signed P < Q ? 1 : 0.
        SLT = 12,
        /// Signed P ≥ Q ? 1 : 0.
        SGE = 13,
        /// Unsigned P < Q ? 1 : 0.
        SLTU = 14,
        /// Illegal (ERR_OPCODE): the lane becomes a NOP.
        ILLEGAL = 15,
    }
}

crate::enc_table! {
    /// cxw_fn of the control word (spec §6.3): how a CE bit combines with the new condition.
    pub mod cxw_fn: 2 {
        /// ce = c.
        SET = 0,
        /// ce = ce ∧ c.
        AND = 1,
        /// ce = ce ∨ c.
        OR = 2,
        /// Illegal (ERR_CXW_FN): cxw ignored.
        ILLEGAL = 3,
    }
}

crate::enc_table! {
    /// Operand and destination code bases (spec §6.3): rN = N, gN = G0 + N, kN = K0 + N.
    pub mod src: 5 {
        /// r0 of the slot's pixel (r0..r15 = 0..15).
        R0 = 0,
        /// g0 (g0..g7 = 16..23).
        G0 = 16,
        /// k0 (k0..k7 = 24..31); as a destination 24..30 are illegal (ERR_DST).
        K0 = 24,
        /// Destination "none" (also k7 as a source).
        DST_NONE = 31,
    }
}

crate::enc_table! {
    /// Error codes (spec §8): bit n of err_sticky, bits 27:24 of err_first.
    pub mod err: 4 {
        /// Lane op = 15.
        OPCODE = 0,
        /// dst in 24..30.
        DST = 1,
        /// Two writing lanes with the same dst ≠ 31.
        DST_CONFLICT = 2,
        /// cxw_en and cxw_fn = 3.
        CXW_FN = 3,
        /// cxw_en and cxw_src ≥ NUM_ALUS.
        CXW_SRC = 4,
        /// Mask bit for a slot ≥ R, or mask_t ∧ mask_f ≠ 0.
        CXW_MASK = 5,
        /// Non-zero reserved bits, or a non-zero word for a lane ≥ NUM_ALUS.
        RSV = 6,
        /// in_pix/in_row differ from the expected position.
        ORDER = 7,
        /// in_nrows_m1 differs from the group's first row.
        NROWS = 8,
        /// Row-k iptr of P1..P3 ≠ that of P0.
        SIMD = 9,
        /// iptr ≥ IMEM_DEPTH.
        IPTR = 10,
        /// Config write to IMEM/G/K while busy.
        CFG_BUSY = 11,
        /// Unmapped config address.
        CFG_ADDR = 12,
    }
}

crate::enc_table! {
    /// Group buffer states (spec §2.3).
    pub mod state: 3 {
        /// Free.
        EMPTY = 0,
        /// Rows arriving.
        FILL = 1,
        /// All rows in, not yet issuing.
        FULL = 2,
        /// Slots issuing.
        RUN = 3,
        /// Every slot issued, waiting to drain.
        DONE = 4,
        /// Rows leaving.
        DRAIN = 5,
    }
}

crate::enc_table! {
    /// GATE_SCOPE (spec §6.5) as the RTL's generation-time constant holds it.
    pub mod scope: 2 {
        /// Gate B1–B3 and the write.
        ALL = 0,
        /// Gate B1 and the write only.
        FIRST = 1,
        /// Gate only the write (the reference for savings).
        NONE = 2,
    }
}

/// Every table of the block, for `BlockGen::ENCODINGS`.
pub const TABLES: &[&crate::enc::Table] = &[&op::TABLE, &cxw_fn::TABLE, &src::TABLE, &err::TABLE, &state::TABLE, &scope::TABLE];
