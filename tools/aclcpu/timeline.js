// timeline.js - the timeline page's script (embedded by html.c at build
// time; docs/timeline.md). It reads the page's JSON blocks (config and one
// per clock), builds per-lane indexes, and draws on one canvas: the time
// axis, the fork/join episodes, one lane per stream (kernels closer than a
// pixel merged into runs, other device tasks under them, event edges as
// arrows), a cores-in-use lane per core pool against its capacity, and the
// Overlap Analysis lanes. Wheel and the +/- keys or buttons zoom, drag and
// the arrow keys pan, 0 or the button resets, the selector shows one step;
// the wheel over the lane names and the up/down keys scroll the lanes.
// After the first frame it writes what it drew into data- attributes of
// <body> (lanes, kernels, edges, ...) and the time it took (data-drawn-ms);
// with the URL hash #test it then drives its own controls with synthetic
// events and records what they did (data-test-*).
(function () {
  'use strict';
  var cfg = JSON.parse(document.getElementById('config').textContent);
  var LABEL = 190, AXIS = 26, EPH = 14, CORE_H = 44, OV_H = 14, PAD = 10, MIN_SPAN = 20;
  var canvas = document.getElementById('tl'), ctx = canvas.getContext('2d');
  var tip = document.getElementById('tip'), rangeEl = document.getElementById('range'), wrap = document.getElementById('wrap');
  var stepSel = document.getElementById('step'), clockBox = document.getElementById('clock');
  var body = document.body.dataset;
  var W = cfg.width;
  var testMode = location.hash === '#test';
  var clocks = {}, D = null;
  var view = { a: 0, b: 1 }, base = { a: 0, b: 1 }, step = null;
  var layout = null, pending = false;

  // ---- data ------------------------------------------------------------------------------
  function laneIndex(n, laneCol, dur, L) {
    var count = new Int32Array(L), i, li, idx = [], fill = new Int32Array(L), maxd = new Float64Array(L);
    for (i = 0; i < n; i++) if (laneCol[i] >= 0) count[laneCol[i]]++;
    for (li = 0; li < L; li++) idx.push(new Int32Array(count[li]));
    for (i = 0; i < n; i++) {
      li = laneCol[i];
      if (li < 0) continue;
      idx[li][fill[li]++] = i;
      if (dur[i] > maxd[li]) maxd[li] = dur[i];
    }
    return { idx: idx, maxd: maxd };
  }

  function starts(delta) {
    var n = delta.length, s = new Float64Array(n), acc = 0;
    for (var i = 0; i < n; i++) { acc += delta[i]; s[i] = acc; }
    return s;
  }

  // The blocks in use over time: change points (t, value), from the
  // kernels' starts (in order) and ends (sorted here).
  function usage(k, ks, ke, demand) {
    var n = ks.length, order = [], i;
    for (i = 0; i < n; i++) if (demand[i] > 0) order.push(i);
    var byEnd = Int32Array.from(order).sort(function (x, y) { return ke[x] - ke[y]; });
    var m = order.length, t = new Float64Array(2 * m + 1), v = new Float64Array(2 * m + 1);
    var a = 0, b = 0, cur = 0, np = 0, peak = 0;
    while (a < m || b < m) {
      var ta = a < m ? ks[order[a]] : Infinity, tb = b < m ? ke[byEnd[b]] : Infinity, now = Math.min(ta, tb);
      while (b < m && ke[byEnd[b]] === now) cur -= demand[byEnd[b++]];
      while (a < m && ks[order[a]] === now) cur += demand[order[a++]];
      if (np > 0 && t[np - 1] === now) v[np - 1] = cur;
      else { t[np] = now; v[np] = cur; np++; }
      if (cur > peak) peak = cur;
    }
    return { t: t.subarray(0, np), v: v.subarray(0, np), peak: peak };
  }

  // Running sums in place: of the whole column, or per lane.
  function undelta(col, lanes, L) {
    var prev = new Float64Array(L + 1), i, li;
    for (i = 0; i < col.length; i++) {
      li = lanes ? (lanes[i] >= 0 ? lanes[i] : -1) : L;
      if (li < 0) continue;
      col[i] = prev[li] += col[i];
    }
  }

  function prepare(d) {
    var k = d.k, L = d.lanes.length;
    d.nk = k.s.length;
    if (d.nk !== d.nkernels || d.eg.length !== 5 * d.nedges) throw new Error('timeline data: columns do not match the counts');
    d.ks = starts(k.s);
    d.ke = new Float64Array(d.nk);
    for (var i = 0; i < d.nk; i++) d.ke[i] = d.ks[i] + k.d[i];
    d.kl = laneIndex(d.nk, k.l, k.d, L);
    undelta(k.st, null, L); undelta(k.id, k.l, L);
    k.dc = new Float64Array(d.nk); k.dv = new Float64Array(d.nk);
    for (i = 0; i < d.nk; i++) {
      var rule = d.demand[k.e[i]];
      k.dc[i] = rule[0] * k.b[i] + rule[1] * k.m[i]; k.dv[i] = rule[2] * k.b[i] + rule[3] * k.m[i];
    }
    d.ts = starts(d.t.s);
    d.tl = laneIndex(d.ts.length, d.t.l, d.t.d, L);
    undelta(d.t.id, d.t.l, L);
    d.laneOf = {};
    d.lanes.forEach(function (s, li) { d.laneOf[s] = li; });
    d.cores.forEach(function (c) { c.use = usage(k, d.ks, d.ke, c.pool === 0 ? k.dc : k.dv); });
    d.stepCount = {};
    for (i = 0; i < d.nk; i++) if (k.st[i] >= 0) d.stepCount[k.st[i]] = (d.stepCount[k.st[i]] || 0) + 1;
    return d;
  }

  function load(clock) {
    var el = document.getElementById('data-' + clock);
    return el ? prepare(JSON.parse(el.textContent)) : null;
  }

  // ---- geometry ----------------------------------------------------------------------------
  function plan() {
    var n = D.lanes.length, h, gap;
    // Lanes shrink as they grow in number (none is left out): from 28 px
    // down to 1 px, so that up to 24,000 lanes stay inside what a canvas
    // can be tall.
    if (n <= 16) { h = 28; gap = 6; } else if (n <= 64) { h = 14; gap = 3; }
    else { h = Math.max(1, Math.min(6, Math.floor(24000 / n) - 1)); gap = h > 2 ? 1 : 0; }
    var y = AXIS + 4, l = { laneH: h, laneGap: gap };
    l.epY = y; if (D.ep.length) y += EPH + 4;
    l.laneY0 = y; y += n * (h + gap) + 8;
    l.coreY0 = y + 12; y = l.coreY0 + D.cores.length * (CORE_H + 8);
    l.ovY0 = y + 14; y = l.ovY0 + 4 * (OV_H + 4);
    l.height = y + PAD;
    return l;
  }
  function laneY(li) { return layout.laneY0 + li * (layout.laneH + layout.laneGap); }
  function X(t) { return LABEL + (t - view.a) / (view.b - view.a) * W; }
  function T(x) { return view.a + (x - LABEL) / W * (view.b - view.a); }
  function us(t) { return (t / 1000).toFixed(3); }

  // First index i of sorted-by-start list idx (into starts s) with s >= t.
  function lower(idx, s, t) {
    var lo = 0, hi = idx.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (s[idx[mid]] < t) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function lowerArr(s, t) {
    var lo = 0, hi = s.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (s[mid] < t) lo = mid + 1; else hi = mid; }
    return lo;
  }

  // ---- drawing -----------------------------------------------------------------------------
  function tickStep(span, want) {
    var raw = span / want, mag = Math.pow(10, Math.floor(Math.log10(raw > 0 ? raw : 1)));
    var st = [1, 2, 5, 10];
    for (var i = 0; i < st.length; i++) if (raw <= st[i] * mag) return st[i] * mag;
    return 10 * mag;
  }

  function drawAxis() {
    var step = tickStep(view.b - view.a, 10), t = Math.ceil(view.a / step) * step;
    ctx.strokeStyle = '#999'; ctx.fillStyle = '#333'; ctx.font = '11px sans-serif'; ctx.textAlign = 'center';
    ctx.beginPath(); ctx.moveTo(LABEL, AXIS); ctx.lineTo(LABEL + W, AXIS); ctx.stroke();
    for (var guard = 0; t <= view.b && guard < 100; t += step, guard++) {
      var x = Math.round(X(t)) + 0.5;
      ctx.strokeStyle = '#999'; ctx.beginPath(); ctx.moveTo(x, AXIS - 5); ctx.lineTo(x, AXIS); ctx.stroke();
      ctx.strokeStyle = '#eceef1'; ctx.beginPath(); ctx.moveTo(x, AXIS); ctx.lineTo(x, layout.height - PAD); ctx.stroke();
      ctx.fillText(String(+(t / 1000).toPrecision(12)), x, AXIS - 9);
    }
    ctx.textAlign = 'left'; ctx.fillText('time (us)', 4, AXIS - 9);
  }

  function verdictColour(v, alpha) {
    var c = v === 0 ? '76,175,80' : v === 1 ? '255,152,0' : v === 2 ? '198,40,40' : '120,120,120';
    return 'rgba(' + c + ',' + alpha + ')';
  }

  function drawEpisodes(stats) {
    var ep = D.ep, h = layout.laneH;
    if (!ep.length) return;
    ctx.fillStyle = '#333'; ctx.font = '10px sans-serif'; ctx.fillText('fork/join episodes', 8, layout.epY + EPH - 3);
    for (var i = 0; i < ep.length; i += 6) {
      var s = ep[i + 2], e = ep[i + 3];
      if (e < view.a || s > view.b || !inStep(s, e)) continue;
      var x0 = Math.max(LABEL, X(s)), x1 = Math.min(LABEL + W, X(e)), w = Math.max(1, x1 - x0);
      var side = D.laneOf[ep[i + 1]], main = D.laneOf[ep[i]];
      ctx.fillStyle = verdictColour(ep[i + 5], 0.8);
      ctx.fillRect(x0, layout.epY, w, EPH);
      if (side !== undefined) { ctx.fillStyle = verdictColour(ep[i + 5], 0.18); ctx.fillRect(x0, laneY(side) - 1, w, h + 2); }
      if (main !== undefined) { ctx.fillStyle = verdictColour(ep[i + 5], 0.08); ctx.fillRect(x0, laneY(main) - 1, w, h + 2); }
      if (w > 60) {
        ctx.fillStyle = '#fff';
        ctx.fillText((ep[i + 5] >= 0 ? cfg.verdicts[ep[i + 5]] : '?') + ' ' + ep[i] + '\u2192' + ep[i + 1] +
          (ep[i + 4] ? '' : ' (no join)'), x0 + 3, layout.epY + EPH - 3);
      }
      stats.episodes++;
    }
  }

  function inStep(s, e) { return step === null || (e >= step.s && s <= step.e); }

  // One lane's kernels: a run grows while the next kernel starts within
  // half a pixel of its end and either it or the run is under 1.5 px wide;
  // wider kernels stay apart. A run takes the colour of the engine that
  // has the most time in it.
  var engTime = new Float64Array(16);
  function drawKernels(li, stats) {
    var k = D.k, idx = D.kl.idx[li], ks = D.ks, ke = D.ke, y = laneY(li), h = layout.laneH;
    var i = lower(idx, ks, view.a - D.kl.maxd[li]), n = idx.length, sel = step ? step.id : null;
    var rx0 = 0, rx1 = -1e9, rcount = 0, rfirst = -1, mixed = false;
    var labels = h >= 14;
    function flush() {
      if (rcount === 0) return;
      var w = Math.max(1, rx1 - rx0), eng = k.e[rfirst];
      if (mixed) for (var q = 0; q < cfg.engines.length; q++) if (engTime[q] > engTime[eng]) eng = q;
      engTime.fill(0);
      ctx.fillStyle = cfg.engines[eng][1];
      ctx.fillRect(rx0, y, w > 3 && rcount === 1 ? w - 0.6 : w, h);
      if (labels && rcount === 1 && w > 40) {
        var name = D.names[k.n[rfirst]], fit = Math.floor((w - 6) / 6);
        if (fit >= 3) {
          ctx.fillStyle = '#fff';
          ctx.fillText(name.length <= fit ? name : name.slice(0, fit - 1) + '\u2026', rx0 + 3, y + h / 2 + 4);
        }
      }
      stats.kernels += rcount; stats.runs++;
      rcount = 0; mixed = false;
    }
    ctx.font = '10px sans-serif';
    for (; i < n; i++) {
      var j = idx[i], s = ks[j];
      if (s > view.b) break;
      if (ke[j] < view.a || (sel !== null && k.st[j] !== sel)) continue;
      var x0 = Math.max(LABEL - 1, X(s)), x1 = Math.min(LABEL + W + 1, X(ke[j]));
      if (rcount > 0 && x0 <= rx1 + 0.5 && (x1 - x0 < 1.5 || rx1 - rx0 < 1.5)) {
        if (x1 > rx1) rx1 = x1;
        if (k.e[j] !== k.e[rfirst]) mixed = true;
        engTime[k.e[j]] += k.d[j];
        rcount++;
      } else {
        flush();
        rx0 = x0; rx1 = x1; rcount = 1; rfirst = j;
        engTime[k.e[j]] += k.d[j];
      }
    }
    flush();
  }

  function drawTasks(li) {
    var t = D.t, idx = D.tl.idx[li], ts = D.ts, y = laneY(li), h = layout.laneH;
    var i = lower(idx, ts, view.a - D.tl.maxd[li]), n = idx.length, lastX = -1e9;
    var ty = y + Math.floor(h * 0.55), th = Math.max(1, Math.ceil(h * 0.45));
    for (; i < n; i++) {
      var j = idx[i], s = ts[j], e = s + t.d[j];
      if (s > view.b) break;
      if (e < view.a || !inStep(s, e)) continue;
      var x0 = Math.max(LABEL, X(s)), x1 = Math.min(LABEL + W, X(e));
      if (x1 < lastX + 0.5) continue;
      lastX = x1;
      ctx.fillStyle = t.w[j] ? '#d6d6d6' : '#9e9e9e';
      ctx.fillRect(x0, ty, Math.max(1, x1 - x0), th);
    }
  }

  function drawLanes(stats) {
    var h = layout.laneH, L = D.lanes.length;
    ctx.font = Math.min(11, Math.max(7, h - 2)) + 'px sans-serif';
    for (var li = 0; li < L; li++) {
      var y = laneY(li);
      ctx.fillStyle = '#f3f4f6'; ctx.fillRect(LABEL, y, W, h);
      if (h >= 7 || li % Math.ceil(8 / Math.max(1, h + layout.laneGap)) === 0) {
        ctx.fillStyle = '#333'; ctx.font = Math.min(11, Math.max(7, h - 2)) + 'px sans-serif';
        ctx.fillText(D.lanes[li] < 0 ? 'Stream N/A' : 'Stream ' + D.lanes[li], 8, y + h / 2 + Math.min(h, 11) / 2 - 1);
      }
      stats.lanes++;
    }
    for (li = 0; li < L; li++) drawTasks(li);
    for (li = 0; li < L; li++) drawKernels(li, stats);
  }

  // Event edges as arrows; when more than 200 distinct ones are in view,
  // thin lines without heads (zooming in brings the arrows back).
  function drawEdges(stats) {
    var eg = D.eg, seen = {}, h = layout.laneH, todo = [];
    for (var i = 0; i < eg.length; i += 5) {
      var fl = D.laneOf[eg[i + 1]], tl = D.laneOf[eg[i + 2]], ft = eg[i + 3], tt = eg[i + 4];
      if (fl === undefined || tl === undefined) continue;
      if (Math.max(ft, tt) < view.a || Math.min(ft, tt) > view.b || !inStep(Math.min(ft, tt), Math.max(ft, tt))) continue;
      var x0 = X(ft), x1 = X(tt), key = Math.round(x0) + ',' + Math.round(x1) + ',' + fl + ',' + tl;
      stats.edges++;
      if (seen[key]) continue;
      seen[key] = 1;
      todo.push(x0, laneY(fl) + h / 2, x1, laneY(tl) + h / 2);
    }
    var heads = todo.length <= 4 * 200;
    ctx.strokeStyle = heads ? '#222' : 'rgba(34,34,34,0.3)'; ctx.fillStyle = '#222'; ctx.lineWidth = heads ? 1.2 : 1;
    for (i = 0; i < todo.length; i += 4) {
      var ax = todo[i], ay = todo[i + 1], bx = todo[i + 2], by = todo[i + 3];
      ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx, by); ctx.stroke();
      if (!heads) continue;
      var ang = Math.atan2(by - ay, bx - ax);
      ctx.beginPath(); ctx.moveTo(bx, by);
      ctx.lineTo(bx - 7 * Math.cos(ang - 0.4), by - 7 * Math.sin(ang - 0.4));
      ctx.lineTo(bx - 7 * Math.cos(ang + 0.4), by - 7 * Math.sin(ang + 0.4));
      ctx.closePath(); ctx.fill();
    }
    ctx.lineWidth = 1;
  }

  // A cores lane: per pixel column the most blocks in use inside it, red
  // above the capacity line; the contention spans as a red band under it.
  function drawCores(stats) {
    var caps = [];
    D.cores.forEach(function (c, ci) {
      var y = layout.coreY0 + ci * (CORE_H + 8), use = c.use, top = Math.max(c.cap, use.peak) * 1.1 || 1;
      var col = new Float64Array(W + 1).fill(-1), i = Math.max(0, lowerArr(use.t, view.a) - 1), x;
      ctx.fillStyle = '#333'; ctx.font = '11px sans-serif';
      ctx.fillText(c.name + ' in use', 8, y + 14);
      if (c.spans.length) { ctx.fillStyle = '#c62828'; ctx.font = '10px sans-serif'; ctx.fillText((c.spans.length / 3) + ' contention spans', 8, y + 40); }
      ctx.font = '10px sans-serif'; ctx.fillStyle = '#666';
      ctx.fillText('capacity ' + c.cap + ', peak ' + use.peak, 8, y + 28);
      ctx.fillStyle = '#f3f4f6'; ctx.fillRect(LABEL, y, W, CORE_H);
      for (; i < use.t.length && use.t[i] <= view.b; i++) {
        var from = Math.max(0, Math.floor(X(use.t[i]) - LABEL));
        var to = i + 1 < use.t.length ? Math.min(W, Math.floor(X(use.t[i + 1]) - LABEL)) : from;
        if (to < from) continue;
        for (x = from; x <= to && x <= W; x++) if (use.v[i] > col[x]) col[x] = use.v[i];
      }
      var capY = y + CORE_H - c.cap / top * CORE_H;
      for (x = 0; x < W; x++) {
        if (col[x] <= 0) continue;
        var vy = y + CORE_H - col[x] / top * CORE_H;
        ctx.fillStyle = '#7a8fa6'; ctx.fillRect(LABEL + x, Math.max(vy, capY), 1, y + CORE_H - Math.max(vy, capY));
        if (vy < capY) { ctx.fillStyle = '#c62828'; ctx.fillRect(LABEL + x, vy, 1, capY - vy); }
      }
      var lastX = -1e9;
      ctx.fillStyle = 'rgba(198,40,40,0.85)';
      for (i = 0; i < c.spans.length; i += 3) {
        if (c.spans[i + 1] < view.a || c.spans[i] > view.b) continue;
        var x0 = Math.max(LABEL, X(c.spans[i])), x1 = Math.min(LABEL + W, X(c.spans[i + 1]));
        stats.contention++;
        if (x1 < lastX + 0.5) continue;
        lastX = x1;
        ctx.fillRect(x0, y + CORE_H - 4, Math.max(1, x1 - x0), 4);
      }
      ctx.strokeStyle = '#c62828'; ctx.setLineDash([4, 3]);
      ctx.beginPath(); ctx.moveTo(LABEL, Math.round(capY) + 0.5); ctx.lineTo(LABEL + W, Math.round(capY) + 0.5); ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = '#c62828'; ctx.font = '10px sans-serif'; ctx.fillText(String(c.cap), LABEL + W + 2, capY + 4);
      caps.push(['cube', 'vector'][c.pool] + ':' + c.cap);
      stats.cores++;
    });
    body.capacity = caps.join(' ');
  }

  function drawOverlap(stats) {
    ctx.fillStyle = '#333'; ctx.font = 'bold 11px sans-serif';
    ctx.fillText('Overlap Analysis', 8, layout.ovY0 - 4);
    ctx.font = '10px sans-serif';
    for (var lane = 0; lane < 4; lane++) {
      var y = layout.ovY0 + lane * (OV_H + 4), iv = D.ov[lane] || [], lastX = -1e9;
      ctx.fillStyle = '#333'; ctx.fillText(cfg.overlap[lane][0], 8, y + OV_H - 3);
      ctx.fillStyle = '#f3f4f6'; ctx.fillRect(LABEL, y, W, OV_H);
      ctx.fillStyle = cfg.overlap[lane][1];
      for (var i = 0; i < iv.length; i += 2) {
        if (iv[i + 1] < view.a || iv[i] > view.b) continue;
        var x0 = Math.max(LABEL, X(iv[i])), x1 = Math.min(LABEL + W, X(iv[i + 1]));
        if (x1 < lastX + 0.5) continue;
        lastX = x1;
        ctx.fillRect(x0, y, Math.max(1, x1 - x0), OV_H);
      }
      stats.overlap++;
    }
  }

  function draw() {
    pending = false;
    var dpr = window.devicePixelRatio || 1, cw = LABEL + W + 30;
    if (canvas.width !== Math.round(cw * dpr) || canvas.height !== Math.round(layout.height * dpr)) {
      canvas.width = Math.round(cw * dpr); canvas.height = Math.round(layout.height * dpr);
      canvas.style.width = cw + 'px'; canvas.style.height = layout.height + 'px';
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cw, layout.height);
    var stats = { lanes: 0, kernels: 0, runs: 0, edges: 0, overlap: 0, cores: 0, episodes: 0, contention: 0 };
    drawAxis();
    drawEpisodes(stats);
    drawLanes(stats);
    drawEdges(stats);
    drawCores(stats);
    drawOverlap(stats);
    body.lanes = stats.lanes; body.kernels = stats.kernels; body.runs = stats.runs; body.edges = stats.edges;
    body.overlapLanes = stats.overlap; body.coreLanes = stats.cores; body.episodes = stats.episodes;
    body.contention = stats.contention;
    body.view = Math.round(view.a) + ',' + Math.round(view.b);
    rangeEl.textContent = 'showing ' + us(view.a) + ' \u2013 ' + us(view.b) + ' us (' + us(view.b - view.a) +
      ' us)' + (step ? ' of step ' + step.id : '') + ' \u00b7 ' + stats.kernels + ' kernels in ' + stats.runs + ' marks';
  }

  function request() {
    if (testMode) { draw(); return; }
    if (!pending) { pending = true; requestAnimationFrame(draw); }
  }

  // ---- view control ---------------------------------------------------------------------------
  function setView(a, b) {
    var span = Math.max(MIN_SPAN, Math.min(b - a, base.b - base.a));
    if (a < base.a) a = base.a;
    if (a + span > base.b) a = base.b - span;
    view.a = Math.max(base.a, a); view.b = view.a + span;
    request();
  }
  function zoomAt(t, factor) {
    var span = view.b - view.a, ns2 = Math.max(MIN_SPAN, Math.min(span * factor, base.b - base.a));
    setView(t - (t - view.a) * ns2 / span, t - (t - view.a) * ns2 / span + ns2);
  }
  function reset() { setView(base.a, base.b); }
  function pan(frac) { var span = view.b - view.a; setView(view.a + span * frac, view.b + span * frac); }
  function setBase(a, b) { base.a = a; base.b = b > a ? b : a + MIN_SPAN; reset(); }

  function selectStep(value) {
    if (value === 'all') { step = null; setBase(D.t0, D.t1); return; }
    for (var i = 0; i < D.steps.length; i += 3) {
      if (String(D.steps[i]) === String(value)) {
        step = { id: D.steps[i], s: D.steps[i + 1], e: D.steps[i + 2] };
        setBase(step.s, step.e);
        return;
      }
    }
  }

  function fillSteps() {
    while (stepSel.options.length > 1) stepSel.remove(1);
    var frag = document.createDocumentFragment();
    for (var i = 0; i < D.steps.length; i += 3) {
      var o = document.createElement('option');
      o.value = String(D.steps[i]); o.textContent = 'step ' + D.steps[i] + ' (' + (D.stepCount[D.steps[i]] || 0) + ' kernels)';
      frag.appendChild(o);
    }
    stepSel.appendChild(frag);
    stepSel.disabled = D.steps.length === 0;
    stepSel.value = 'all';
  }

  function useClock(clock) {
    D = clocks[clock] || (clocks[clock] = load(clock));
    layout = plan();
    step = null;
    fillSteps();
    setBase(D.t0, D.t1);
  }

  // ---- the tooltip ---------------------------------------------------------------------------------
  function hover(ev) {
    var r = canvas.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top, text = describe(x, y);
    if (!text) { tip.style.display = 'none'; return; }
    tip.textContent = text; tip.style.display = 'block';
    tip.style.left = (x + canvas.offsetLeft + 14) + 'px'; tip.style.top = (y + canvas.offsetTop + 14) + 'px';
  }

  function describe(x, y) {
    if (x < LABEL || x > LABEL + W) return '';
    var t = T(x), tol = (view.b - view.a) / W * 3, h = layout.laneH, li, i;
    var lanes = D.lanes.length;
    if (y >= layout.laneY0 && y < layout.laneY0 + lanes * (h + layout.laneGap)) {
      li = Math.floor((y - layout.laneY0) / (h + layout.laneGap));
      var k = D.k, idx = D.kl.idx[li], hits = [];
      for (i = lower(idx, D.ks, t - tol - D.kl.maxd[li]); i < idx.length && D.ks[idx[i]] <= t + tol; i++) {
        var j = idx[i];
        if (D.ke[j] >= t - tol && (!step || k.st[j] === step.id)) hits.push(j);
      }
      if (hits.length === 1) {
        j = hits[0];
        return D.names[k.n[j]] + '\nstream ' + D.lanes[li] + (k.id[j] >= 0 ? ', task ' + k.id[j] : '') +
          (k.st[j] >= 0 ? ', step ' + k.st[j] : '') + ' \u00b7 ' + D.names[k.i[j]] + '\nBlock Num ' + k.b[j] +
          ' \u00b7 Mix Block Num ' + k.m[j] + '\nstart ' + us(D.ks[j]) + ' us \u00b7 ' + us(k.d[j]) + ' us';
      }
      if (hits.length > 1) {
        return hits.length + ' kernels under the cursor on stream ' + D.lanes[li] + ' (zoom in):\n' +
          hits.slice(0, 6).map(function (q) { return D.names[k.n[q]] + ' @ ' + us(D.ks[q]) + ' us'; }).join('\n');
      }
      var tk = D.t, tidx = D.tl.idx[li];
      for (i = lower(tidx, D.ts, t - tol - D.tl.maxd[li]); i < tidx.length && D.ts[tidx[i]] <= t + tol; i++) {
        j = tidx[i];
        if (D.ts[j] + tk.d[j] >= t - tol)
          return D.names[tk.n[j]] + '\nstream ' + D.lanes[li] + (tk.id[j] >= 0 ? ', task ' + tk.id[j] : '') +
            (tk.ev[j] >= 0 ? ' \u00b7 event ' + tk.ev[j] : '') + '\nstart ' + us(D.ts[j]) + ' us \u00b7 ' + us(tk.d[j]) + ' us';
      }
      return 'stream ' + D.lanes[li] + ' at ' + us(t) + ' us';
    }
    if (D.ep.length && y >= layout.epY && y < layout.epY + EPH) {
      for (i = 0; i < D.ep.length; i += 6) {
        if (D.ep[i + 2] <= t + tol && D.ep[i + 3] >= t - tol)
          return 'episode: main stream ' + D.ep[i] + ', side stream ' + D.ep[i + 1] + '\n' + us(D.ep[i + 2]) + ' \u2013 ' +
            us(D.ep[i + 3]) + ' us' + (D.ep[i + 4] ? '' : ' (no join: to the end)') + '\nverdict ' +
            (D.ep[i + 5] >= 0 ? cfg.verdicts[D.ep[i + 5]] : 'unknown');
      }
      return '';
    }
    for (var ci = 0; ci < D.cores.length; ci++) {
      var cy = layout.coreY0 + ci * (CORE_H + 8), c = D.cores[ci];
      if (y >= cy && y < cy + CORE_H) {
        var p = lowerArr(c.use.t, t + 1e-9) - 1, v = p >= 0 ? c.use.v[p] : 0, s = '';
        for (i = 0; i < c.spans.length; i += 3)
          if (c.spans[i] <= t + tol && c.spans[i + 1] >= t - tol)
            s = '\ncontention ' + us(c.spans[i]) + ' \u2013 ' + us(c.spans[i + 1]) + ' us: ' + c.spans[i + 2] +
              ' blocks asked' + (c.queued ? ' (running and queued)' : '') + ' of ' + c.cap;
        return c.name + ' at ' + us(t) + ' us: ' + v + ' blocks running of ' + c.cap + s;
      }
    }
    return '';
  }

  // ---- input ---------------------------------------------------------------------------------------
  var drag = null;
  canvas.addEventListener('wheel', function (ev) {
    var r = canvas.getBoundingClientRect(), x = ev.clientX - r.left;
    if (x < LABEL) return; // over the lane names the wheel scrolls the lanes, as anywhere else
    ev.preventDefault();
    var dy = ev.deltaY * (ev.deltaMode === 1 ? 16 : ev.deltaMode === 2 ? 400 : 1);
    if (ev.shiftKey) { pan(dy / 1000); return; }
    zoomAt(x >= LABEL && x <= LABEL + W ? T(x) : (view.a + view.b) / 2, Math.exp(dy * 0.0015));
  }, { passive: false });
  canvas.addEventListener('mousedown', function (ev) {
    if (ev.button !== 0) return;
    drag = { x: ev.clientX, a: view.a, b: view.b };
    canvas.classList.add('dragging');
    ev.preventDefault();
  });
  window.addEventListener('mousemove', function (ev) {
    if (drag) {
      var dt = (ev.clientX - drag.x) / W * (drag.b - drag.a);
      setView(drag.a - dt, drag.b - dt);
      tip.style.display = 'none';
    } else if (ev.target === canvas) {
      hover(ev);
    }
  });
  window.addEventListener('mouseup', function () { drag = null; canvas.classList.remove('dragging'); });
  canvas.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
  window.addEventListener('keydown', function (ev) {
    if (ev.target && ev.target.tagName === 'SELECT') return;
    var mid = (view.a + view.b) / 2;
    if (ev.key === '0' || ev.key === 'Home' || ev.key === 'Escape') reset();
    else if (ev.key === '+' || ev.key === '=') zoomAt(mid, 0.5);
    else if (ev.key === '-' || ev.key === '_') zoomAt(mid, 2);
    else if (ev.key === 'ArrowLeft') pan(-0.2);
    else if (ev.key === 'ArrowRight') pan(0.2);
    else if (ev.key === 'ArrowUp' || ev.key === 'ArrowDown') wrap.scrollTop += ev.key === 'ArrowUp' ? -60 : 60;
    else return;
    ev.preventDefault();
  });
  document.getElementById('reset').addEventListener('click', reset);
  document.getElementById('zin').addEventListener('click', function () { zoomAt((view.a + view.b) / 2, 0.5); });
  document.getElementById('zout').addEventListener('click', function () { zoomAt((view.a + view.b) / 2, 2); });
  stepSel.addEventListener('change', function () { selectStep(stepSel.value); });
  clockBox.addEventListener('change', function () { useClock(clockBox.checked ? 'measured' : 'modelled'); });

  // ---- the first frame, and the self test ---------------------------------------------------------------
  testMode = true; // the first frame is drawn now, not on the next animation frame
  useClock('modelled');
  testMode = location.hash === '#test';
  body.drawnMs = Math.round(performance.now());
  body.firstKernels = body.kernels;
  if (testMode) selfTest();

  function selfTest() {
    var r = canvas.getBoundingClientRect(), cx = r.left + LABEL + W / 2, cy = r.top + layout.laneY0 + 2;
    var full = [view.a, view.b], results = [], v;
    function rec(name, ok, what) { body['test' + name] = (ok ? 'ok ' : 'FAIL ') + what; results.push(ok ? '' : name); }
    function span() { return view.b - view.a; }
    var k0 = +body.kernels;
    canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: -800, clientX: cx, clientY: cy, bubbles: true, cancelable: true }));
    v = [view.a, view.b];
    rec('Wheel', span() < (full[1] - full[0]) * 0.5 && v[0] >= full[0] && v[1] <= full[1] && +body.kernels <= k0,
      full.join(',') + ' -> ' + v.map(Math.round).join(',') + ', kernels ' + k0 + ' -> ' + body.kernels);
    canvas.dispatchEvent(new MouseEvent('mousedown', { button: 0, clientX: cx, clientY: cy, bubbles: true }));
    window.dispatchEvent(new MouseEvent('mousemove', { clientX: cx - 100, clientY: cy, bubbles: true }));
    window.dispatchEvent(new MouseEvent('mouseup', { clientX: cx - 100, clientY: cy, bubbles: true }));
    rec('Drag', view.a > v[0] && Math.abs(span() - (v[1] - v[0])) < 1e-6 * span() + 1e-9,
      v.map(Math.round).join(',') + ' -> ' + Math.round(view.a) + ',' + Math.round(view.b));
    window.dispatchEvent(new KeyboardEvent('keydown', { key: '0', bubbles: true }));
    rec('Key0', view.a === full[0] && view.b === full[1], 'reset to ' + Math.round(view.a) + ',' + Math.round(view.b));
    document.getElementById('zin').click();
    var zin = span();
    document.getElementById('reset').click();
    rec('Buttons', zin < (full[1] - full[0]) * 0.75 && view.a === full[0] && view.b === full[1],
      'zoom in to a span of ' + Math.round(zin) + ', reset to ' + Math.round(view.a) + ',' + Math.round(view.b));
    var j0 = D.kl.idx[0][0], hx = r.left + X((D.ks[j0] + D.ke[j0]) / 2), line;
    canvas.dispatchEvent(new MouseEvent('mousemove', { clientX: hx, clientY: r.top + laneY(0) + layout.laneH / 2, bubbles: true }));
    line = tip.textContent.split('\n');
    rec('Hover', tip.style.display === 'block' && tip.textContent.indexOf(D.names[D.k.n[j0]]) >= 0, line[0] + ' | ' + (line[2] || ''));
    if (D.cores.length) {
      var ci = D.cores.length - 1;
      canvas.dispatchEvent(new MouseEvent('mousemove', { clientX: hx, clientY: r.top + layout.coreY0 + ci * (CORE_H + 8) + CORE_H / 2, bubbles: true }));
      rec('HoverCores', tip.textContent.indexOf(D.cores[ci].name + ' at ') === 0, tip.textContent.split('\n')[0]);
    }
    if (D.steps.length >= 6) {
      var id = D.steps[3], want = D.stepCount[id];
      stepSel.value = String(id);
      stepSel.dispatchEvent(new Event('change'));
      rec('Step', +body.kernels === want && view.a === D.steps[4] && view.b === D.steps[5] && want < D.nk,
        'step ' + id + ': ' + body.kernels + ' kernels drawn of ' + want + ' in the step, ' + D.nk + ' in all');
      body.stepKernels = body.kernels;
      stepSel.value = 'all';
      stepSel.dispatchEvent(new Event('change'));
      rec('AllSteps', +body.kernels === k0, 'all steps again: ' + body.kernels + ' kernels');
    }
    if (!clockBox.disabled) {
      clockBox.click();
      var m = clocks.measured;
      rec('Clock', m && +body.kernels === m.nk && body.view === Math.round(m.t0) + ',' + Math.round(m.t1),
        'measured clock: ' + body.kernels + ' kernels drawn of ' + (m ? m.nk : 0) + ', view ' + body.view);
      clockBox.click();
      rec('ClockBack', +body.kernels === k0 && view.a === full[0] && view.b === full[1],
        'modelled clock again: ' + body.kernels + ' kernels');
    }
    body.test = results.join('') === '' ? 'pass' : 'fail:' + results.filter(function (s) { return s; }).join(',');
  }
})();
