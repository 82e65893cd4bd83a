//! Encodings of the region address generator, by spec name: the `out_err` and `out_warn` bits
//! (spec §6.4, values as in the §2.8 vector table: each code is the bit's mask) and the type codes
//! (§4.2). The RAG, RFG and RFS, the golden model, the tests and the BIST use these names.

crate::enc_table! {
    /// `out_err` / `opnd_err` / `wr_err` bits (spec §6.4): err0..err5 fatal, err6..err10 semantic.
    pub mod err: 11 {
        /// err0, fatal: the compact decoder saw a reserved code (`in_enc_err`).
        E_ENC = 1 << 0,
        /// err1, fatal: type code 111 (reserved).
        E_TYPE = 1 << 1,
        /// err2, fatal: 2^exec_log2 > N_MAX.
        E_EXEC = 1 << 2,
        /// err3, fatal: width_log2 > exec_log2.
        E_WIDTH = 1 << 3,
        /// err4, fatal: reg >= NUM_REGS.
        E_REG = 1 << 4,
        /// err5, fatal: colmajor requested with COLMAJOR_EN = 0.
        E_ORDER = 1 << 5,
        /// err6: WRAP_RF = 0 and the region runs off the end of the RF.
        E_OOB = 1 << 6,
        /// err7: ALIGN_STRICT and the origin is not a multiple of the element size.
        E_ALIGN = 1 << 7,
        /// err8: destination region may write a byte twice (§5.5 rule).
        E_DST_OVERLAP = 1 << 8,
        /// err9: destination outside the RESTRICTED profile (W != N or sub != 0).
        E_DST_PROFILE = 1 << 9,
        /// err10, RFG/RFS only: SPAN_LIMIT_1PASS and the operand needs more than one pass.
        E_SPAN = 1 << 10,
    }
}

crate::enc_table! {
    /// `out_warn` / `opnd_warn` bits (spec §6.4), informational.
    pub mod warn: 4 {
        /// warn0: WRAP_RF and the region wrapped modulo the RF size.
        W_WRAP = 1 << 0,
        /// warn1: the origin is not a multiple of the element size.
        W_MISALIGN = 1 << 1,
        /// warn2: some element crosses a register (or RF-end) boundary.
        W_STRADDLE = 1 << 2,
        /// warn3, RFG/RFS only: more than one pass.
        W_MULTIPASS = 1 << 3,
    }
}

crate::enc_table! {
    /// `in_type` element type codes (spec §4.2); esize_log2 is 0 for ub/b, 1 for uw/w, 2 for ud/d/f.
    pub mod type_code: 3 {
        /// unsigned byte
        UB = 0,
        /// signed byte
        B = 1,
        /// unsigned word (2 bytes)
        UW = 2,
        /// signed word
        W = 3,
        /// unsigned doubleword (4 bytes)
        UD = 4,
        /// signed doubleword
        D = 5,
        /// float (4 bytes)
        F = 6,
        /// reserved: E_TYPE
        RESERVED = 7,
    }
}

/// The fatal `out_err` bits (err0..err5): any of them zeroes the other outputs (§6.4).
pub const FATAL_MASK: u64 = err::E_ENC | err::E_TYPE | err::E_EXEC | err::E_WIDTH | err::E_REG | err::E_ORDER;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_consistent_and_match_the_spec_masks() {
        for t in [&err::TABLE, &warn::TABLE, &type_code::TABLE] {
            t.check().unwrap();
        }
        // §2.8: E_OOB 0x040, E_TYPE 0x002, E_DST_OVERLAP 0x100, E_DST_PROFILE 0x200, E_ALIGN 0x080.
        assert_eq!((err::E_OOB, err::E_TYPE, err::E_DST_OVERLAP, err::E_DST_PROFILE, err::E_ALIGN), (0x40, 0x2, 0x100, 0x200, 0x80));
        assert_eq!(FATAL_MASK, 0x03f);
        assert_eq!(W_ALL, 0xf);
    }
    const W_ALL: u64 = warn::W_WRAP | warn::W_MISALIGN | warn::W_STRADDLE | warn::W_MULTIPASS;
}
