//! Figure of the trap controller: the spec's worked example E1 (§5, W = 4): warp 1 takes a memory
//! fault, every warp is halted and drained, the handler is entered at HADDR on all warps, reads
//! the cause, and the warps return one by one to their saved PCs.

use super::Timing;
use crate::drivers::trap_controller::TrapBench;
use crate::golden::trap_controller::Inputs;
use crate::waves::{wavedrom, Fmt, Sig};
use hdl::trap_controller::enc::{cause, csr, sr};

fn base() -> Inputs {
    Inputs { warp_valid: 0xF, ..Default::default() }
}

fn e1() -> Timing {
    let mut tb = TrapBench::new(4, 0);
    tb.dut.capture_waves();
    // setup: HADDR = 0x8000 (CTRL, HMASK and IRQ_EN keep their reset values)
    let mut i = base();
    i.csr_valid = true;
    i.csr_we = true;
    i.csr_addr = csr::HADDR as u8;
    i.csr_wdata = 0x8000;
    tb.step(&i);
    // cycle 0: warp 1 reports a memory fault at 0x140
    let mut i = base();
    i.exc_valid = 0b0010;
    i.exc_cause[1] = cause::MEM_FAULT as u8;
    i.exc_pc[1] = 0x140;
    i.exc_mask[1] = 0xFFFF;
    tb.step(&i);
    tb.step(&base()); // 1: drain requested, not yet quiesced
    let mut i = base(); // 2: quiesced, the warps' PCs and masks are saved
    i.quiesced = true;
    i.warp_pc[..4].copy_from_slice(&[0x100, 0x144, 0x200, 0x300]);
    i.warp_mask[..4].copy_from_slice(&[0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xF]);
    tb.step(&i);
    tb.step(&base()); // 3: redirect every warp to the handler
    let mut i = base(); // 4: warp 0's handler reads its ESR
    i.sr_valid = true;
    i.sr_wid = 0;
    i.sr_sel = sr::ESR as u8;
    tb.step(&i);
    let mut i = base(); // 5: warp 0 returns; warp 1 reads its ESR (the cause)
    i.ret_valid = 0b0001;
    i.sr_valid = true;
    i.sr_wid = 1;
    i.sr_sel = sr::ESR as u8;
    tb.step(&i);
    let mut i = base(); // 6: warps 2 and 3 return
    i.ret_valid = 0b1100;
    tb.step(&i);
    let mut i = base(); // 7: warp 1 returns last
    i.ret_valid = 0b0010;
    tb.step(&i);
    tb.step(&base()); // 8: restore: every warp redirected to its saved PC
    tb.step(&base()); // 9
    tb.step(&base());
    let groups = [
        (
            "warps",
            vec![
                Sig::port("exc_valid").fmt(Fmt::Bin),
                Sig::field("exc_cause", "exc_cause[1]", 4, 4).fmt(Fmt::Code(&cause::TABLE)),
                Sig::port("quiesced"),
                Sig::port("ret_valid").fmt(Fmt::Bin),
            ],
        ),
        (
            "control",
            vec![
                Sig::port("warp_halt").fmt(Fmt::Bin),
                Sig::port("drain_req"),
                Sig::port("trap_mode"),
                Sig::port("redir_valid").fmt(Fmt::Bin),
                Sig::field("redir_pc", "redir_pc[1]", 32, 32).fmt(Fmt::Hex),
            ],
        ),
        (
            "handler",
            vec![Sig::port("sr_valid"), Sig::port("sr_wid").fmt(Fmt::Dec).when("sr_valid"), Sig::port("sr_rdata").fmt(Fmt::Hex)],
        ),
    ];
    Timing {
        stem: "trap_controller-e1",
        json: wavedrom(
            &tb.dut.desc().ports(),
            &tb.dut.take_waves(),
            "trap controller, W = 4: spec example E1 (memory fault on warp 1)",
            "Fault, halt and drain, handler at HADDR, ESR read, returns, restore. Golden model compared every cycle.",
            2,
            &groups,
        ),
    }
}

pub fn timing() -> Vec<Timing> {
    vec![e1()]
}
