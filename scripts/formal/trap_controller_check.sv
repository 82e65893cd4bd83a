// Formal checker for eu_trap_controller at any W (T=32, PC_W=32), used by trap_controller.sh.
// The design's state registers mode, ctrl, gpend, htmask, fvalid and per warp ws, lcause, gpw
// (the top-level wires of the sub-blocks' register outputs mode_ctl$mode_q, csr$ctrl_q,
// global$gpend_q, global$htmask_q, episode$fvalid_q, warps$w$ws_q, warps$w$lcause_q,
// warps$w$gpw_q) are brought out as ports by yosys `expose` before this wrapper is read
// (observation only); the script generates their connections (tc_ports.vh) for the given W.
// Macros from the script: W, WID_W (warp-id width), and optionally PIPE1, FREE_DATA,
// MUTATE_PROPERTY.
//
// Properties (spec trap-controller.md §3 "abstract property", §2.4 entry/SAVE, §7.4 invariants
// 1-7, and "a raised exception is never dropped"):
//  P_ALL_OR_NONE  every warp allowed to issue (warp_halt=0) is either in its own code (mode NORM,
//                 ws IDLE/RUN) or in the handler (mode HANDLER, ws TRAP); never a RUN and a TRAP
//                 warp issuing at once (invariant 1).
//  P_NORM         trap_mode=0 (mode NORM) => no warp is TRAP or RETW, FVALID=0 (invariant 2).
//  P_NORM_RUN     mode NORM and ws RUN => LCAUSE=0 and GPW=0 (invariant 3).
//  P_REDIR        redir_valid[w] => warp_halt[w] (invariant 4).
//  P_GPEND        GPEND has no bit outside GPEND_MASK (invariant 5); HTMASK!=0 => GPEND[10]
//                 (invariant 6).
//  P_RETW         a RETW warp exists only in mode HANDLER (invariant 7).
//  P_KEPT         an accepted exception (the shadow `owed`, set from the spec's acceptance rule on
//                 the ports) keeps its warp RUN-and-draining or TRAP, with LCAUSE = its cause,
//                 until the handler has read it (SR read of the ESR) or cleared it (SR write), the
//                 warp leaves TRAP (RETURN, PAUSE, exception in the handler), or the host killed /
//                 the scheduler dropped the warp.
//  P_REPORT       while owed and TRAP, an ESR read by that warp returns the cause in ESR[3:0].
//  P_EPC          (data) while an accepted exception is owed and its warp is TRAP, an SR read of
//                 EPC / EMASK by that warp returns the exc_pc / exc_mask that came with the
//                 exception (§2.4 SAVE: "keeps the PC and mask carried by that exception"), until
//                 the handler writes any SR of that warp or the tracking above ends.
//  P_ENTRY        (data) in ENTER every TRAP warp is redirected (redir_valid) to the handler
//                 address the host had written to HADDR (reset value HADDR_RESET) before the SAVE
//                 edge, with its EMASK: a shadow HADDR from the CSR port, latched in DRAIN.
// With PIPE1 defined the design is the pipe = 1 build (timing-closure §3.3): the step sees every
// input one cycle late, so the shadow logic reads the inputs through the same one-cycle delay
// (reset to 0 with rst, as the design's input stage), and the properties are unchanged.
// Stimulus is free except rst (high in the first cycle only). The wide data inputs (exc_pc,
// exc_mask, warp_pc, warp_mask, sr_wdata) are free with FREE_DATA, free in one bit position with
// DATA_BIT (see below), and tied to 0 without either (a smaller SAT problem); csr_wdata and
// exc_cause are always free.
`ifndef HADDR_RESET
`define HADDR_RESET 32'd0
`endif
module tc_formal(input clk,
  input [`W-1:0] warp_valid, input [`W-1:0] exc_valid, input [4*`W-1:0] exc_cause,
  input [`W-1:0] ret_valid, input [`W-1:0] pause_valid, input quiesced, input [`W-1:0] bar_wait,
  input issue_valid, input [`WID_W-1:0] issue_wid, input host_int, input sm_evt_valid,
  input [3:0] sm_evt_cause, input bcast_in, input sr_valid, input [`WID_W-1:0] sr_wid,
  input [2:0] sr_sel, input sr_we, input csr_valid, input csr_we, input [7:0] csr_addr,
  input [31:0] csr_wdata,
  input [32*`W-1:0] exc_pc_in, input [32*`W-1:0] exc_mask_in, input [32*`W-1:0] warp_pc_in,
  input [32*`W-1:0] warp_mask_in, input [31:0] sr_wdata_in);

  reg started = 1'b0;
  always @(posedge clk) started <= 1'b1;
  wire rst = !started;

`ifdef FREE_DATA
  wire [32*`W-1:0] exc_pc = exc_pc_in, exc_mask = exc_mask_in, warp_pc = warp_pc_in, warp_mask = warp_mask_in;
  wire [31:0] sr_wdata = sr_wdata_in;
`elsif DATA_BIT
  // Bit DATA_BIT of every data word free, the other bits 0. The controller only stores, selects
  // and forwards these words (EPC, EMASK, the redirect PC and mask, SR reads and writes): every
  // bit position goes through the same multiplexers and registers, independently of the others,
  // so one free bit stands for all 32 (data independence), and a word taken from the wrong warp,
  // register or cycle still shows as a wrong bit (the data mutation below). It keeps the data
  // properties to one bit per word instead of a 32-bit equivalence check in every frame.
  wire [31:0] k_data_bit = 32'd1 << `DATA_BIT;
  wire [32*`W-1:0] k_data_bits = {`W{k_data_bit}};
  wire [32*`W-1:0] exc_pc = exc_pc_in & k_data_bits, exc_mask = exc_mask_in & k_data_bits;
  wire [32*`W-1:0] warp_pc = warp_pc_in & k_data_bits, warp_mask = warp_mask_in & k_data_bits;
  wire [31:0] sr_wdata = sr_wdata_in & k_data_bit;
`else
  wire [32*`W-1:0] exc_pc = 0, exc_mask = 0, warp_pc = 0, warp_mask = 0;
  wire [31:0] sr_wdata = 32'd0;
`endif

  wire [`W-1:0] warp_halt, redir_valid, warp_kill;
  wire [32*`W-1:0] redir_pc, redir_mask;
  wire drain_req, trap_mode, host_irq, bcast_out;
  wire [31:0] sr_rdata;
  wire [1:0] mode;
  wire [2:0] ctrl;
  wire [15:0] gpend;
  wire [`W-1:0] htmask;
  wire fvalid;
  wire [3*`W-1:0] wsv;
  wire [4*`W-1:0] lcv;
  wire [`W-1:0] gpw;

  eu_trap_controller dut(
    .clk(clk), .rst(rst), .warp_valid(warp_valid), .exc_valid(exc_valid), .exc_cause(exc_cause),
    .exc_pc(exc_pc), .exc_mask(exc_mask), .ret_valid(ret_valid), .pause_valid(pause_valid),
    .warp_pc(warp_pc), .warp_mask(warp_mask), .quiesced(quiesced), .bar_wait(bar_wait),
    .issue_valid(issue_valid), .issue_wid(issue_wid), .host_int(host_int),
    .sm_evt_valid(sm_evt_valid), .sm_evt_cause(sm_evt_cause), .bcast_in(bcast_in),
    .sr_valid(sr_valid), .sr_wid(sr_wid), .sr_sel(sr_sel), .sr_we(sr_we), .sr_wdata(sr_wdata),
    .csr_valid(csr_valid), .csr_we(csr_we), .csr_addr(csr_addr), .csr_wdata(csr_wdata),
    // vt_base, csr_rdata and the dbg_* ports are left open: no property reads them, and yosys
    // then removes the data paths only they depend on (cone of influence).
    .warp_halt(warp_halt), .drain_req(drain_req), .trap_mode(trap_mode), .redir_valid(redir_valid),
    .redir_pc(redir_pc), .redir_mask(redir_mask),
    .warp_kill(warp_kill), .host_irq(host_irq), .bcast_out(bcast_out), .sr_rdata(sr_rdata),
`include "tc_ports.vh"
  );

  // the inputs as the step sees them (PIPE1: one cycle late, 0 after reset)
  localparam IW = 8 * `W + 4 * `W + 4 + 2 * `WID_W + 3 + 8 + 32 + 1 + 64 * `W;
  wire [`W-1:0] warp_valid_s, exc_valid_s, ret_valid_s, pause_valid_s;
  wire [4*`W-1:0] exc_cause_s;
  wire sr_valid_s, sr_we_s, csr_valid_s, csr_we_s, quiesced_s;
  wire [`WID_W-1:0] sr_wid_s;
  wire [2:0] sr_sel_s;
  wire [7:0] csr_addr_s;
  wire [31:0] csr_wdata_s;
  wire [32*`W-1:0] exc_pc_s, exc_mask_s;
  wire [IW-1:0] in_now = {warp_valid, exc_valid, ret_valid, pause_valid, exc_cause, sr_valid, sr_we,
                          csr_valid, csr_we, sr_wid, sr_sel, csr_addr, csr_wdata, quiesced, exc_pc, exc_mask};
`ifdef PIPE1
  reg [IW-1:0] in_d = {IW{1'b0}};
  always @(posedge clk) in_d <= rst ? {IW{1'b0}} : in_now;
  assign {warp_valid_s, exc_valid_s, ret_valid_s, pause_valid_s, exc_cause_s, sr_valid_s, sr_we_s,
          csr_valid_s, csr_we_s, sr_wid_s, sr_sel_s, csr_addr_s, csr_wdata_s, quiesced_s, exc_pc_s,
          exc_mask_s} = in_d;
`else
  assign {warp_valid_s, exc_valid_s, ret_valid_s, pause_valid_s, exc_cause_s, sr_valid_s, sr_we_s,
          csr_valid_s, csr_we_s, sr_wid_s, sr_sel_s, csr_addr_s, csr_wdata_s, quiesced_s, exc_pc_s,
          exc_mask_s} = in_now;
`endif

  localparam NORM = 2'd0, DRAIN = 2'd1, ENTER = 2'd2, HANDLER = 2'd3;
  localparam IDLE = 3'd0, RUN = 3'd1, TRAP = 3'd2, RETW = 3'd3;
  localparam [15:0] GPEND_MASK = 16'h9F00;

  wire kill_wr = csr_valid_s && csr_we_s && csr_addr_s == 8'h20;

  // P_ENTRY's shadow: HADDR as the host wrote it, latched every DRAIN cycle (the last one is the
  // SAVE edge, whose HLAT is the pre-edge HADDR)
  reg [31:0] haddr_sh = `HADDR_RESET, hlat_sh = `HADDR_RESET;
  always @(posedge clk) begin
    if (rst) begin
      haddr_sh <= `HADDR_RESET;
      hlat_sh <= `HADDR_RESET;
    end else begin
      if (csr_valid_s && csr_we_s && csr_addr_s == 8'h04) haddr_sh <= csr_wdata_s;
      if (mode == DRAIN) hlat_sh <= haddr_sh;
    end
  end

  reg [`W-1:0] owed = {`W{1'b0}};
  reg [`W-1:0] owed_d = {`W{1'b0}};
  wire [`W-1:0] ok_aon, ok_norm, ok_norm_run, ok_retw, ok_redir, ok_kept, ok_report, ok_epc, ok_entry, ok_mut;
  reg [4*`W-1:0] owed_c = {4*`W{1'b0}};
  reg [32*`W-1:0] owed_pc = {32*`W{1'b0}}, owed_mask = {32*`W{1'b0}};

  genvar w;
  generate for (w = 0; w < `W; w = w + 1) begin : g
    wire [2:0] s = wsv[3*w +: 3];
    wire [3:0] lc = lcv[4*w +: 4];
    wire [3:0] c = exc_cause_s[4*w +: 4];
    wire [3:0] cm = (c <= 4'd6) ? c : 4'd15;
    wire free = !warp_halt[w];
    wire killed = kill_wr && csr_wdata_s[w] && s != IDLE && s != 3'd7;
    // spec §7.4 step (3), RUN arm: the exception is recorded (and not parked as FATAL)
    wire accept = warp_valid_s[w] && exc_valid_s[w] && !killed && s == RUN && c != 4'd0
                  && ((mode == NORM && ctrl[0]) || (mode == DRAIN && lc == 4'd0));
    wire sr_mine = sr_valid_s && sr_wid_s == w;
    wire esr_read = sr_mine && !sr_we_s && sr_sel_s == 3'd0;
    wire esr_clear = sr_mine && sr_we_s && sr_sel_s == 3'd0;
    // delivered: read or cleared by the handler, or the warp leaves TRAP (RETURN, PAUSE, double
    // fault; an exception masked by HMASK also ends the tracking, conservatively); retired
    wire done = !warp_valid_s[w] || killed || (s == TRAP && (esr_read || esr_clear))
                || (s == TRAP && mode == HANDLER && (ret_valid_s[w] || pause_valid_s[w] || exc_valid_s[w]));
    // P_EPC's tracking ends as P_KEPT's does (but not on an ESR read), or on any SR write by the
    // warp (the handler may rewrite EPC/EMASK)
    wire done_d = !warp_valid_s[w] || killed || (s == TRAP && sr_mine && sr_we_s)
                  || (s == TRAP && mode == HANDLER && (ret_valid_s[w] || pause_valid_s[w] || exc_valid_s[w]));

    always @(posedge clk) begin
      if (rst) begin
        owed[w] <= 1'b0;
        owed_d[w] <= 1'b0;
      end else if (accept) begin
        owed[w] <= 1'b1;
        owed_c[4*w +: 4] <= cm;
        owed_d[w] <= 1'b1;
        owed_pc[32*w +: 32] <= exc_pc_s[32*w +: 32];
        owed_mask[32*w +: 32] <= exc_mask_s[32*w +: 32];
      end else begin
        if (owed[w] && done) owed[w] <= 1'b0;
        if (owed_d[w] && done_d) owed_d[w] <= 1'b0;
      end
    end

    // one bit per property and warp (1 = holds), asserted below
    assign ok_aon[w] = !free || (mode == NORM && (s == IDLE || s == RUN)) || (mode == HANDLER && s == TRAP);
    assign ok_norm[w] = trap_mode || (s != TRAP && s != RETW);
    assign ok_norm_run[w] = !(mode == NORM && s == RUN) || (lc == 4'd0 && !gpw[w]);
    assign ok_retw[w] = s != RETW || mode == HANDLER;
    assign ok_redir[w] = !redir_valid[w] || warp_halt[w];
    assign ok_kept[w] = !owed[w] || (((s == RUN && mode == DRAIN) || s == TRAP) && lc == owed_c[4*w +: 4]);
    assign ok_report[w] = !(owed[w] && esr_read && s == TRAP) || sr_rdata[3:0] == owed_c[4*w +: 4];
    assign ok_epc[w] = !(owed_d[w] && s == TRAP && sr_mine && !sr_we_s)
                       || (sr_sel_s == 3'd1 && sr_rdata == owed_pc[32*w +: 32])
                       || (sr_sel_s == 3'd2 && sr_rdata == owed_mask[32*w +: 32])
                       || (sr_sel_s != 3'd1 && sr_sel_s != 3'd2);
    assign ok_entry[w] = !(mode == ENTER && s == TRAP)
                         || (redir_valid[w] && redir_pc[32*w +: 32] == hlat_sh
                             && (!owed_d[w] || redir_mask[32*w +: 32] == owed_mask[32*w +: 32]));
`ifdef MUTATE_PROPERTY
    assign ok_mut[w] = s != TRAP;  // deliberately false: "no warp ever reaches the handler"
`else
    assign ok_mut[w] = 1'b1;
`endif
  end endgenerate

  // P_ALL_OR_NONE (global form of §7.4 invariant 1): no issuing RUN warp together with an
  // issuing TRAP warp.
  wire [`W-1:0] free_run, free_trap;
  generate for (w = 0; w < `W; w = w + 1) begin : h
    assign free_run[w] = !warp_halt[w] && wsv[3*w +: 3] == RUN;
    assign free_trap[w] = !warp_halt[w] && wsv[3*w +: 3] == TRAP;
  end endgenerate
  wire ok_mix = !(|free_run && |free_trap);
  always @* if (started) begin
    assert(&ok_aon);    // P_ALL_OR_NONE, per warp
    assert(ok_mix);     // P_ALL_OR_NONE, global
    assert(&ok_norm);   // P_NORM
    assert(trap_mode || !fvalid);  // P_NORM
    assert(&ok_norm_run);  // P_NORM_RUN
    assert(&ok_retw);   // P_RETW
    assert(&ok_redir);  // P_REDIR
    assert((gpend & ~GPEND_MASK) == 16'd0);  // P_GPEND (invariant 5)
    assert(htmask == {`W{1'b0}} || gpend[10]);  // P_GPEND (invariant 6)
    assert(&ok_kept);   // P_KEPT
    assert(&ok_report); // P_REPORT
`ifndef NO_DATA_PROPS
    assert(&ok_epc);    // P_EPC
    assert(&ok_entry);  // P_ENTRY
`endif
    assert(&ok_mut);    // (only with MUTATE_PROPERTY)
  end
endmodule
