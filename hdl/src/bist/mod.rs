//! Built-in self-test (BIST) tops for FPGA bring-up.
//!
//! A BIST top wraps one block (the DUT) with [`BistCore`]: a pseudo-random stimulus register
//! drives every DUT input (except `clk`/`rst`) for a fixed number of cycles, a MISR compresses
//! every DUT output into a 32-bit signature, and the signature is compared with the one the Rust
//! golden model predicts (computed at generation time by `sim::bist`). The result shows on LEDs and
//! is printed once on a UART line such as `eu_selftest cycles=4096 sig=1a2b3c4d PASS\r\n`.
//! The board only needs a clock, a button, up to three LEDs and a UART TX pin, whatever the width
//! of the block's ports.
//!
//! # Exact behaviour (the contract `sim::bist` models)
//!
//! Notation: `SW` stimulus bits, `RW` response bits, `N` run cycles, `R = reset_cycles(SW)`.
//!
//! * **Restart.** `sys_rst = rst | restart_r` with `restart_r <= !por_done | !btn_sync` (registered:
//!   it fans out to most of the core). The power-on reset counter (8 bits, FPGA flops start at 0)
//!   holds `sys_rst` for 256 cycles after configuration; the button is an
//!   active-low level synchronised through two flops (holding it keeps the core in reset, releasing
//!   it starts a new run). `rst` clears everything, the power-on counter included.
//!   While `sys_rst`: `x = SEED`, `S = 0`, `M = 0`, `phase = RESET`, `cnt = 0`, UART idle.
//! * **Stimulus recurrence.** `x` is a 64-bit xorshift LFSR (Marsaglia's (13, 7, 17) triple:
//!   `x ^= x << 13; x ^= x >> 7; x ^= x << 17`, a GF(2)-linear shift-register recurrence of
//!   maximal period 2^64 − 1 over the non-zero states). `S` is the `SW`-bit stimulus register.
//!   In every RESET and RUN cycle both advance: `x' = xs(x)`, `S' = ((S << 64) | x') mod 2^SW`
//!   (so `S[63:0]` is the newest LFSR word and older words move up by 64 bits).
//!   Writing `S_k` for the value after `k` advances from `S_0 = 0`, `x_0 = SEED`.
//! * **DUT reset.** `dut_rst = sys_rst | phase == RESET`. RESET lasts `R` cycles, then RUN.
//! * **Run.** RUN cycle `t` (`t = 0..N`) drives the DUT inputs with `S_{R+t}` and, at the end of
//!   the cycle, captures the DUT outputs `Y_t` (the values just before the rising edge, i.e. a
//!   Mealy sample: registered outputs from the state, combinational ones from `S_{R+t}`) into
//!   `resp_r`, with bit 0 flipped when the top's fault injection is on.
//! * **MISR.** One cycle later `M' = crc(M) ^ fold(resp_r)` where
//!   `crc(M) = (M >> 1) ^ (M[0] ? 0xEDB88320 : 0)` (the reflected CRC-32 polynomial) and
//!   `fold(Y) = Y[31:0] ^ Y[63:32] ^ ...` (the last word zero-padded). After the N-th response is
//!   absorbed (one DRAIN cycle) the core enters DONE with the signature `M_N`.
//! * **Result.** In DONE `pass = (M == expected)`. LEDs: `busy` until DONE, then `pass` or `fail`
//!   (each XORed with the board's polarity). The UART (8N1, `div = round(f_clk / baud)` clocks
//!   per bit) prints the template line once per run, with `sig` = the measured `M` in lower-case
//!   hex and `PASS`/`FAIL`.
//!
//! # Stimulus/response bit order (what a block's wiring must follow)
//! DUT inputs except `clk`/`rst`, in the module's port order, fill `S` from bit 0 upwards, each
//! port LSB first, no gaps. DUT outputs, in port order, fill the response the same way. This is
//! the order of `EmittedModule::ports`, which `sim::bist` uses to pack the golden model's ports.

use crate::emit::PortInfo;
use rust_hdl::prelude::*;

/// Declares a BIST top: one [`BistCore`] around one DUT. The parts every top shares are written
/// here once: the board ports (`clk`, `rst`, `btn_n`, `inject_fault`, `expected`, `led_pass`,
/// `led_fail`, `led_busy`, `uart_tx`), the fault switch `fault_always`, the constructor, and the
/// board side of `update` (ports to the core, core to LEDs and UART, `clk` and the core's
/// `dut_rst` to the DUT). A block's top gives the core and DUT with their initial values, its
/// own fields, and the block side of `update` (stimulus to DUT inputs, DUT outputs to
/// `core.resp`); `selftest.rs` is the worked example. The field order (board ports,
/// `fault_always`, the block's fields, `core`, `dut`) and the statement order fix the Verilog.
/// Usage: `bist_top! { pub struct T[<const N: usize, ..>] { core: C = .., dut: D = .., fault_always = .., own fields
/// `name: Type = init,` } pub fn new(args) -> Self; #[hdl_gen] fn update(&mut self) { .. } }`.
/// (`#[hdl_gen]` cannot call a helper, so sharing the board wiring takes a macro.)
macro_rules! bist_top {
    (
        $(#[$attr:meta])*
        pub struct $name:ident $(< $(const $g:ident : $gty:ty),* >)? {
            core: $core:ty = $core_init:expr,
            dut: $dut:ty = $dut_init:expr,
            fault_always = $fault_init:expr,
            $($(#[$fattr:meta])* $field:ident: $fty:ty = $init:expr,)*
        }
        pub fn new($($arg:ident: $argty:ty),*) -> Self;
        $hash:tt $gen:tt
        fn update(&mut $s:ident) { $($body:tt)* }
    ) => {
        $(#[$attr])*
        #[derive(LogicBlock)]
        pub struct $name $(< $(const $g: $gty),* >)? {
            pub clk: Signal<In, Clock>,
            pub rst: Signal<In, Bit>,
            pub btn_n: Signal<In, Bit>,
            pub inject_fault: Signal<In, Bit>,
            pub expected: Signal<In, Bits<32>>,
            pub led_pass: Signal<Out, Bit>,
            pub led_fail: Signal<Out, Bit>,
            pub led_busy: Signal<Out, Bit>,
            pub uart_tx: Signal<Out, Bit>,
            fault_always: Constant<Bit>,
            $($(#[$fattr])* $field: $fty,)*
            core: $core,
            dut: $dut,
        }

        impl $(< $(const $g: $gty),* >)? $name $(< $($g),* >)? {
            pub fn new($($arg: $argty),*) -> Self {
                Self {
                    clk: Default::default(),
                    rst: Default::default(),
                    btn_n: Default::default(),
                    inject_fault: Default::default(),
                    expected: Default::default(),
                    led_pass: Default::default(),
                    led_fail: Default::default(),
                    led_busy: Default::default(),
                    uart_tx: Default::default(),
                    fault_always: $fault_init,
                    $($field: $init,)*
                    core: $core_init,
                    dut: $dut_init,
                }
            }
        }

        impl $(< $(const $g: $gty),* >)? Logic for $name $(< $($g),* >)? {
            // `#[hdl_gen]` is the caller's tokens (`$hash $gen`, not `#[$gen]`): the functions
            // it writes declare `self` with the attribute's hygiene, and the body's `self` is the
            // caller's.
            $hash $gen
            fn update(&mut $s) {
                // Board side: the same for every block.
                $s.core.clk.next = $s.clk.val();
                $s.core.rst.next = $s.rst.val();
                $s.core.btn_n.next = $s.btn_n.val();
                $s.core.expected_in.next = $s.expected.val();
                $s.core.inject_fault.next = $s.inject_fault.val() | $s.fault_always.val();
                $s.led_pass.next = $s.core.led_pass.val();
                $s.led_fail.next = $s.core.led_fail.val();
                $s.led_busy.next = $s.core.led_busy.val();
                $s.uart_tx.next = $s.core.uart_tx.val();
                $s.dut.clk.next = $s.clk.val();
                $s.dut.rst.next = $s.core.dut_rst.val();
                // Block side.
                $($body)*
            }
        }
    };
}

pub mod example;
pub mod selftest;
// One BIST top per block of `for_each_bist_block!`: `hdl/src/bist/<block>.rs`.
crate::for_each_bist_block!(declare_block_modules);

/// The xorshift LFSR's start value (any non-zero value; this is the 64-bit golden ratio).
pub const SEED: u64 = 0x9E37_79B9_7F4A_7C15;
/// Reflected CRC-32 polynomial used by the MISR.
pub const MISR_POLY: u32 = 0xEDB8_8320;
/// Default number of run cycles.
pub const DEFAULT_CYCLES: u32 = 4096;
/// UART baud rate.
pub const BAUD: u32 = 115_200;
/// Power-on reset length in cycles (the 8-bit counter counts 0..255).
pub const POR_CYCLES: u32 = 255;
/// Template ROM codes: end of line, and "next hex digit of the signature".
pub const TPL_END: u8 = 0x00;
pub const TPL_HEX: u8 = 0x01;
/// Address bits of the line template (one half for PASS, one for FAIL).
pub const TPL_ADDR_BITS: usize = 7;

/// Cycles the DUT is held in reset before the run: at least 4, and enough for the stimulus
/// register to be filled with LFSR words.
pub fn reset_cycles(sw: usize) -> u32 {
    (sw.div_ceil(64) as u32).max(4)
}

/// One step of the stimulus LFSR.
pub fn xorshift64(mut x: u64) -> u64 {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x
}

/// One step of the MISR before the folded response is XORed in.
pub fn misr_shift(m: u32) -> u32 {
    (m >> 1) ^ if m & 1 == 1 { MISR_POLY } else { 0 }
}

/// A board the BIST top is built for: clock, LED polarity, and its constraint file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Short name used by `scripts/fpga/build.sh` targets.
    pub target: &'static str,
    /// Human name of the board.
    pub name: &'static str,
    pub clk_hz: u32,
    pub led_active_low: bool,
    /// Constraint file under `constraints/`.
    pub constraints: &'static str,
}

impl Board {
    /// Clock cycles per UART bit, rounded to nearest.
    pub fn uart_div(&self) -> u32 {
        (self.clk_hz + BAUD / 2) / BAUD
    }
}

/// iCEBreaker (iCE40UP5K-SG48), 12 MHz, active-low LEDs.
pub const ICEBREAKER: Board =
    Board { target: "up5k", name: "iCEBreaker (iCE40UP5K-SG48)", clk_hz: 12_000_000, led_active_low: true, constraints: "icebreaker.pcf" };
/// iCE40-HX8K breakout board (CT256), 12 MHz, active-high LEDs.
pub const HX8K_BREAKOUT: Board =
    Board { target: "hx8k", name: "iCE40-HX8K breakout (CT256)", clk_hz: 12_000_000, led_active_low: false, constraints: "hx8k-breakout.pcf" };
/// ULX3S with ECP5 LFE5U-85F (CABGA381), 25 MHz, active-high LEDs.
pub const ULX3S_85F: Board =
    Board { target: "ecp5-85f", name: "ULX3S (LFE5U-85F CABGA381)", clk_hz: 25_000_000, led_active_low: false, constraints: "ulx3s-85f.lpf" };

pub const BOARDS: [Board; 3] = [ICEBREAKER, HX8K_BREAKOUT, ULX3S_85F];

pub fn board(target: &str) -> Option<Board> {
    BOARDS.iter().copied().find(|b| b.target == target)
}

/// Everything a BIST top is generated from.
#[derive(Clone, Debug)]
pub struct BistParams {
    /// Module name of the DUT, printed first on the UART line (e.g. `eu_selftest`).
    pub dut_name: String,
    pub board: Board,
    /// Run cycles N (≥ 1).
    pub cycles: u32,
    /// `Some(sig)`: the expected signature is baked into the bitstream (board builds).
    /// `None`: it is read from the top's `expected` input port (co-simulation).
    pub expected: Option<u32>,
    /// Builds a top whose fault injection is always on (a bitstream that must show FAIL).
    pub fault_always: bool,
}

/// The line template: bytes, with `TPL_HEX` for each of the 8 signature digits and `TPL_END`
/// at the end. `pass` selects `PASS` or `FAIL`.
pub fn line_template(dut_name: &str, cycles: u32, pass: bool) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(format!("{dut_name} cycles={cycles} sig=").as_bytes());
    v.extend_from_slice(&[TPL_HEX; 8]);
    v.extend_from_slice(if pass { b" PASS\r\n" } else { b" FAIL\r\n" });
    v.push(TPL_END);
    v
}

/// The template ROM contents: PASS line at 0.., FAIL line at 2^TPL_ADDR_BITS.. .
pub fn template_rom(dut_name: &str, cycles: u32) -> Vec<u8> {
    let half = 1usize << TPL_ADDR_BITS;
    let mut rom = vec![TPL_END; 2 * half];
    for (i, pass) in [true, false].into_iter().enumerate() {
        let t = line_template(dut_name, cycles, pass);
        assert!(t.len() <= half, "UART line for {dut_name} is {} bytes, the template holds {half}", t.len());
        assert!(t[..t.len() - 1].iter().all(|&c| c == TPL_HEX || c >= 0x0A), "template bytes");
        rom[i * half..i * half + t.len()].copy_from_slice(&t);
    }
    rom
}

/// Manifest parameters of a BIST top.
pub fn bist_params(p: &BistParams, sw: usize, rw: usize) -> Vec<(String, String)> {
    crate::params!(
        "dut" => p.dut_name,
        "board" => p.board.target,
        "clk_hz" => p.board.clk_hz,
        "uart_div" => p.board.uart_div(),
        "cycles" => p.cycles,
        "expected" => p.expected.map(|e| format!("{e:08x}")).unwrap_or_else(|| "port".into()),
        "fault_always" => p.fault_always,
        "sw" => sw,
        "rw" => rw,
    )
}

/// Total widths of a DUT's stimulus (inputs except clk/rst) and response (outputs).
pub fn port_widths(ports: &[PortInfo]) -> (usize, usize) {
    use crate::emit::Dir;
    let sw = ports.iter().filter(|p| p.dir == Dir::In && p.name != "clk" && p.name != "rst").map(|p| p.width).sum();
    let rw = ports.iter().filter(|p| p.dir == Dir::Out).map(|p| p.width).sum();
    (sw, rw)
}

/// The generic BIST engine: stimulus LFSR, DUT reset sequencing, MISR, compare, LEDs, UART.
/// `SW` stimulus bits, `RW` response bits (see the module docs for the exact recurrence).
#[derive(LogicBlock)]
pub struct BistCore<const SW: usize, const RW: usize> {
    pub clk: Signal<In, Clock>,
    /// Synchronous, active high: clears all state (tie low on boards).
    pub rst: Signal<In, Bit>,
    /// Restart button, active low, asynchronous (synchronised here).
    pub btn_n: Signal<In, Bit>,
    /// Expected signature when the top does not bake one in.
    pub expected_in: Signal<In, Bits<32>>,
    /// Flip response bit 0 before the MISR.
    pub inject_fault: Signal<In, Bit>,
    /// DUT outputs, packed in port order.
    pub resp: Signal<In, Bits<RW>>,
    /// DUT inputs, packed in port order.
    pub stim: Signal<Out, Bits<SW>>,
    pub dut_rst: Signal<Out, Bit>,
    pub led_pass: Signal<Out, Bit>,
    pub led_fail: Signal<Out, Bit>,
    pub led_busy: Signal<Out, Bit>,
    pub uart_tx: Signal<Out, Bit>,
    // Generation-time constants.
    exp_baked: Constant<Bits<32>>,
    use_baked: Constant<Bit>,
    led_inv: Constant<Bit>,
    seed: Constant<Bits<64>>,
    poly: Constant<Bits<32>>,
    reset_m1: Constant<Bits<32>>,
    cycles_m1: Constant<Bits<32>>,
    div_m1: Constant<Bits<16>>,
    /// Template ROM word: bits [7:0] the character, bit 8 "signature digit", bit 9 "end of line".
    rom: ROM<Bits<10>, 8>,
    _nw: usize,
    // Sized literals (rust-hdl emits bare literals as 32-bit constants; these keep lint clean).
    ph_reset: Constant<Bits<2>>,
    ph_run: Constant<Bits<2>>,
    ph_drain: Constant<Bits<2>>,
    ph_done: Constant<Bits<2>>,
    u_start: Constant<Bits<2>>,
    u_fetch: Constant<Bits<2>>,
    u_shift: Constant<Bits<2>>,
    u_end: Constant<Bits<2>>,
    one4: Constant<Bits<4>>,
    nine4: Constant<Bits<4>>,
    ten4: Constant<Bits<4>>,
    one8: Constant<Bits<8>>,
    fail8: Constant<Bits<8>>,
    ascii0: Constant<Bits<8>>,
    asciia: Constant<Bits<8>>,
    stop10: Constant<Bits<10>>,
    one16: Constant<Bits<16>>,
    // State.
    por: DFF<Bits<8>>,
    btn1: DFF<Bit>,
    btn2: DFF<Bit>,
    x: DFF<Bits<64>>,
    s: DFF<Bits<SW>>,
    resp_r: DFF<Bits<RW>>,
    v_r: DFF<Bit>,
    m: DFF<Bits<32>>,
    phase: DFF<Bits<2>>,
    cnt: DFF<Bits<32>>,
    done_r: DFF<Bit>,
    pass_r: DFF<Bit>,
    ust: DFF<Bits<2>>,
    hexsh: DFF<Bits<32>>,
    ptr: DFF<Bits<8>>,
    sh: DFF<Bits<10>>,
    nbit: DFF<Bits<4>>,
    div: DFF<Bits<16>>,
    tx_r: DFF<Bit>,
    rst_r: DFF<Bit>,
    rom_q: DFF<Bits<10>>,
    rom_q2: DFF<Bits<10>>,
    // Combinational temporaries.
    sys_rst: Signal<Local, Bit>,
    x1: Signal<Local, Bits<64>>,
    x2: Signal<Local, Bits<64>>,
    x3: Signal<Local, Bits<64>>,
    fold: Signal<Local, Bits<32>>,
    rest: Signal<Local, Bits<RW>>,
    expv: Signal<Local, Bits<32>>,
    nib: Signal<Local, Bits<4>>,
    ch: Signal<Local, Bits<8>>,
}

impl<const SW: usize, const RW: usize> BistCore<SW, RW> {
    pub fn new(p: &BistParams) -> Self {
        assert!(p.cycles >= 1, "BIST needs at least one run cycle");
        assert!(SW >= 64 && RW >= 32, "BistCore<{SW}, {RW}>: use SW >= 64 and RW >= 32 (pad a narrow DUT: the extra stimulus bits are unused, the extra response bits 0; the signature is unchanged)");
        let div = p.board.uart_div();
        assert!((2..=65536).contains(&div), "UART divider {div} out of range");
        // Flags decoded at generation time, so the UART needs no comparator after the ROM.
        let word = |b: u8| match b {
            TPL_END => 1u64 << 9,
            TPL_HEX => 1u64 << 8,
            c => c as u64,
        };
        let rom: Vec<Bits<10>> = template_rom(&p.dut_name, p.cycles).into_iter().map(|b| word(b).into()).collect();
        Self {
            clk: Default::default(),
            rst: Default::default(),
            btn_n: Default::default(),
            expected_in: Default::default(),
            inject_fault: Default::default(),
            resp: Default::default(),
            stim: Default::default(),
            dut_rst: Default::default(),
            led_pass: Default::default(),
            led_fail: Default::default(),
            led_busy: Default::default(),
            uart_tx: Default::default(),
            exp_baked: Constant::new((p.expected.unwrap_or(0) as u64).into()),
            use_baked: Constant::new(p.expected.is_some()),
            led_inv: Constant::new(p.board.led_active_low),
            seed: Constant::new(SEED.into()),
            poly: Constant::new((MISR_POLY as u64).into()),
            reset_m1: Constant::new(((reset_cycles(SW) - 1) as u64).into()),
            cycles_m1: Constant::new(((p.cycles - 1) as u64).into()),
            div_m1: Constant::new(((div - 1) as u64).into()),
            rom: rom.into_iter().into(),
            _nw: RW.div_ceil(32),
            ph_reset: Constant::new(0.into()),
            ph_run: Constant::new(1.into()),
            ph_drain: Constant::new(2.into()),
            ph_done: Constant::new(3.into()),
            u_start: Constant::new(0.into()),
            u_fetch: Constant::new(1.into()),
            u_shift: Constant::new(2.into()),
            u_end: Constant::new(3.into()),
            one4: Constant::new(1.into()),
            nine4: Constant::new(9.into()),
            ten4: Constant::new(10.into()),
            one8: Constant::new(1.into()),
            fail8: Constant::new((1u64 << TPL_ADDR_BITS).into()),
            ascii0: Constant::new((b'0' as u64).into()),
            asciia: Constant::new((b'a' as u64 - 10).into()),
            stop10: Constant::new(0x200.into()),
            one16: Constant::new(1.into()),
            por: Default::default(),
            btn1: Default::default(),
            btn2: Default::default(),
            x: Default::default(),
            s: Default::default(),
            resp_r: Default::default(),
            v_r: Default::default(),
            m: Default::default(),
            phase: Default::default(),
            cnt: Default::default(),
            done_r: Default::default(),
            pass_r: Default::default(),
            ust: Default::default(),
            hexsh: Default::default(),
            ptr: Default::default(),
            sh: Default::default(),
            nbit: Default::default(),
            div: Default::default(),
            tx_r: Default::default(),
            rst_r: Default::default(),
            rom_q: Default::default(),
            rom_q2: Default::default(),
            sys_rst: Default::default(),
            x1: Default::default(),
            x2: Default::default(),
            x3: Default::default(),
            fold: Default::default(),
            rest: Default::default(),
            expv: Default::default(),
            nib: Default::default(),
            ch: Default::default(),
        }
    }
}

// Phases: 0 RESET (DUT in reset), 1 RUN, 2 DRAIN (last response into the MISR), 3 DONE.
// UART states: 0 start of line, 1 fetch next template byte, 2 shifting a frame, 3 line sent.
impl<const SW: usize, const RW: usize> Logic for BistCore<SW, RW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clk, por, btn1, btn2, x, s, resp_r, v_r, m, phase, cnt, done_r, pass_r, ust, hexsh, ptr, sh,
            nbit, div, tx_r, rst_r, rom_q, rom_q2
        );
        self.rom.address.next = self.ptr.q.val();
        // Restart sources.
        self.btn1.d.next = self.btn_n.val();
        self.btn2.d.next = self.btn1.q.val();
        if !self.por.q.val().all() {
            self.por.d.next = self.por.q.val() + self.one8.val();
        }
        // Registered restart request (it fans out to most of the core); `rst` acts at once.
        self.rst_r.d.next = !self.por.q.val().all() | !self.btn2.q.val();
        self.sys_rst.next = self.rst.val() | self.rst_r.q.val();
        // The template ROM output is registered twice (the first register goes into the BRAM on
        // FPGAs, whose clock-to-out is slow): `ptr` is set at least 3 cycles before a fetch.
        self.rom_q.d.next = self.rom.data.val();
        self.rom_q2.d.next = self.rom_q.q.val();
        // Stimulus LFSR and register.
        self.x1.next = self.x.q.val() ^ (self.x.q.val() << 13);
        self.x2.next = self.x1.val() ^ (self.x1.val() >> 7);
        self.x3.next = self.x2.val() ^ (self.x2.val() << 17);
        if !self.phase.q.val().get_bit(1) {
            self.x.d.next = self.x3.val();
            self.s.d.next = (self.s.q.val() << 64) | bit_cast::<SW, 64>(self.x3.val());
        }
        // Response capture and MISR.
        if self.inject_fault.val() {
            self.resp_r.d.next = self.resp.val() ^ 1;
        } else {
            self.resp_r.d.next = self.resp.val();
        }
        self.v_r.d.next = self.phase.q.val() == self.ph_run.val();
        self.fold.next = 0.into();
        self.rest.next = self.resp_r.q.val();
        for _k in 0..self._nw {
            self.fold.next = self.fold.val() ^ self.rest.val().get_bits::<32>(0);
            self.rest.next = self.rest.val() >> 32;
        }
        if self.v_r.q.val() {
            if self.m.q.val().get_bit(0) {
                self.m.d.next = (self.m.q.val() >> 1) ^ self.poly.val() ^ self.fold.val();
            } else {
                self.m.d.next = (self.m.q.val() >> 1) ^ self.fold.val();
            }
        }
        // Sequencing.
        if self.phase.q.val() == self.ph_reset.val() {
            self.cnt.d.next = self.cnt.q.val() + 1;
            if self.cnt.q.val() == self.reset_m1.val() {
                self.cnt.d.next = 0.into();
                self.phase.d.next = self.ph_run.val();
            }
        } else if self.phase.q.val() == self.ph_run.val() {
            self.cnt.d.next = self.cnt.q.val() + 1;
            if self.cnt.q.val() == self.cycles_m1.val() {
                self.phase.d.next = self.ph_drain.val();
            }
        } else if self.phase.q.val() == self.ph_drain.val() {
            self.phase.d.next = self.ph_done.val();
        }
        // Result and UART.
        if self.use_baked.val() {
            self.expv.next = self.exp_baked.val();
        } else {
            self.expv.next = self.expected_in.val();
        }
        self.nib.next = self.hexsh.q.val().get_bits::<4>(28);
        if self.nib.val() < self.ten4.val() {
            self.ch.next = bit_cast::<8, 4>(self.nib.val()) + self.ascii0.val();
        } else {
            self.ch.next = bit_cast::<8, 4>(self.nib.val()) + self.asciia.val();
        }
        if self.phase.q.val() == self.ph_done.val() {
            if self.ust.q.val() == self.u_start.val() {
                if !self.done_r.q.val() {
                    self.done_r.d.next = true;
                    self.pass_r.d.next = self.m.q.val() == self.expv.val();
                    self.hexsh.d.next = self.m.q.val();
                    if self.m.q.val() == self.expv.val() {
                        self.ptr.d.next = 0.into();
                    } else {
                        self.ptr.d.next = self.fail8.val();
                    }
                } else {
                    // One idle frame (line high) before the first character; it also covers the
                    // ROM read latency.
                    self.sh.d.next = 0x3FF.into();
                    self.nbit.d.next = 0.into();
                    self.div.d.next = 0.into();
                    self.ust.d.next = self.u_shift.val();
                }
            } else if self.ust.q.val() == self.u_fetch.val() {
                    self.div.d.next = 0.into();
                    self.nbit.d.next = 0.into();
                    self.ptr.d.next = self.ptr.q.val() + self.one8.val();
                    self.ust.d.next = self.u_shift.val();
                    if self.rom_q2.q.val().get_bit(9) {
                        self.ust.d.next = self.u_end.val();
                    } else if self.rom_q2.q.val().get_bit(8) {
                        self.sh.d.next = (bit_cast::<10, 8>(self.ch.val()) << 1) | self.stop10.val();
                        self.hexsh.d.next = self.hexsh.q.val() << 4;
                    } else {
                        self.sh.d.next = (bit_cast::<10, 8>(self.rom_q2.q.val().get_bits::<8>(0)) << 1) | self.stop10.val();
                    }
            } else if self.ust.q.val() == self.u_shift.val() {
                    self.div.d.next = self.div.q.val() + self.one16.val();
                    if self.div.q.val() == self.div_m1.val() {
                        self.div.d.next = 0.into();
                        self.sh.d.next = self.sh.q.val() >> 1;
                        self.nbit.d.next = self.nbit.q.val() + self.one4.val();
                        if self.nbit.q.val() == self.nine4.val() {
                            self.ust.d.next = self.u_fetch.val();
                        }
                    }
            }
        }
        self.tx_r.d.next = !(self.ust.q.val() == self.u_shift.val()) | self.sh.q.val().get_bit(0);
        if self.sys_rst.val() {
            self.x.d.next = self.seed.val();
            self.s.d.next = 0.into();
            self.m.d.next = 0.into();
            self.v_r.d.next = false;
            self.phase.d.next = 0.into();
            self.cnt.d.next = 0.into();
            self.done_r.d.next = false;
            self.pass_r.d.next = false;
            self.ust.d.next = 0.into();
            self.ptr.d.next = 0.into();
            self.tx_r.d.next = true;
        }
        if self.rst.val() {
            self.por.d.next = 0.into();
            self.btn1.d.next = false;
            self.btn2.d.next = false;
            self.rst_r.d.next = false;
            self.rom_q.d.next = 0.into();
            self.rom_q2.d.next = 0.into();
            self.resp_r.d.next = 0.into();
            self.hexsh.d.next = 0.into();
            self.sh.d.next = 0.into();
            self.nbit.d.next = 0.into();
            self.div.d.next = 0.into();
        }
        // Outputs.
        self.stim.next = self.s.q.val();
        self.dut_rst.next = self.sys_rst.val() | (self.phase.q.val() == self.ph_reset.val());
        self.led_busy.next = !self.done_r.q.val() ^ self.led_inv.val();
        self.led_pass.next = (self.done_r.q.val() & self.pass_r.q.val()) ^ self.led_inv.val();
        self.led_fail.next = (self.done_r.q.val() & !self.pass_r.q.val()) ^ self.led_inv.val();
        self.uart_tx.next = self.tx_r.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Registered pipeline joins (`StageReg`s with `k_registered = 1`) in a Verilog text.
    fn registered_joins(v: &str) -> usize {
        v.matches("localparam  k_registered = 1'b1;").count()
    }

    /// The DUT inside a BIST top is built from the config the top is emitted for, pipeline depth
    /// included: the top has exactly the registered joins of the block's own Verilog. (The tanh
    /// top once took its depth from `small_config()`, so an ECP5 run "at lat 10" had no cuts.)
    #[test]
    fn bist_tops_keep_the_configs_pipeline_depth() {
        use crate::BlockGen;
        for lat in [0, 10] {
            let cfg = crate::tanh_sigmoid::Config { lat, ..tanh_sigmoid::small_config() };
            let dut = crate::tanh_sigmoid::Block::emit(&cfg).unwrap().remove(0);
            let top = tanh_sigmoid::emit(&cfg, &tanh_sigmoid::cosim_params()).unwrap();
            assert_eq!(registered_joins(&top.verilog), registered_joins(&dut.verilog), "tanh lat {lat}");
            assert_eq!(registered_joins(&dut.verilog) > 0, lat > 0, "tanh lat {lat}: cuts in the DUT");
        }
        // The RAG's output register is a registered StageReg at every depth: compare depths.
        let mut joins = Vec::new();
        for pipe in [0, 6] {
            let cfg = crate::region_addr_gen::Config { pipe, ..region_addr_gen::small_config() };
            let dut = crate::region_addr_gen::Block::emit(&cfg).unwrap().remove(0);
            let top = region_addr_gen::emit(&cfg, &region_addr_gen::cosim_params()).unwrap();
            assert_eq!(registered_joins(&top.verilog), registered_joins(&dut.verilog), "RAG pipe {pipe}");
            joins.push(registered_joins(&dut.verilog));
        }
        assert!(joins[1] > joins[0], "RAG: pipe 6 registers more than pipe 0: {joins:?}");
    }

    #[test]
    fn template_has_both_lines_and_eight_digits() {
        let rom = template_rom("eu_x", 12);
        let half = 1 << TPL_ADDR_BITS;
        let line = |r: &[u8]| r.iter().take_while(|&&c| c != TPL_END).copied().collect::<Vec<u8>>();
        let pass = line(&rom[..half]);
        let fail = line(&rom[half..]);
        assert_eq!(pass.iter().filter(|&&c| c == TPL_HEX).count(), 8);
        assert!(pass.starts_with(b"eu_x cycles=12 sig=") && pass.ends_with(b" PASS\r\n"));
        assert!(fail.ends_with(b" FAIL\r\n"));
    }

    #[test]
    fn uart_divider_is_rounded_from_the_board_clock() {
        assert_eq!(ICEBREAKER.uart_div(), 104); // 12e6 / 115200 = 104.17
        assert_eq!(ULX3S_85F.uart_div(), 217); // 25e6 / 115200 = 217.01
    }

    #[test]
    fn selftest_bist_top_emits_with_both_expected_modes() {
        let mut p = selftest::cosim_params();
        let m = selftest::emit(&p).unwrap();
        p.expected = Some(0x1a2b_3c4d);
        let b = selftest::emit(&p).unwrap();
        assert!(b.verilog.contains("32'h1a2b3c4d"), "baked signature is a constant in the Verilog");
        let ex = example::emit(&BistParams { dut_name: "eu_bist_example_dut".into(), ..p.clone() }).unwrap();
        let alu = alu_pipeline::emit(&alu_pipeline::small_config(), &alu_pipeline::cosim_params()).unwrap();
        let tanh = tanh_sigmoid::emit(&tanh_sigmoid::small_config(), &tanh_sigmoid::cosim_params()).unwrap();
        if let Ok(dir) = std::env::var("EU_BIST_DUMP") {
            for m in [&m, &ex, &alu, &tanh] {
                std::fs::write(format!("{dir}/{}.v", m.name), &m.verilog).unwrap();
            }
        }
    }
}
