//! §8 checks of an accepted row against the filling group: ERR_ORDER (in_pix/in_row differ
//! from the row counter), ERR_NROWS (in_nrows_m1 differs from the group's first row) and
//! ERR_SIMD (row k's iptr of P1..P3 differs from the stored P0 iptr), with the err_first info
//! {seq, expected (k, p)} (on a group's first row: the seq it is about to get).

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct FillCheck {
    /// A row is accepted at row counter `fill_n` = {k, p} of a group with stored R − 1 and seq.
    pub fill: Signal<In, Bit>,
    pub fill_n: Signal<In, Bits<4>>,
    pub fill_group_rm1: Signal<In, Bits<2>>,
    pub fill_seq: Signal<In, Bits<8>>,
    pub group_count: Signal<In, Bits<8>>,
    /// The row's sideband.
    pub in_pix: Signal<In, Bits<2>>,
    pub in_row: Signal<In, Bits<2>>,
    pub in_nrows_m1: Signal<In, Bits<2>>,
    pub in_iptr: Signal<In, Bits<5>>,
    /// The stored P0 iptr of row k.
    pub stored_iptr0: Signal<In, Bits<5>>,
    /// Errors of this edge (bit n = code n) and the err_first info of fill errors.
    pub errors: Signal<Out, Bits<16>>,
    pub info: Signal<Out, Bits<32>>,
}

impl Logic for FillCheck {
    #[hdl_gen]
    fn update(&mut self) {
        self.info.next = bit_cast::<32, 8>(self.fill_seq.val()) << 16 | bit_cast::<32, 4>(self.fill_n.val()) << 12;
        if self.fill_n.val() == 0 {
            self.info.next = bit_cast::<32, 8>(self.group_count.val()) << 16;
        }
        self.errors.next = 0.into();
        if self.fill.val() {
            if (self.in_pix.val() != self.fill_n.val().get_bits::<2>(0)) | (self.in_row.val() != self.fill_n.val().get_bits::<2>(2)) {
                self.errors.next = self.errors.val().replace_bit(7, true);
            }
            if (self.fill_n.val() != 0) & (self.in_nrows_m1.val() != self.fill_group_rm1.val()) {
                self.errors.next = self.errors.val().replace_bit(8, true);
            }
            if (self.fill_n.val().get_bits::<2>(0) != 0) & (self.in_iptr.val() != self.stored_iptr0.val()) {
                self.errors.next = self.errors.val().replace_bit(9, true);
            }
        }
    }
}
