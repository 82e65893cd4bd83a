//! Encodings of the tanh/sigmoid datapath, by spec name (spec §6, port table: `in_op`, `in_fmt`).
//! The RTL, the golden model, the tests and the BIST use these names.

crate::enc_table! {
    /// `in_op`: the function of the vector (spec §6.1).
    pub mod op: 2 {
        /// `math.tanh`: the range-selected intermediate tanh(a)/a or tanh(a), no post step.
        TANH_PRE = 0,
        /// `math.sigmoid`.
        SIGMOID = 1,
        /// Full tanh, TANH_PRE x min(abs(x), 1) rounded once; reserved when FUSED = 0.
        TANH = 2,
        /// Reserved: every active lane returns 0x7FC00000.
        RESERVED = 3,
    }
}

crate::enc_table! {
    /// `in_fmt`: the floating-point format of the lanes (spec §6.1).
    pub mod fmt: 2 {
        /// IEEE binary32, the whole 32-bit lane.
        FP32 = 0,
        /// IEEE binary16 in the low 16 bits of the lane.
        FP16 = 1,
        /// bfloat16 in the low 16 bits of the lane.
        BF16 = 2,
        /// Reserved: every active lane returns 0x7FC00000.
        RESERVED = 3,
    }
}

/// The RTL picks the function (and the ROM half) from bit 0 of the op code: 1 is sigmoid, 0 the
/// tanh ops (the reserved code is bypassed before it matters). True for the table above.
pub const fn op_bit0_is_sigmoid() -> bool {
    op::SIGMOID & 1 == 1 && op::TANH_PRE & 1 == 0 && op::TANH & 1 == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_consistent_and_bit0_selects_sigmoid() {
        op::TABLE.check().unwrap();
        fmt::TABLE.check().unwrap();
        assert!(op_bit0_is_sigmoid());
    }
}
