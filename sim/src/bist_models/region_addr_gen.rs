//! Region address generator (RAG) cycle models for the BIST top `hdl::bist::region_addr_gen`.

use super::{bits, put, Words};
use crate::bist::{CycleModel, Layout};
use crate::golden::region_addr_gen::{rag, Cfg, Desc, RagTiming, FATAL_MASK};
use crate::latency::FixedLatency;
use hdl::region_addr_gen::enc::type_code;

/// The golden RAG (`rag` + `RagTiming`) on the raw ports, Mealy view.
pub struct RagCycles {
    pub cfg: Cfg,
    pub t: RagTiming,
    w: Words,
    aw: usize,
    /// Descriptors accepted, of which fatal / semantic-error / clean (coverage).
    pub accepted: u64,
    pub fatal: u64,
    pub semantic: u64,
    pub clean: u64,
    pub cycles: u64,
    pipe: u32,
    /// Words of the packed input vector.
    in_words: usize,
}

impl RagCycles {
    pub fn new(cfg: &hdl::region_addr_gen::Config) -> Self {
        let dut = hdl::bist::region_addr_gen::dut_module(cfg);
        let layout = Layout::of(&dut);
        let w = Words::of(&layout);
        let c = Cfg::from(cfg);
        let aw = (c.rn_w() + c.rb_w()) as usize;
        let t = RagTiming::new(cfg.pipe);
        RagCycles { cfg: c, t, w, aw, accepted: 0, fatal: 0, semantic: 0, clean: 0, cycles: 0, pipe: cfg.pipe, in_words: layout.in_words }
    }
}

impl CycleModel for RagCycles {
    fn reset(&mut self) {
        self.t = RagTiming::new(self.pipe);
    }
    fn step(&mut self, i: &[u32], o: &mut [u32]) {
        let w = &self.w;
        let g = |n: &str| i[w.i(n)];
        let d = Desc {
            enc_err: g("in_enc_err") & 1 == 1,
            reg: g("in_reg"),
            sub: g("in_sub"),
            ty: g("in_type"),
            exec_log2: g("in_exec_log2"),
            width_log2: g("in_width_log2"),
            hs: g("in_hs"),
            vs: g("in_vs"),
            is_dst: g("in_is_dst") & 1 == 1,
            colmajor: g("in_colmajor") & 1 == 1,
            tag: g("in_tag"),
        };
        let (in_valid, out_ready) = (g("in_valid") & 1 == 1, g("out_ready") & 1 == 1);
        let t = &self.t;
        o[w.o("in_ready")] = t.in_ready(out_ready) as u32;
        o[w.o("out_valid")] = t.out_valid as u32;
        let a = w.o("out_addr");
        for n in 0..self.cfg.n_max as usize {
            put(o, a, n * self.aw, self.aw, t.out.addr[n] as u64);
        }
        o[w.o("out_esize_log2")] = t.out.esize_log2;
        o[w.o("out_ch_valid")] = t.out.ch_valid;
        o[w.o("out_straddle")] = t.out.straddle;
        o[w.o("out_err")] = t.out.err as u32;
        o[w.o("out_warn")] = t.out.warn as u32;
        o[w.o("out_tag")] = t.tag;
        let res = rag(&self.cfg, &d);
        self.cycles += 1;
        if in_valid && t.in_ready(out_ready) {
            self.accepted += 1;
            if res.err & FATAL_MASK != 0 {
                self.fatal += 1;
            } else if res.err != 0 {
                self.semantic += 1;
            } else {
                self.clean += 1;
            }
        }
        self.t.step(false, in_valid, &d, &res, out_ready);
    }
}

/// The BIST top's stimulus shaping (module docs of `hdl::bist::region_addr_gen`), then [`RagCycles`].
pub struct RagBist {
    pub inner: RagCycles,
    buf: Vec<u32>,
    /// The BIST top's input register: the DUT sees the shaped stimulus of the cycle before
    /// (zeros after reset).
    input_reg: FixedLatency<Vec<u32>>,
}

impl RagBist {
    pub fn new(cfg: &hdl::region_addr_gen::Config) -> Self {
        let inner = RagCycles::new(cfg);
        let input_reg = FixedLatency::new(1, vec![0; inner.in_words]);
        RagBist { inner, buf: Vec::new(), input_reg }
    }
}

impl CycleModel for RagBist {
    fn reset(&mut self) {
        self.inner.reset();
        self.input_reg.reset();
    }
    fn step(&mut self, i: &[u32], o: &mut [u32]) {
        self.buf.clear();
        self.buf.extend_from_slice(i);
        let w = &self.inner.w;
        let (nr, nlog) = (self.inner.cfg.nr, self.inner.cfg.n_max.trailing_zeros());
        let b = &mut self.buf;
        let tag = i[w.i("in_tag")];
        let wild = i[w.i("in_enc_err")] & i[w.i("in_colmajor")] & 1 == 1;
        b[w.i("in_enc_err")] = (wild && bits(tag, 0, 1) == 1) as u32;
        b[w.i("in_colmajor")] = (wild && bits(tag, 1, 1) == 1) as u32;
        if !wild {
            let ty = i[w.i("in_type")];
            b[w.i("in_type")] = if ty as u64 == type_code::RESERVED { type_code::F as u32 } else { ty };
            let ex = i[w.i("in_exec_log2")];
            let ex = if ex > nlog { ex - nlog } else { ex };
            b[w.i("in_exec_log2")] = ex;
            b[w.i("in_width_log2")] = i[w.i("in_width_log2")].min(ex);
            let r = i[w.i("in_reg")];
            b[w.i("in_reg")] = if r >= nr { r - nr } else { r };
        }
        b[w.i("in_valid")] = i[w.i("in_valid")] | bits(tag, 3, 1);
        b[w.i("out_ready")] = i[w.i("out_ready")] | bits(tag, 2, 1);
        // the DUT sees what the top's input register holds; this cycle's shaping is what it loads
        self.inner.step(self.input_reg.out(), o);
        self.input_reg.tick(std::mem::take(&mut self.buf));
    }
}

/// This block's entry in the BIST registry (`super::registry`).
pub fn entry() -> super::BistEntry {
    super::entry_of("region_addr_gen", &["small", "rf64", "default", "default_p6"], |all| all.region_addr_gen, hdl::bist::region_addr_gen::dut_module, |c| Box::new(RagBist::new(c)), hdl::bist::region_addr_gen::emit)
}
