//! Branch targets (§6.4 Rules): IP+1, IP+jip, IP+uip and IP+uip+1 in exact `IPW+2`-bit
//! arithmetic, their range checks against `IMEM_DEPTH`, and the offsets' signs. A function of
//! the request's IP fields alone.

use rust_hdl::prelude::*;

/// `XW = IPW + 2`: an IPW-bit IP plus a sign-extended IPW-bit offset never wraps.
#[derive(LogicBlock)]
pub struct Targets<const IPW: usize, const XW: usize> {
    /// `req_ip`, `req_jip`, `req_uip` (offsets signed).
    pub ip: Signal<In, Bits<IPW>>,
    pub jip: Signal<In, Bits<IPW>>,
    pub uip: Signal<In, Bits<IPW>>,
    /// IP, IP+1, IP+jip, IP+uip, IP+uip+1, exact.
    pub ip_x: Signal<Out, Bits<XW>>,
    pub tgt_n: Signal<Out, Bits<XW>>,
    pub tgt_j: Signal<Out, Bits<XW>>,
    pub tgt_u: Signal<Out, Bits<XW>>,
    pub tgt_u1: Signal<Out, Bits<XW>>,
    /// Each target outside `[0, IMEM_DEPTH)` (a negative one is huge unsigned).
    pub oor_n: Signal<Out, Bit>,
    pub oor_j: Signal<Out, Bit>,
    pub oor_u: Signal<Out, Bit>,
    pub oor_u1: Signal<Out, Bit>,
    /// IP+1, IP+jip, IP+uip as labels (IPW bits).
    pub lab_n: Signal<Out, Bits<IPW>>,
    pub lab_j: Signal<Out, Bits<IPW>>,
    pub lab_u: Signal<Out, Bits<IPW>>,
    /// Offset signs: jip < 0, jip == 0, jip > 0, uip > 0; and jip <= uip (both taken unsigned,
    /// used where both are positive).
    pub jneg: Signal<Out, Bit>,
    pub jzero: Signal<Out, Bit>,
    pub jpos: Signal<Out, Bit>,
    pub upos: Signal<Out, Bit>,
    pub j_le_u: Signal<Out, Bit>,
    jip_x: Signal<Local, Bits<XW>>,
    uip_x: Signal<Local, Bits<XW>>,
    uneg: Signal<Local, Bit>,
    k_imem_depth: Constant<Bits<XW>>,
    k_sign_ext: Constant<Bits<XW>>,
}

impl<const IPW: usize, const XW: usize> Default for Targets<IPW, XW> {
    fn default() -> Self {
        assert_eq!(XW, IPW + 2);
        Self {
            ip: Default::default(),
            jip: Default::default(),
            uip: Default::default(),
            ip_x: Default::default(),
            tgt_n: Default::default(),
            tgt_j: Default::default(),
            tgt_u: Default::default(),
            tgt_u1: Default::default(),
            oor_n: Default::default(),
            oor_j: Default::default(),
            oor_u: Default::default(),
            oor_u1: Default::default(),
            lab_n: Default::default(),
            lab_j: Default::default(),
            lab_u: Default::default(),
            jneg: Default::default(),
            jzero: Default::default(),
            jpos: Default::default(),
            upos: Default::default(),
            j_le_u: Default::default(),
            jip_x: Default::default(),
            uip_x: Default::default(),
            uneg: Default::default(),
            k_imem_depth: Constant::new(Bits::<XW>::from(1u64 << IPW)),
            k_sign_ext: Constant::new(Bits::<XW>::from(3u64 << IPW)),
        }
    }
}

impl<const IPW: usize, const XW: usize> Logic for Targets<IPW, XW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.ip_x.next = bit_cast::<XW, IPW>(self.ip.val());
        self.jip_x.next = bit_cast::<XW, IPW>(self.jip.val());
        self.uip_x.next = bit_cast::<XW, IPW>(self.uip.val());
        self.jneg.next = false;
        self.uneg.next = false;
        for b in (IPW - 1)..IPW {
            self.jneg.next = self.jip.val().get_bit(b);
            self.uneg.next = self.uip.val().get_bit(b);
        }
        if self.jneg.val() {
            self.jip_x.next = self.jip_x.val() | self.k_sign_ext.val();
        }
        if self.uneg.val() {
            self.uip_x.next = self.uip_x.val() | self.k_sign_ext.val();
        }
        self.jzero.next = self.jip.val() == 0;
        self.jpos.next = !self.jneg.val() && !self.jzero.val();
        self.upos.next = !self.uneg.val() && (self.uip.val() != 0);
        self.j_le_u.next = self.jip.val() <= self.uip.val();
        self.tgt_n.next = self.ip_x.val() + 1;
        self.tgt_j.next = self.ip_x.val() + self.jip_x.val();
        self.tgt_u.next = self.ip_x.val() + self.uip_x.val();
        self.tgt_u1.next = self.tgt_u.val() + 1;
        self.oor_n.next = self.tgt_n.val() >= self.k_imem_depth.val();
        self.oor_j.next = self.tgt_j.val() >= self.k_imem_depth.val();
        self.oor_u.next = self.tgt_u.val() >= self.k_imem_depth.val();
        self.oor_u1.next = self.tgt_u1.val() >= self.k_imem_depth.val();
        self.lab_n.next = bit_cast::<IPW, XW>(self.tgt_n.val());
        self.lab_j.next = bit_cast::<IPW, XW>(self.tgt_j.val());
        self.lab_u.next = bit_cast::<IPW, XW>(self.tgt_u.val());
    }
}
