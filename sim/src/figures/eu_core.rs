//! Figure of the execution unit: four threads through the barrel, each loading its words, adding,
//! comparing and storing under an IF; the memory ops replay while the memory unit serves another
//! thread. The RTL run is compared with the ISA model (every retired instruction of every thread,
//! the final registers, flags and data memory) before it is drawn.

use super::Timing;
use crate::drivers::eu_core::EuCoreRtl;
use crate::golden::eu_core::asm::assemble;
use crate::golden::eu_core::{Config, Model};
use crate::waves::{wavedrom, Fmt, Sig};

const PROGRAM: &str = "
    ld r3, r1
    add r3, r3, r2
    cmp.gt.f0 r3, 100
    (f0) if
        st r1, r3
    endif
";

fn barrel() -> Timing {
    let mut rtl = EuCoreRtl::new("default");
    let p = assemble(PROGRAM).expect("the figure's program assembles");
    let mut m = Model::new(Config { mem_bytes: rtl.dmem_bytes, ..Config::default() }, p);
    for t in 0..4 {
        for l in 0..8 {
            m.set_lane(t, 1, l, (256 * t + 4 * l) as u32);
            m.set_lane(t, 2, l, (37 * (t + 1) * (l + 1) % 90) as u32);
            m.set_word(256 * t + 4 * l, (13 * t + 7 * l) as u32);
        }
    }
    let (prog, rf, mem) = (m.prog.clone(), m.rf.clone(), m.mem.clone());
    let gold = m.run();
    assert!(gold.exceptions.is_empty(), "{:?}", gold.exceptions);
    rtl.capture = true;
    let r = rtl.run(&prog, &rf, &mem, 10_000);
    assert!(r.finished && r.fault.is_none(), "the figure's run ends without a fault");
    for t in 0..4 {
        let of = |v: &[crate::golden::eu_core::Retired]| v.iter().filter(|x| x.thread == t).map(|x| (x.ip, x.exec_mask, x.writes.clone())).collect::<Vec<_>>();
        assert_eq!(of(&r.trace), of(&gold.trace), "thread {t}: retired instructions, RTL against the ISA model");
        assert_eq!(r.rf[t], gold.rf[t], "thread {t}: final registers");
        assert_eq!(r.flags[t], gold.flags[t], "thread {t}: final flags");
    }
    assert!(r.mem == gold.mem, "final data memory");
    let waves = rtl.waves.take().expect("captured");
    let groups = [
        ("", vec![Sig::port("start"), Sig::port("busy"), Sig::port("live").fmt(Fmt::Bin)]),
        (
            "retire",
            vec![
                Sig::port("retire_valid"),
                Sig::port("retire_tid").fmt(Fmt::Dec).when("retire_valid"),
                Sig::port("retire_ip").fmt(Fmt::Dec).when("retire_valid"),
                Sig::port("retire_exec_mask").fmt(Fmt::Bin).when("retire_valid"),
                Sig::port("retire_dst_we").when("retire_valid"),
                Sig::port("retire_dst_reg").fmt(Fmt::Dec).when("retire_valid"),
                Sig::port("retire_flag_we").when("retire_valid"),
                Sig::port("retire_mem_we").fmt(Fmt::Bin).when("retire_valid"),
            ],
        ),
    ];
    Timing {
        stem: "eu_core-barrel",
        json: wavedrom(
            &rtl.dut.desc().ports(),
            &waves,
            "eu_core: four threads in the barrel; LD/ST replay while the memory unit serves another thread",
            "Program per thread: ld r3, r1 / add r3, r3, r2 / cmp.gt.f0 r3, 100 / (f0) if / st r1, r3 / endif (then the assembler's end). Every retired instruction and the final registers, flags and memory compared with the ISA model.",
            1,
            &groups,
        ),
    }
}

pub fn timing() -> Vec<Timing> {
    vec![barrel()]
}
