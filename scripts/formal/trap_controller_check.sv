// Formal checker for eu_trap_controller at W=4 (T=32, PC_W=32), used by trap_controller.sh.
// The design's state registers mode, ws[w], lcause[w], ctrl (the top-level wires of the
// sub-blocks' register outputs mode_ctl$mode_q, warps$w$ws_q, warps$w$lcause_q, csr$ctrl_q) are
// brought out as ports by yosys `expose` before this wrapper is read (observation only).
//
// Properties (spec trap-controller.md §3 "abstract property", §7.4 invariants 1, 2, 4, 7, and
// "a raised exception is never dropped"):
//  P_ALL_OR_NONE  every warp allowed to issue (warp_halt=0) is either in its own code (mode NORM,
//                 ws IDLE/RUN) or in the handler (mode HANDLER, ws TRAP); never a RUN and a TRAP
//                 warp issuing at once.
//  P_NORM         trap_mode=0 (mode NORM) => no warp is TRAP or RETW.
//  P_REDIR        redir_valid[w] => warp_halt[w].
//  P_RETW         a RETW warp exists only in mode HANDLER.
//  P_KEPT         an accepted exception (the shadow `owed`, set from the spec's acceptance rule on
//                 the ports) keeps its warp RUN-and-draining or TRAP, with LCAUSE = its cause,
//                 until the handler has read it (SR read of the ESR) or cleared it (SR write), the
//                 warp leaves TRAP (RETURN, PAUSE, exception in the handler), or the host killed /
//                 the scheduler dropped the warp.
//  P_REPORT       while owed and TRAP, an ESR read by that warp returns the cause in ESR[3:0].
// With PIPE1 defined the design is the pipe = 1 build (timing-closure §3.3): the step sees every
// input one cycle late, so the shadow logic reads the inputs through the same one-cycle delay
// (reset to 0 with rst, as the design's input stage), and the properties are unchanged.
// Stimulus is free except rst (high in the first cycle only) and the wide data inputs (PCs,
// masks, SR write data), which no property depends on and which are tied to 0 to keep the SAT
// problem small.
module tc_formal(input clk,
  input [3:0] warp_valid, input [3:0] exc_valid, input [15:0] exc_cause,
  input [3:0] ret_valid, input [3:0] pause_valid, input quiesced, input [3:0] bar_wait,
  input issue_valid, input [1:0] issue_wid, input host_int, input sm_evt_valid,
  input [3:0] sm_evt_cause, input bcast_in, input sr_valid, input [1:0] sr_wid, input [2:0] sr_sel,
  input sr_we, input csr_valid, input csr_we, input [7:0] csr_addr, input [31:0] csr_wdata);

  reg started = 1'b0;
  always @(posedge clk) started <= 1'b1;
  wire rst = !started;

  wire [3:0] warp_halt, redir_valid, warp_kill;
  wire drain_req, trap_mode, host_irq, bcast_out;
  wire [31:0] sr_rdata;
  wire [1:0] mode;
  wire [2:0] ctrl;
  wire [2:0] ws0, ws1, ws2, ws3;
  wire [3:0] lc0, lc1, lc2, lc3;

  eu_trap_controller dut(
    .clk(clk), .rst(rst), .warp_valid(warp_valid), .exc_valid(exc_valid), .exc_cause(exc_cause),
    .exc_pc(128'd0), .exc_mask(128'd0), .ret_valid(ret_valid), .pause_valid(pause_valid),
    .warp_pc(128'd0), .warp_mask(128'd0), .quiesced(quiesced), .bar_wait(bar_wait),
    .issue_valid(issue_valid), .issue_wid(issue_wid), .host_int(host_int),
    .sm_evt_valid(sm_evt_valid), .sm_evt_cause(sm_evt_cause), .bcast_in(bcast_in),
    .sr_valid(sr_valid), .sr_wid(sr_wid), .sr_sel(sr_sel), .sr_we(sr_we), .sr_wdata(32'd0),
    .csr_valid(csr_valid), .csr_we(csr_we), .csr_addr(csr_addr), .csr_wdata(csr_wdata),
    // redir_pc, redir_mask, vt_base and csr_rdata are left open: no property reads them, and
    // yosys then removes the data paths only they depend on (cone of influence).
    .warp_halt(warp_halt), .drain_req(drain_req), .trap_mode(trap_mode), .redir_valid(redir_valid),
    .warp_kill(warp_kill), .host_irq(host_irq), .bcast_out(bcast_out), .sr_rdata(sr_rdata),
    .\mode_ctl$mode_q (mode), .\csr$ctrl_q (ctrl),
    .\warps$0$ws_q (ws0), .\warps$1$ws_q (ws1), .\warps$2$ws_q (ws2), .\warps$3$ws_q (ws3),
    .\warps$0$lcause_q (lc0), .\warps$1$lcause_q (lc1), .\warps$2$lcause_q (lc2), .\warps$3$lcause_q (lc3));

  // the inputs as the step sees them (PIPE1: one cycle late, 0 after reset)
  wire [3:0] warp_valid_s, exc_valid_s, ret_valid_s, pause_valid_s;
  wire [15:0] exc_cause_s;
  wire sr_valid_s, sr_we_s, csr_valid_s, csr_we_s;
  wire [1:0] sr_wid_s;
  wire [2:0] sr_sel_s;
  wire [7:0] csr_addr_s;
  wire [3:0] csr_wdata_s;
`ifdef PIPE1
  reg [51:0] in_d = 52'd0;
  always @(posedge clk)
    in_d <= rst ? 52'd0 : {warp_valid, exc_valid, ret_valid, pause_valid, exc_cause, sr_valid, sr_we,
                           csr_valid, csr_we, sr_wid, sr_sel, csr_addr, csr_wdata[3:0]};
  assign {warp_valid_s, exc_valid_s, ret_valid_s, pause_valid_s, exc_cause_s, sr_valid_s, sr_we_s,
          csr_valid_s, csr_we_s, sr_wid_s, sr_sel_s, csr_addr_s, csr_wdata_s} = in_d;
`else
  assign {warp_valid_s, exc_valid_s, ret_valid_s, pause_valid_s, exc_cause_s, sr_valid_s, sr_we_s,
          csr_valid_s, csr_we_s, sr_wid_s, sr_sel_s, csr_addr_s, csr_wdata_s} =
         {warp_valid, exc_valid, ret_valid, pause_valid, exc_cause, sr_valid, sr_we,
          csr_valid, csr_we, sr_wid, sr_sel, csr_addr, csr_wdata[3:0]};
`endif

  localparam NORM = 2'd0, DRAIN = 2'd1, ENTER = 2'd2, HANDLER = 2'd3;
  localparam IDLE = 3'd0, RUN = 3'd1, TRAP = 3'd2, RETW = 3'd3;

  wire [11:0] wsv = {ws3, ws2, ws1, ws0};
  wire [15:0] lcv = {lc3, lc2, lc1, lc0};
  wire kill_wr = csr_valid_s && csr_we_s && csr_addr_s == 8'h20;

  reg [3:0] owed = 4'd0;
  wire [3:0] ok_aon, ok_norm, ok_retw, ok_redir, ok_kept, ok_report, ok_mut;
  reg [15:0] owed_c = 16'd0;

  genvar w;
  generate for (w = 0; w < 4; w = w + 1) begin : g
    wire [2:0] s = wsv[3*w +: 3];
    wire [3:0] lc = lcv[4*w +: 4];
    wire [3:0] c = exc_cause_s[4*w +: 4];
    wire [3:0] cm = (c <= 4'd6) ? c : 4'd15;
    wire free = !warp_halt[w];
    wire killed = kill_wr && csr_wdata_s[w] && s != IDLE && s != 3'd7;
    // spec §7.4 step (3), RUN arm: the exception is recorded (and not parked as FATAL)
    wire accept = warp_valid_s[w] && exc_valid_s[w] && !killed && s == RUN && c != 4'd0
                  && ((mode == NORM && ctrl[0]) || (mode == DRAIN && lc == 4'd0));
    wire esr_read = sr_valid_s && !sr_we_s && sr_wid_s == w && sr_sel_s == 3'd0;
    wire esr_clear = sr_valid_s && sr_we_s && sr_wid_s == w && sr_sel_s == 3'd0;
    // delivered: read or cleared by the handler, or the warp leaves TRAP (RETURN, PAUSE, double
    // fault; an exception masked by HMASK also ends the tracking, conservatively); retired
    wire done = !warp_valid_s[w] || killed || (s == TRAP && (esr_read || esr_clear))
                || (s == TRAP && mode == HANDLER && (ret_valid_s[w] || pause_valid_s[w] || exc_valid_s[w]));

    always @(posedge clk) begin
      if (rst) begin
        owed[w] <= 1'b0;
      end else if (accept) begin
        owed[w] <= 1'b1;
        owed_c[4*w +: 4] <= cm;
      end else if (owed[w] && done) begin
        owed[w] <= 1'b0;
      end
    end

    // one bit per property and warp (1 = holds), asserted below
    assign ok_aon[w] = !free || (mode == NORM && (s == IDLE || s == RUN)) || (mode == HANDLER && s == TRAP);
    assign ok_norm[w] = trap_mode || (s != TRAP && s != RETW);
    assign ok_retw[w] = s != RETW || mode == HANDLER;
    assign ok_redir[w] = !redir_valid[w] || warp_halt[w];
    assign ok_kept[w] = !owed[w] || (((s == RUN && mode == DRAIN) || s == TRAP) && lc == owed_c[4*w +: 4]);
    assign ok_report[w] = !(owed[w] && esr_read && s == TRAP) || sr_rdata[3:0] == owed_c[4*w +: 4];
`ifdef MUTATE_PROPERTY
    assign ok_mut[w] = s != TRAP;  // deliberately false: "no warp ever reaches the handler"
`else
    assign ok_mut[w] = 1'b1;
`endif
  end endgenerate

  // P_ALL_OR_NONE (global form of §7.4 invariant 1): no issuing RUN warp together with an
  // issuing TRAP warp.
  wire [3:0] free_run, free_trap;
  generate for (w = 0; w < 4; w = w + 1) begin : h
    assign free_run[w] = !warp_halt[w] && wsv[3*w +: 3] == RUN;
    assign free_trap[w] = !warp_halt[w] && wsv[3*w +: 3] == TRAP;
  end endgenerate
  wire ok_mix = !(|free_run && |free_trap);
  always @* if (started) begin
    assert(&ok_aon);    // P_ALL_OR_NONE, per warp
    assert(ok_mix);     // P_ALL_OR_NONE, global
    assert(&ok_norm);   // P_NORM
    assert(&ok_retw);   // P_RETW
    assert(&ok_redir);  // P_REDIR
    assert(&ok_kept);   // P_KEPT
    assert(&ok_report); // P_REPORT
    assert(&ok_mut);    // (only with MUTATE_PROPERTY)
  end
endmodule
