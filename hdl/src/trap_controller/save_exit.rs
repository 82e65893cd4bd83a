//! `SaveExit`: the two events of step (6) that the warps apply in the same cycle, SAVE (mode
//! DRAIN and `quiesced`) and the exit (mode HANDLER and no warp TRAP after step (3)).
//!
//! They sit in their own block, apart from `ModeCtl`, because the warps read them and `exit`
//! reads the warps' `trap_next`: a block that both reads the warps' step-(3) results and drives
//! `save`/`exit` feeds its own inputs, which Verilator reports as a combinational loop
//! (UNOPTFLAT) and evaluates by iteration.

use super::enc;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct SaveExit<const W: usize> {
    /// MODE (state).
    pub mode: Signal<In, Bits<2>>,
    /// `quiesced`: nothing in flight (meaningful in DRAIN).
    pub quiesced: Signal<In, Bit>,
    /// Per warp: TRAP after step (3).
    pub trap_next: [Signal<In, Bit>; W],
    /// SAVE this cycle.
    pub save: Signal<Out, Bit>,
    /// Exit this cycle.
    pub exit: Signal<Out, Bit>,

    k_mode_drain: Constant<Bits<2>>,
    k_mode_handler: Constant<Bits<2>>,
    any_trap: Signal<Local, Bit>,
}

impl<const W: usize> Default for SaveExit<W> {
    fn default() -> Self {
        use enc::mode;
        Self {
            mode: Default::default(),
            quiesced: Default::default(),
            trap_next: std::array::from_fn(|_| Default::default()),
            save: Default::default(),
            exit: Default::default(),
            k_mode_drain: Constant::new(mode::DRAIN.into()),
            k_mode_handler: Constant::new(mode::HANDLER.into()),
            any_trap: Default::default(),
        }
    }
}

impl<const W: usize> Logic for SaveExit<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.save.next = self.mode.val() == self.k_mode_drain.val() && self.quiesced.val();
        self.any_trap.next = false;
        for i in 0..W {
            self.any_trap.next = self.any_trap.val() || self.trap_next[i].val();
        }
        self.exit.next = self.mode.val() == self.k_mode_handler.val() && !self.any_trap.val();
    }
}
