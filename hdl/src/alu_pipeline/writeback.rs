//! S4 write-back (spec §2.7, §2.10): the cxw condition c = (R of lane cxw_src ≠ 0), the new CE
//! bits of the written pixel (SET/AND/OR with c for mask_t rows, with ¬c for mask_f rows) and
//! the §6.6 write counts. The register and G writes themselves go from the lanes straight to
//! the buffers' and the config store's write ports. Everything here comes from registers
//! (banks B3, cx3, sh3 and the CE flops), so it is settled early in the cycle.

use super::enc;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct WriteBack<const NA: usize> {
    /// we4: the slot in S4 is live.
    pub we: Signal<In, Bit>,
    /// The control word of the slot in S4.
    pub control_s3: Signal<In, Bits<13>>,
    /// Destination and result of each lane's B3.
    pub dst: Vec<Signal<In, Bits<5>>>,
    pub result: Vec<Signal<In, Bits<32>>>,
    /// The written pixel's CE bits before the edge.
    pub row_ce: Signal<In, Bits<4>>,
    /// CE bits written (per row k) and their new values.
    pub ce_we: Signal<Out, Bits<4>>,
    pub ce_data: Signal<Out, Bits<4>>,
    /// Register/G writes and CE-bit writes of this edge.
    pub reg_writes: Signal<Out, Bits<32>>,
    pub ce_writes: Signal<Out, Bits<32>>,

    k_src_k0: Constant<Bits<5>>,
    k_cxw_fn_and: Constant<Bits<2>>,
    k_cxw_fn_or: Constant<Bits<2>>,
    c2: Vec<Constant<Bits<2>>>,
    cond: Signal<Local, Bit>,
    cnew: Signal<Local, Bit>,
}

impl<const NA: usize> WriteBack<NA> {
    pub fn new() -> Self {
        Self {
            we: Default::default(),
            control_s3: Default::default(),
            dst: (0..NA).map(|_| Default::default()).collect(),
            result: (0..NA).map(|_| Default::default()).collect(),
            row_ce: Default::default(),
            ce_we: Default::default(),
            ce_data: Default::default(),
            reg_writes: Default::default(),
            ce_writes: Default::default(),
            k_src_k0: Constant::new(enc::src::K0.into()),
            k_cxw_fn_and: Constant::new(enc::cxw_fn::AND.into()),
            k_cxw_fn_or: Constant::new(enc::cxw_fn::OR.into()),
            c2: (0..NA as u64).map(|i| Constant::new(i.into())).collect(),
            cond: Default::default(),
            cnew: Default::default(),
        }
    }
}

impl<const NA: usize> Logic for WriteBack<NA> {
    #[hdl_gen]
    fn update(&mut self) {
        self.reg_writes.next = 0.into();
        self.ce_writes.next = 0.into();
        self.ce_we.next = 0.into();
        self.ce_data.next = 0.into();
        self.cnew.next = false;
        self.cond.next = false;
        for j in 0..NA {
            if self.control_s3.val().get_bits::<2>(1) == self.c2[j].val() {
                self.cond.next = self.result[j].val().any();
            }
        }
        if self.we.val() {
            for j in 0..NA {
                if self.dst[j].val() < self.k_src_k0.val() {
                    self.reg_writes.next = self.reg_writes.val() + 1;
                }
            }
            if self.control_s3.val().get_bit(0) {
                for k in 0..4 {
                    if self.control_s3.val().get_bit(5 + k) | self.control_s3.val().get_bit(9 + k) {
                        self.ce_writes.next = self.ce_writes.val() + 1;
                        self.cnew.next = self.cond.val();
                        if self.control_s3.val().get_bit(9 + k) {
                            self.cnew.next = !self.cond.val();
                        }
                        // fn 3 never gets here: S1 clears cxw_en (ERR_CXW_FN)
                        self.ce_we.next = self.ce_we.val().replace_bit(k, true);
                        self.ce_data.next = self.ce_data.val().replace_bit(k, self.cnew.val());
                        if self.control_s3.val().get_bits::<2>(3) == self.k_cxw_fn_and.val() {
                            self.ce_data.next = self.ce_data.val().replace_bit(k, self.row_ce.val().get_bit(k) & self.cnew.val());
                        }
                        if self.control_s3.val().get_bits::<2>(3) == self.k_cxw_fn_or.val() {
                            self.ce_data.next = self.ce_data.val().replace_bit(k, self.row_ce.val().get_bit(k) | self.cnew.val());
                        }
                    }
                }
            }
        }
    }
}
