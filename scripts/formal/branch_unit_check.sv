// Formal checker for eu_branch_unit (threads 1, pipe 0, any N), used by branch_unit.sh.
// The script brings every state register of the design out as a port (yosys `expose` of the
// flattened register outputs `*.flop$0.q`: lane counters, CICs, stack entries ip/aux, loop_nest,
// fault; not the response registers, which are the step's answer) and generates two includes:
//   bu_ports.vh   the DUT's connections of those ports to `st` (everything but fault) and
//                 `fault_q` (the fault register)
//   bu_assign.vh  `cnt_q`: the lane-counter registers, lane i at [i*CW +: CW], taken from `st`
// Macros from the script: N (lanes), IPW, CW (counter width 3+DW), S (bits in `st`).
//
// Properties (spec branch-unit.md §2.1, §2.2, §6.2, §6.4 `fail`, §7), every cycle after reset,
// every request input free (op, ip, jip, uip, pred, valid, tid):
//  P_MASK     lane_mask[i] = 1 iff lane i's counter is 0 (E of §2.2, "read straight from the
//             counters", §6.2), where lane i's counter is dbg_cnt[i*CW +: CW], and dbg_cnt is
//             the counter register itself (the RTL stores cnt complemented, so that the reset
//             value 0 of the flop is OFF = all ones; the check states that mapping).
//  P_ERR_STATE a step answered with an error (rsp_err = 1 or rsp_err_code != 0, seen on the
//             registered response one cycle after the request) changed no state register except
//             fault, which is 1 afterwards (§7 "changes no state except fault := 1"): every bit of
//             `st` after the edge equals its value before.
//  P_ERR_OUT  the same erroring step answers as §6.4 `fail` does: rsp_valid, next_ip = the
//             request's IP, exec/lane/pred masks 0, warn 0, event nop (0); and rsp_err = 1
//             exactly when rsp_err_code != 0.
//  P_FAULT    the `fault` port is the fault register.
// MUTATE_PROPERTY adds a false claim (an error leaves fault unchanged too): it fails as soon as a
// first error is reachable, so it also shows that P_ERR_* are not vacuous within the depth.
module bu_formal(input clk, input req_valid, input [4:0] req_op, input [`IPW-1:0] req_ip,
  input [`IPW-1:0] req_jip, input [`IPW-1:0] req_uip, input [`N-1:0] req_pred, input req_tid);

  reg started = 1'b0;
  always @(posedge clk) started <= 1'b1;
  wire rst = !started;

  wire req_ready, rsp_valid, rsp_err, fault, rsp_tid, thr_busy;
  wire [`IPW-1:0] rsp_next_ip;
  wire [`N-1:0] rsp_exec_mask, rsp_lane_mask, rsp_pred_mask, lane_mask;
  wire [4:0] rsp_err_code;
  wire [2:0] rsp_err_type;
  wire [1:0] rsp_warn;
  wire [5:0] rsp_event;
  wire [`N*`CW-1:0] dbg_cnt;
  wire [`S-1:0] st;
  wire fault_q;
  wire [`N*`CW-1:0] cnt_q;

  eu_branch_unit dut(
    .clk(clk), .rst(rst), .req_valid(req_valid), .req_ready(req_ready), .req_op(req_op),
    .req_ip(req_ip), .req_jip(req_jip), .req_uip(req_uip), .req_pred(req_pred),
    .rsp_valid(rsp_valid), .rsp_next_ip(rsp_next_ip), .rsp_exec_mask(rsp_exec_mask),
    .rsp_lane_mask(rsp_lane_mask), .rsp_pred_mask(rsp_pred_mask), .rsp_err(rsp_err),
    .rsp_err_code(rsp_err_code), .rsp_err_type(rsp_err_type), .rsp_warn(rsp_warn),
    .rsp_event(rsp_event), .lane_mask(lane_mask), .fault(fault), .dbg_cnt(dbg_cnt),
    // dbg_cic, dbg_loop_nest and dbg_tos are views of registers that `st` holds directly
    .req_tid(req_tid), .rsp_tid(rsp_tid), .thr_busy(thr_busy),
`include "bu_ports.vh"
  );
`include "bu_assign.vh"

  // the state and the request as they were before the last edge
  reg [`S-1:0] st_prev = {`S{1'b0}};
  reg fault_prev = 1'b0;
  reg [`IPW-1:0] ip_prev = {`IPW{1'b0}};
  always @(posedge clk) begin
    st_prev <= st;
    fault_prev <= fault_q;
    ip_prev <= req_ip;
  end

  wire [`N-1:0] ok_mask, ok_cnt;
  genvar i;
  generate for (i = 0; i < `N; i = i + 1) begin : g
    assign ok_mask[i] = lane_mask[i] == (dbg_cnt[i*`CW +: `CW] == {`CW{1'b0}});
    assign ok_cnt[i] = dbg_cnt[i*`CW +: `CW] == ~cnt_q[i*`CW +: `CW];
  end endgenerate

  wire erred = rsp_err || rsp_err_code != 5'd0;
  // ONLY_MASK / ONLY_ERR (script option --only) keep one group, so that a mutation is shown to be
  // caught by the property it targets
`ifdef ONLY_ERR
  wire chk_mask = 1'b0;
`else
  wire chk_mask = 1'b1;
`endif
`ifdef ONLY_MASK
  wire chk_err = 1'b0;
`else
  wire chk_err = 1'b1;
`endif
  always @* if (started) begin
    if (chk_mask) begin
      assert(&ok_mask);                                 // P_MASK
      assert(&ok_cnt);                                  // P_MASK: dbg_cnt is the register
      assert(fault == fault_q);                         // P_FAULT
    end
    if (chk_err) assert(rsp_err == (rsp_err_code != 5'd0));  // P_ERR_OUT
    if (chk_err && erred) begin
      assert(st == st_prev);                            // P_ERR_STATE
      assert(fault_q);                                  // P_ERR_STATE
      assert(rsp_valid && rsp_next_ip == ip_prev);      // P_ERR_OUT
      assert(rsp_exec_mask == 0 && rsp_lane_mask == 0 && rsp_pred_mask == 0);
      assert(rsp_warn == 2'd0 && rsp_event == 6'd0);
`ifdef MUTATE_PROPERTY
      assert(fault_q == fault_prev);  // deliberately false: "an error leaves fault unchanged"
`endif
    end
  end
endmodule
