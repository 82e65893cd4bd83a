//! `CgCell`: the latch+AND clock-gating cell (alu_pipeline GATE_STYLE = ICG, spec §6.4).
//!
//! Hand-written Verilog (a leaf rust-hdl cannot express: a latch), named in the README.

use rust_hdl::prelude::*;

/// Clock-gating cell for GATE_STYLE = ICG (spec §6.4): `gclk = clk & (en_latched | test_en)`,
/// the enable latched while `clk` is low (latch + AND). The one hand-written Verilog leaf of
/// this block: an ASIC flow binds the library ICG in its place, an FPGA flow uses GATE_STYLE = CE.
#[derive(LogicBlock, Default)]
pub struct CgCell {
    pub clk: Signal<In, Clock>,
    pub en: Signal<In, Bit>,
    pub test_en: Signal<In, Bit>,
    pub gclk: Signal<Out, Clock>,
    /// latch state for rust-hdl's simulator (the Verilog body declares its own `en_l`)
    _en_l: bool,
}

impl Logic for CgCell {
    fn update(&mut self) {
        // rust-hdl simulation of the same behaviour: transparent latch while clk is low
        if !self.clk.val().clk {
            self._en_l = self.en.val() | self.test_en.val();
        }
        self.gclk.next = Clock { clk: self.clk.val().clk & self._en_l };
    }
    fn connect(&mut self) {
        self.gclk.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(
            "\
reg en_l;
initial en_l = 1'b0;
/* verilator lint_off LATCH */
always @(*) begin
   if (!clk) en_l = en | test_en;
end
/* verilator lint_on LATCH */
always @(*) begin
   gclk = clk & en_l;
end
"
            .into(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ICG cell in rust-hdl's own simulator: gclk pulses exactly on the cycles whose enable
    /// (sampled while clk is low) is 1, and an enable change while clk is high is not seen
    /// until the next low phase (no glitch).
    #[test]
    fn cg_cell_gates_whole_pulses() {
        let mut c = CgCell::default();
        c.connect_all();
        let mut rng_state = 0x1234_5678u32;
        let mut pulses = 0;
        let mut expected = 0;
        for cycle in 0..200 {
            rng_state = rng_state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let en = (rng_state >> 16) & 1 == 1;
            // low phase: enable applied
            c.clk.next = Clock { clk: false };
            c.en.next = en;
            c.test_en.next = cycle % 50 == 0;
            assert!(simulate(&mut c, 100));
            assert!(!c.gclk.val().clk, "gclk low while clk low");
            let want = en || cycle % 50 == 0;
            // high phase: the enable toggles mid-pulse and must not matter
            c.clk.next = Clock { clk: true };
            assert!(simulate(&mut c, 100));
            c.en.next = !en;
            assert!(simulate(&mut c, 100));
            assert_eq!(c.gclk.val().clk, want, "cycle {cycle}");
            pulses += c.gclk.val().clk as u32;
            expected += want as u32;
        }
        assert_eq!(pulses, expected);
        assert!(pulses > 50 && pulses < 150);
        let v = match c.hdl() {
            Verilog::Custom(t) => t,
            _ => panic!("custom Verilog expected"),
        };
        assert!(v.contains("if (!clk) en_l = en | test_en;") && v.contains("gclk = clk & en_l;"));
    }
}
