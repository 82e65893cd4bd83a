//! `RDff`: a D flip-flop with a synchronous reset inside the clocked block.
//!
//! Hand-written Verilog (a leaf rust-hdl cannot express), named in the README.

use rust_hdl::prelude::*;

/// D flip-flop with a synchronous, active-high reset: rust-hdl's `DFF` (its Verilog and its
/// simulation model) plus `if (rst)` inside the clocked block. With `DFF` the reset has to be a
/// mux in front of `d`, and then every register's next-state logic depends on the `rst` input.
/// The reset value is zero ([`Default`]) or given ([`RDff::with_reset`], for registers such as
/// a CSR whose specified reset value is not zero).
#[derive(Clone, Debug, LogicBlock)]
pub struct RDff<T: Synth> {
    pub d: Signal<In, T>,
    pub q: Signal<Out, T>,
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// The value `q` takes at a rising edge with `rst` high, and its initial value.
    _reset: T,
}

impl<T: Synth> Default for RDff<T> {
    fn default() -> Self {
        Self::with_reset(T::default())
    }
}

impl<T: Synth> RDff<T> {
    /// A register that resets to `value`.
    pub fn with_reset(value: T) -> Self {
        Self { d: Signal::default(), q: Signal::new_with_default(value), clock: Signal::default(), rst: Signal::default(), _reset: value }
    }
}

impl<T: Synth> Logic for RDff<T> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.q.next = if self.rst.val() { self._reset } else { self.d.val() };
        }
    }
    fn connect(&mut self) {
        self.q.connect();
    }
    fn hdl(&self) -> Verilog {
        let init = self._reset.verilog();
        Verilog::Custom(format!(
            "\
initial begin
   q = {init:x};
end

always @(posedge clock) begin
   if (rst) q <= {init:x};
   else q <= d;
end
"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// rust-hdl's simulation of `RDff`: `q` takes `d` at each rising edge, zero when `rst` is high
    /// at that edge, and holds between edges whatever `d` and `rst` do.
    #[test]
    fn rdff_loads_on_rising_edges_and_resets_synchronously() {
        let mut f: RDff<Bits<8>> = RDff::default();
        f.connect_all();
        let mut rng = StdRng::seed_from_u64(0x2545_f491);
        let mut want = 0u64;
        let mut resets = 0;
        for cycle in 0..300 {
            let state: u32 = rng.gen();
            let d = (state & 0xff) as u64;
            let rst = cycle < 2 || state >> 28 == 0;
            f.clock.next = Clock { clk: false };
            f.d.next = d.to_bits();
            f.rst.next = rst;
            assert!(simulate(&mut f, 100));
            assert_eq!(f.q.val().index() as u64, want, "low phase of cycle {cycle} holds");
            f.clock.next = Clock { clk: true };
            assert!(simulate(&mut f, 100));
            want = if rst { 0 } else { d };
            resets += rst as u32;
            assert_eq!(f.q.val().index() as u64, want, "after the edge of cycle {cycle}");
            // Inputs that change while the clock is high are not seen until the next edge.
            f.d.next = (!d & 0xff).to_bits();
            f.rst.next = !rst;
            assert!(simulate(&mut f, 100));
            assert_eq!(f.q.val().index() as u64, want, "high phase of cycle {cycle} holds");
        }
        assert!(resets > 5 && resets < 100, "{resets} resets");
        let v = match f.hdl() {
            Verilog::Custom(t) => t,
            _ => panic!("custom Verilog expected"),
        };
        assert!(v.contains("always @(posedge clock) begin") && v.contains("if (rst) q <= 8'h0;") && v.contains("else q <= d;"), "{v}");
    }

    /// `with_reset`: `q` starts at the reset value, returns to it at every edge with `rst` high,
    /// and loads `d` otherwise; the Verilog resets to the same value.
    #[test]
    fn rdff_with_reset_value() {
        let mut f: RDff<Bits<8>> = RDff::with_reset(0xA5.into());
        f.connect_all();
        assert_eq!(f.q.val().index(), 0xA5, "initial value");
        let edge = |f: &mut RDff<Bits<8>>, d: u64, rst: bool| {
            f.clock.next = Clock { clk: false };
            f.d.next = d.to_bits();
            f.rst.next = rst;
            assert!(simulate(f, 100));
            f.clock.next = Clock { clk: true };
            assert!(simulate(f, 100));
            f.q.val().index()
        };
        assert_eq!(edge(&mut f, 0x11, false), 0x11);
        assert_eq!(edge(&mut f, 0x22, true), 0xA5);
        assert_eq!(edge(&mut f, 0x00, false), 0x00);
        assert_eq!(edge(&mut f, 0x33, true), 0xA5);
        let v = match f.hdl() {
            Verilog::Custom(t) => t,
            _ => panic!("custom Verilog expected"),
        };
        assert!(v.contains("q = 8'ha5;") && v.contains("if (rst) q <= 8'ha5;"), "{v}");
    }
}
